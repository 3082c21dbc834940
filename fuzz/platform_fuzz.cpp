// Platform files: the checker must accept or refuse with a PlatformError, never crash, and its route query must
// answer on whatever it accepted.
#include "platform/platform_check.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto topology = tit::platform::check_platform_text(text, "fuzz.xml");
    // names of the bundled platforms and of the seeds' clusters
    (void)topology.find_unrouted({"atlas", "dorado", "eris", "n0", "n3", "node-0", "node-2", "ft-0", "a", "b"});
  } catch (const tit::platform::PlatformError&) {
  }
  return 0;
}

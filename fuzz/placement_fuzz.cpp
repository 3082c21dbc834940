// Deployments and hostfiles: the first byte chooses the reader and the rank count; every input is either placed or
// refused with an InputError.
#include "fuzz_files.hpp"
#include "replay/placement.hpp"

#include <optional>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  if (size == 0)
    return 0;
  auto file = tit::fuzz::scratch() / "input";
  tit::fuzz::write_file(file, std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  try {
    if (data[0] & 1) {
      auto p = tit::replay::read_deployment(file);
      (void)p;
    } else {
      std::optional<int> ranks;
      if (data[0] & 2)
        ranks = 1 + (data[0] >> 2); // 1..64 ranks, as --np gives
      auto p = tit::replay::read_hostfile(file, ranks);
      (void)p;
    }
  } catch (const tit::replay::InputError&) {
  }
  return 0;
}

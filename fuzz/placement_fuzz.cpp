// Deployments and hostfiles: the first byte chooses the reader and the rank count of a hostfile (1..64, as the traces
// or --np give it); every input is either placed or refused with an InputError.
#include "fuzz_files.hpp"
#include "replay/placement.hpp"


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
      auto p = tit::replay::read_hostfile(file, 1 + (data[0] >> 2)); // 1..64 ranks
      (void)p;
    }
  } catch (const tit::replay::InputError&) {
  }
  return 0;
}

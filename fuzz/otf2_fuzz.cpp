// OTF2 archives (libs/otf2). An input is the files of a two-rank archive, each preceded by its length (4 bytes,
// little-endian), in the order traces.otf2, traces.def, traces/0.def, traces/0.evt, traces/1.def, traces/1.evt;
// missing trailing files are absent from the archive. tests/otf2/pack_fuzz_seed.py packs an archive into such an
// input (seeds: the archives of tests/otf2/make_archive.py). Every rank is read (at most 100000 actions); the
// reader must return actions or throw a TraceError. libotf2 itself (Debian's, not instrumented) is fuzzed as a
// black box: its own crashes on damaged files would show here too. Run it with
// ASAN_OPTIONS=allocator_may_return_null=1: a damaged anchor file makes libotf2 calloc gigabytes, which fails (and
// the reader refuses the archive, exit 2) outside ASan but aborts under ASan's allocator.
#include "fuzz_files.hpp"
#include "otf2_input.hpp"
#include "trace/reader.hpp"

#include <array>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const std::array<const char*, 6> names = {"traces.otf2",  "traces.def",   "traces/0.def",
                                                   "traces/0.evt", "traces/1.def", "traces/1.evt"};
  const auto& dir = tit::fuzz::scratch();
  std::filesystem::create_directories(dir / "traces");
  std::size_t at = 0;
  for (const char* name : names) {
    if (size - at < 4)
      break;
    std::uint32_t length = 0;
    std::memcpy(&length, data + at, 4);
    at += 4;
    length = static_cast<std::uint32_t>(std::min<std::size_t>(length, size - at));
    tit::fuzz::write_file(dir / name, std::string_view(reinterpret_cast<const char*>(data + at), length));
    at += length;
  }
  if (!tit::otf2::is_anchor_file(dir / "traces.otf2")) // TraceSet::open hands only anchor files to the reader
    return 0;
  try {
    auto set = tit::otf2::open_archive(dir / "traces.otf2", std::nullopt, tit::otf2::ReadOptions{});
    tit::fuzz::read_ranks(*set);
  } catch (const tit::trace::TraceError&) {
  }
  return 0;
}

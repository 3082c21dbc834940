// Compressed traces (docs/compressed-format.md). The first byte chooses what the rest is:
//  - even: a whole file (the magic and version 6 are put first when the input lacks them), so that the header,
//    the CRC checks and the sizes are fuzzed;
//  - odd: the structure record's length as a varint, the raw structure record, then the raw value area (a length,
//    not a separator: structure records hold zero bytes, so a NUL would cut real seeds short); the target wraps them
//    into a valid file (CRC-32s, the block table rewritten to cut the value area into as many blocks as the record
//    names, in one stored chunk), so that the decoders and each rank's walk are fuzzed past the CRC checks.
// Every rank is read (at most 100000 actions in all: loop trip counts may be huge); the reader must return actions
// or throw a TraceError.
#include "fuzz_files.hpp"
#include "compressed/compressed.hpp"
#include "compressed/container/container.hpp"
#include "trace/reader.hpp"

#include <algorithm>
#include <string>

namespace {

namespace cf = tit::trace::cformat;

/// A valid container around the fuzzed records, or nothing when the structure record does not decode.
std::string wrap(std::string_view meta_raw, std::string_view values)
{
  static const std::string path = "fuzz.tit";
  cf::Meta meta;
  try {
    meta = cf::decode_meta(meta_raw, path);
  } catch (const tit::trace::TraceError&) {
    return {};
  }
  // one chunk, the value area stored as it is (its stored size equals its raw size); block i is its i-th n-th
  std::size_t n = meta.blocks.size();
  meta.chunks = {cf::ChunkRef{0, values.size(), values.size(), cf::crc32_of(values), cf::kStored}};
  for (std::size_t i = 0; i < n; ++i)
    meta.blocks[i] = cf::BlockRef{0, values.size() * i / n, values.size() * (i + 1) / n - values.size() * i / n};
  return cf::file_head(cf::kVersion, cf::encode_meta(meta)) + std::string(values);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  if (size == 0)
    return 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string file;
  if ((data[0] & 1) == 0) {
    std::string_view magic(cf::kMagic.data(), cf::kMagic.size());
    file = rest.starts_with(magic) ? std::string(rest)
                                   : std::string(magic) + static_cast<char>(cf::kBaseVersion) + std::string(rest);
  } else {
    std::size_t length = 0;
    std::size_t at = 0;
    for (int shift = 0; at < rest.size() && shift < 28; shift += 7) {
      auto b = static_cast<unsigned char>(rest[at++]);
      length |= std::size_t{b & 0x7fu} << shift;
      if (b < 0x80)
        break;
    }
    rest.remove_prefix(at);
    length = std::min(length, rest.size());
    file = wrap(rest.substr(0, length), rest.substr(length));
    if (file.empty())
      return 0;
  }
  auto p = tit::fuzz::scratch() / "fuzz.tit";
  tit::fuzz::write_file(p, file);
  try {
    auto set = tit::trace::TraceSet::open(p, std::nullopt);
    tit::fuzz::read_ranks(*set);
  } catch (const tit::trace::TraceError&) {
  }
  return 0;
}

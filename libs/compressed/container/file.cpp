// The file of a compressed trace as it is written: its head (magic, version, structure record) and its value chunks
// (docs/compressed-format.md, "File").
#include "compressed/container/container.hpp"
#include "compressed/values/values.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace tit::trace::cformat {

std::string file_head(unsigned version, const std::string& meta)
{
  ByteWriter head;
  head.bytes(std::string_view(kMagic.data(), kMagic.size()));
  head.varint(version);
  std::uint8_t codec = 0;
  std::string stored = pack(meta, codec);
  head.varint(meta.size());
  head.varint(stored.size());
  head.u32(crc32_of(stored));
  head.byte(codec);
  head.bytes(stored);
  return std::move(head.out());
}

void write_file(const std::filesystem::path& out, const std::string& head, const std::vector<std::string>& blocks)
{
  auto failed = [&out] {
    int e = errno;
    return TraceError(fmt::format("error: cannot write compressed trace '{}'{}{}", out.string(), e != 0 ? ": " : "",
                                  e != 0 ? std::strerror(e) : ""));
  };
  errno = 0;
  std::ofstream f(out, std::ios::binary | std::ios::trunc);
  if (!f)
    throw failed();
  f.write(head.data(), static_cast<std::streamsize>(head.size()));
  for (const std::string& b : blocks)
    f.write(b.data(), static_cast<std::streamsize>(b.size()));
  f.flush();
  if (!f)
    throw failed();
  f.close();
  if (!f)
    throw failed();
}

/// The structure record of `meta` with the rank entries' ids as differences or as they are, whichever packs smaller
/// (differences for a block per rank in rank order; ids as they are for ranks that share blocks out of order).
std::string smaller_head(Meta meta)
{
  meta.absolute_ids = false;
  std::string differences = file_head(written_version(meta), encode_meta(meta));
  meta.absolute_ids = true;
  std::string ids = file_head(written_version(meta), encode_meta(meta));
  return ids.size() < differences.size() ? ids : differences;
}

} // namespace tit::trace::cformat

// Packing the records of compressed traces: raw deflate (zlib) or raw LZMA2 (liblzma, with an allocator that keeps
// its tables for the next record), CRC-32 (docs/compressed-format.md, "Records").
#include "compressed/container/container.hpp"

#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

namespace tit::trace::cformat {

std::string_view chunk_dictionary(std::string_view chunk0)
{
  constexpr std::size_t kWindow = 32 * 1024;
  return chunk0.size() > kWindow ? chunk0.substr(chunk0.size() - kWindow) : chunk0;
}

namespace {

std::string deflate(std::string_view raw, std::string_view dictionary)
{
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw TraceError("error: zlib cannot start compressing");
  if (!dictionary.empty())
    deflateSetDictionary(&z, reinterpret_cast<const Bytef*>(dictionary.data()), static_cast<uInt>(dictionary.size()));
  std::string out(deflateBound(&z, static_cast<uLong>(raw.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = ::deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END)
    throw TraceError(fmt::format("error: zlib cannot compress a record of {} bytes (code {})", raw.size(), rc));
  // a record that deflate does not shrink is stored as it is: its stored size is then its size
  return out.size() < raw.size() ? out : std::string(raw);
}

std::string inflate(std::string_view stored, std::uint64_t raw_size, const std::string& file,
                    std::string_view record, std::string_view dictionary)
{
  // a deflate stream expands at most ~1032:1; a larger claim is corrupt (and must not allocate)
  if (raw_size > stored.size() * 1040 + 64)
    throw TraceError(fmt::format("{}: error: {}: claims {} bytes from {} compressed ones (corrupt compressed trace)",
                                 file, record, raw_size, stored.size()));
  if (stored.size() == raw_size) // stored as it is
    return std::string(stored);
  std::string out(raw_size, '\0');
  z_stream z{};
  if (inflateInit2(&z, -15) != Z_OK)
    throw TraceError(fmt::format("{}: error: {}: zlib cannot start decompressing", file, record));
  if (!dictionary.empty())
    inflateSetDictionary(&z, reinterpret_cast<const Bytef*>(dictionary.data()), static_cast<uInt>(dictionary.size()));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stored.data()));
  z.avail_in = static_cast<uInt>(stored.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = ::inflate(&z, Z_FINISH);
  std::uint64_t produced = z.total_out;
  bool ended = rc == Z_STREAM_END && z.avail_in == 0;
  inflateEnd(&z);
  if (!ended || produced != raw_size)
    throw TraceError(fmt::format("{}: error: {}: cannot decompress it ({}; expected {} bytes) (corrupt compressed trace)",
                                 file, record, ended ? "wrong size" : zError(rc == Z_STREAM_END ? Z_DATA_ERROR : rc),
                                 raw_size));
  return out;
}

/// liblzma allocates its match finder's tables for every record it packs (half a megabyte at the smallest
/// dictionary, zeroed); glibc serves blocks that large as fresh mappings, so every record cost ~150 us of page faults,
/// more than packing a small record (and a record shorter than kLzmaSample is packed once per tried property). These
/// blocks are kept by the thread for its next record instead; blocks above kKeptBlock (large records, whose packing
/// dwarfs a mapping) are returned at once, and at most kKeptBlocks are kept.
class LzmaBlocks {
 public:
  static const lzma_allocator* allocator()
  {
    static const lzma_allocator a{&LzmaBlocks::alloc, &LzmaBlocks::free, nullptr};
    return &a;
  }

 private:
  static constexpr std::size_t kKeptBlock = std::size_t{4} << 20;
  static constexpr std::size_t kKeptBlocks = 8;
  // each block starts with its size, at an offset that keeps the caller's part aligned for any type
  static constexpr std::size_t kHeader = alignof(std::max_align_t);

  struct Kept {
    std::vector<void*> blocks;
    ~Kept()
    {
      for (void* b : blocks)
        std::free(b);
    }
  };
  static Kept& kept()
  {
    thread_local Kept k;
    return k;
  }
  static std::size_t size_of(void* block) { return *static_cast<std::size_t*>(block); }

  static void* alloc(void*, std::size_t count, std::size_t size)
  {
    if (size != 0 && count > (std::numeric_limits<std::size_t>::max() - kHeader) / size)
      return nullptr;
    std::size_t n = count * size;
    auto& blocks = kept().blocks;
    auto found = std::find_if(blocks.begin(), blocks.end(), [n](void* b) { return size_of(b) == n; });
    void* block = nullptr;
    if (found != blocks.end()) {
      block = *found;
      blocks.erase(found);
    } else {
      block = std::malloc(n + kHeader);
      if (block == nullptr)
        return nullptr;
      *static_cast<std::size_t*>(block) = n;
    }
    return static_cast<char*>(block) + kHeader;
  }

  static void free(void*, void* p)
  {
    if (p == nullptr)
      return;
    void* block = static_cast<char*>(p) - kHeader;
    auto& blocks = kept().blocks;
    if (size_of(block) > kKeptBlock || blocks.size() >= kKeptBlocks) {
      std::free(block);
      return;
    }
    blocks.push_back(block);
  }
};

/// LZMA2 at preset 6 with a dictionary the size of the record (and the preset dictionary) rounded up to a power of 2:
/// the writer and the reader derive the same options from the raw size.
lzma_options_lzma lzma_options(std::uint64_t raw_size, std::string_view dictionary, std::uint8_t props)
{
  lzma_options_lzma o;
  lzma_lzma_preset(&o, 6);
  o.lc = props % 9;
  o.lp = props / 9 % 5;
  o.pb = props / 45;
  std::uint64_t need = raw_size + dictionary.size();
  std::uint32_t size = LZMA_DICT_SIZE_MIN;
  while (size < need && size < (std::uint32_t{1} << 26))
    size <<= 1;
  o.dict_size = size;
  if (!dictionary.empty()) {
    o.preset_dict = reinterpret_cast<const std::uint8_t*>(dictionary.data());
    o.preset_dict_size = static_cast<std::uint32_t>(dictionary.size());
  }
  return o;
}

/// `trial`: packed only to compare properties, in liblzma's fast mode (hash chains, greedy parsing: about a fifth of
/// the normal mode's cost on these records), whose bytes are never written.
std::string lzma_pack(std::string_view raw, std::string_view dictionary, std::uint8_t props, bool trial = false)
{
  lzma_options_lzma o = lzma_options(raw.size(), dictionary, props);
  o.dict_size = std::min(o.dict_size, kLzmaWriterDict);
  if (trial) {
    o.mode = LZMA_MODE_FAST;
    o.mf = LZMA_MF_HC4;
    o.nice_len = 32;
  }
  lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &o}, {LZMA_VLI_UNKNOWN, nullptr}};
  std::string out(raw.size() + raw.size() / 16 + 256, '\0');
  std::size_t pos = 0;
  lzma_ret rc = lzma_raw_buffer_encode(filters, LzmaBlocks::allocator(), reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size(),
                                       reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size());
  if (rc == LZMA_BUF_ERROR) // it does not shrink
    return std::string(raw);
  if (rc != LZMA_OK)
    throw TraceError(fmt::format("error: liblzma cannot compress a record of {} bytes (code {})", raw.size(),
                                 static_cast<int>(rc)));
  out.resize(pos);
  return out.size() < raw.size() ? out : std::string(raw);
}

std::string lzma_unpack(std::string_view stored, std::uint64_t raw_size, const std::string& file,
                        std::string_view record, std::string_view dictionary, std::uint8_t props)
{
  // LZMA2 expands at most a few thousand to one; a larger claim is corrupt (and must not allocate)
  if (raw_size > stored.size() * 8192 + 4096)
    throw TraceError(fmt::format("{}: error: {}: claims {} bytes from {} compressed ones (corrupt compressed trace)",
                                 file, record, raw_size, stored.size()));
  lzma_options_lzma o = lzma_options(raw_size, dictionary, props);
  lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &o}, {LZMA_VLI_UNKNOWN, nullptr}};
  std::string out(raw_size, '\0');
  std::size_t in_pos = 0;
  std::size_t out_pos = 0;
  lzma_ret rc = lzma_raw_buffer_decode(filters, LzmaBlocks::allocator(), reinterpret_cast<const std::uint8_t*>(stored.data()), &in_pos,
                                       stored.size(), reinterpret_cast<std::uint8_t*>(out.data()), &out_pos, out.size());
  if (rc != LZMA_OK || in_pos != stored.size() || out_pos != raw_size)
    throw TraceError(fmt::format("{}: error: {}: cannot decompress it ({}; expected {} bytes) (corrupt compressed trace)",
                                 file, record,
                                 rc == LZMA_OK ? "wrong size" : rc == LZMA_BUF_ERROR ? "more data than said" : "bad data",
                                 raw_size));
  return out;
}

} // namespace

std::string pack(std::string_view raw, std::uint8_t& codec, std::string_view dictionary,
                 std::optional<std::uint8_t> only)
{
  // deflate packs tiny records better than LZMA; from a chunk's size on it never did on our traces, and costs 5 % of
  // packing a large one
  bool deflate_too = raw.size() <= kChunkBytes;
  std::string best = deflate_too ? deflate(raw, dictionary) : std::string(raw);
  codec = best.size() < raw.size() ? kDeflate : kStored;
  // the properties: `only`, or the one of kLzmaTried that packs the record's
  // first kLzmaSample bytes smallest in a trial pass (fast mode: six normal passes cost more than xz -6 on the whole
  // text of small traces; on the SMPI mini-applications' traces the fast trials give files within -1..+24 bytes of
  // six normal passes over the whole record), then the record packed once with it
  std::vector<std::uint8_t> tried = only ? std::vector<std::uint8_t>{*only}
                                        : std::vector<std::uint8_t>(kLzmaTried.begin(), kLzmaTried.end());
  if (tried.size() > 1) {
    std::size_t smallest = std::numeric_limits<std::size_t>::max();
    std::uint8_t chosen = tried[0];
    for (std::uint8_t p : tried) {
      std::size_t n = lzma_pack(raw.substr(0, kLzmaSample), dictionary, p, true).size();
      if (n < smallest) {
        smallest = n;
        chosen = p;
      }
    }
    tried = {chosen};
  }
  for (std::uint8_t props : tried) {
    std::string lzma = lzma_pack(raw, dictionary, props);
    lzma.insert(lzma.begin(), static_cast<char>(props)); // its properties byte first
    if (lzma.size() < best.size()) {
      codec = kLzma2;
      best = std::move(lzma);
    }
  }
  return best;
}

std::string unpack(std::string_view stored, std::uint64_t raw_size, std::uint8_t codec, const std::string& file,
                   std::string_view record, std::string_view dictionary)
{
  if (codec == kStored) {
    if (stored.size() != raw_size)
      throw TraceError(fmt::format("{}: error: {}: stored as it is, but {} bytes for {} (corrupt compressed trace)",
                                   file, record, stored.size(), raw_size));
    return std::string(stored);
  }
  if (stored.size() == raw_size) // packed records are smaller than they are raw
    throw TraceError(fmt::format("{}: error: {}: packed, but as large as it is raw (corrupt compressed trace)", file,
                                 record));
  if (codec != kLzma2)
    return inflate(stored, raw_size, file, record, dictionary);
  // its properties byte first
  if (stored.empty())
    throw TraceError(fmt::format("{}: error: {}: expected its LZMA properties byte, found no byte (corrupt compressed "
                                 "trace)", file, record));
  std::uint8_t props = static_cast<std::uint8_t>(stored[0]);
  if (!lzma_props_ok(props))
    throw TraceError(fmt::format("{}: error: {}: expected LZMA properties (a byte (pb * 5 + lp) * 9 + lc with lc + lp "
                                 "<= 4, pb <= 4), found {} (corrupt compressed trace)", file, record, props));
  stored.remove_prefix(1);
  return lzma_unpack(stored, raw_size, file, record, dictionary, props);
}

std::uint32_t crc32_of(std::string_view bytes)
{
  return static_cast<std::uint32_t>(
      ::crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

} // namespace tit::trace::cformat

// The container of a compressed trace (docs/compressed-format.md, "File"): the structure record as bytes and back,
// the packing of records (deflate, LZMA2, CRC-32), the file head, and the file written from its records. Above
// values/ (schedules hold value runs); below read/ and fold/.
#pragma once

#include "compressed/common/bytes.hpp"
#include "compressed/common/format.hpp"
#include "trace/reader.hpp"

#include <filesystem>
#include <limits>
#include <optional>

namespace tit::trace::cformat {

/// The structure record as the newest version writes it.
std::string encode_meta(const Meta& meta);
/// The signatures, nodes and bodies of a structure record (also of a part in transit: fold/merge.cpp); decoding
/// checks every index, count and loop body (a loop repeats earlier nodes only) and relative offsets within +-rank_count.
void encode_tables(ByteWriter& w, const std::vector<Signature>& signatures, const std::vector<Node>& nodes,
                   const std::vector<std::vector<std::uint32_t>>& bodies);
void decode_tables(ByteReader& r, int rank_count, std::size_t bytes_size, std::vector<Signature>& signatures,
                   std::vector<Node>& nodes, std::vector<std::vector<std::uint32_t>>& bodies);
/// Checks every index and count (see docs/compressed-format.md); throws TraceError naming the record. `version`: the
/// file's (version 3 records say how each value chunk is packed).
Meta decode_meta(std::string_view bytes, const std::string& file, unsigned version = kVersion);

/// Compresses a record: with raw LZMA2 (liblzma, preset 6, a dictionary of the record's size rounded up to a power of
/// 2, up to kLzmaWriterDict; the one of kLzmaTried's properties that packs its first kLzmaSample bytes smallest in
/// liblzma's fast mode) or raw deflate (zlib, no header; records up to kChunkBytes), whichever is smaller (tiny records
/// pack better with deflate); with an optional preset dictionary (value chunks after the first use the first one's
/// last 32 KiB: ranks repeat each other's numbers). A record that does not shrink is stored as it is. `codec` receives
/// how it was packed. An LZMA2 record's stored bytes are its properties byte, then the LZMA2 data (so that the CRC-32
/// covers both). unpack checks the size and throws TraceError naming the file and the record.
/// `only`: the one LZMA properties byte to try, instead of all of kLzmaTried (the value chunks after the first try the
/// first one's: chunks of a file are alike, and each property tried is one more LZMA pass).
std::string pack(std::string_view raw, std::uint8_t& codec, std::string_view dictionary = {},
                 std::optional<std::uint8_t> only = {});
std::string unpack(std::string_view stored, std::uint64_t raw_size, std::uint8_t codec, const std::string& file,
                   std::string_view record, std::string_view dictionary = {});
/// The LZMA properties the writer chooses from for each record (pack): liblzma's preset (lc 3,
/// lp 0, pb 2); pb 0 (no alignment of the varints to 4 bytes) with lc 0, 2 and 4 literal context bits (bin indices and
/// node ids are better predicted with fewer or more of the previous byte's bits, depending on the record); lp 2 with
/// lc 1, pb 1 and lc 0, pb 2 (measured integers of exact values: their varints' bytes by position). Chosen on the
/// records of SMPI and tracer traces of the mini-applications: within 0.4 % of the best of all 36 properties with
/// lc, lp, pb <= 2 or 4 (3 % below the preset alone).
inline constexpr std::array<std::uint8_t, 6> kLzmaTried = {93, 0, 2, 4, 64, 108};
/// The bytes of a record (at most) on which kLzmaTried's properties are compared (pack).
inline constexpr std::size_t kLzmaSample = 8 * 1024;
/// The largest LZMA dictionary the writer uses (pack). The reader's is the record's size rounded up to a power of 2 (up
/// to 64 MiB, as writers before this bound used), never smaller: LZMA2 decodes with any dictionary at least the
/// encoder's. The encoder's memory is about 11 times its dictionary: bounded, a record of several megabytes (the values
/// of a long run) no longer takes hundreds of megabytes to pack.
inline constexpr std::uint32_t kLzmaWriterDict = 1u << 20;
/// The dictionary of value chunks 1.. : the last 32 KiB of chunk 0's raw bytes.
std::string_view chunk_dictionary(std::string_view chunk0);
std::uint32_t crc32_of(std::string_view bytes);

/// The start of a file of `version` whose raw structure record is `meta`: the magic, the version, the record's raw
/// and stored sizes, its CRC-32, its codec byte and its packed bytes (the value chunks follow).
std::string file_head(unsigned version, const std::string& meta);

/// Groups value blocks into chunks, each deflated when full (chunks after the first with chunk 0 as dictionary).
class Chunker {
public:
  /// `budget`: once the chunks packed so far take more bytes, the others are not packed (over_budget(): a file that
  /// would lose to another anyway).
  explicit Chunker(std::uint64_t budget = std::numeric_limits<std::uint64_t>::max()) : budget_(budget) {}
  bool over_budget() const { return offset_ > budget_; }

  cformat::BlockRef add(const std::string& block)
  {
    if (!current_.empty() && current_.size() + block.size() > cformat::kChunkBytes)
      close();
    cformat::BlockRef ref{static_cast<std::uint32_t>(chunks_.size()), current_.size(), block.size()};
    current_ += block;
    return ref;
  }

  /// The chunk refs and the stored chunks, once every block is added.
  void finish(cformat::Meta& meta, std::vector<std::string>& stored)
  {
    if (!current_.empty() || chunks_.empty())
      close();
    meta.chunks = std::move(chunks_);
    stored = std::move(stored_);
  }

private:
  void close()
  {
    if (over_budget()) {
      current_.clear();
      return;
    }
    if (chunks_.empty())
      first_ = current_;
    std::uint8_t codec = 0;
    std::string stored = cformat::pack(current_, codec,
                                       chunks_.empty() ? std::string_view() : cformat::chunk_dictionary(first_), props_);
    if (chunks_.empty() && codec == cformat::kLzma2) // the LZMA properties of chunk 0 (its first byte) for the others
      props_ = static_cast<std::uint8_t>(stored[0]);
    chunks_.push_back(cformat::ChunkRef{offset_, current_.size(), stored.size(), cformat::crc32_of(stored), codec});
    offset_ += stored.size();
    stored_.push_back(std::move(stored));
    current_.clear();
  }

  std::string current_;
  std::string first_; // chunk 0's raw bytes: the dictionary of the others
  std::optional<std::uint8_t> props_; // chunk 0's LZMA properties, the only ones the others try
  std::vector<cformat::ChunkRef> chunks_;
  std::vector<std::string> stored_;
  std::uint64_t offset_ = 0;
  std::uint64_t budget_;
};

/// Writes the file: its head (file_head, smaller_head), then the stored value chunks. Throws TraceError naming the
/// file and the system's reason when it cannot be written.
void write_file(const std::filesystem::path& out, const std::string& head, const std::vector<std::string>& blocks);

/// The file head (file_head, of the version `meta` needs) of `meta`'s structure record with the rank entries' ids as
/// differences or as they are, whichever packs smaller (differences for a block per rank in rank order; ids as they
/// are for ranks that share blocks out of order). Packing a large record costs seconds: callers keep the head.
std::string smaller_head(Meta meta);

} // namespace tit::trace::cformat

// Value blocks of compressed traces (docs/compressed-format.md, "Value block"): a rank's streams as bytes and back,
// checked against the signatures; read in place, run by run, by the replay's readers.
#include "compressed/values/bin_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace tit::trace::cformat {

namespace {

/// Two integers in a row make a run of two by their difference (extend_run): when both are representatives, two bin
/// runs of one instead (binned integer volumes, which vary, would otherwise pair into runs of random steps). Whether
/// `run` is such a pair: then `a` and `b` are its two runs of one, `ka` and `kb` their bins.
bool bin_pair(const ValueRun& run, const Bins& bins, ValueRun& a, ValueRun& b, std::int64_t& ka, std::int64_t& kb)
{
  if (!run.is_int || run.count != 2 || run.step == 0)
    return false;
  a = b = run;
  a.count = b.count = 1;
  a.step = b.step = 0;
  b.first += run.step;
  unsigned form = 0;
  return bins.find(a, ka, form) && bins.find(b, kb, form);
}

/// The runs of a stream with each bin pair split in two (bin_pair).
void split_bin_pairs(std::vector<ValueRun>& runs, const Bins& bins)
{
  // into a new vector: inserting in place moved every later run at each split (quadratic: the tracer's binned file of
  // a 1,000,000-step run took a minute in MPI_Finalize)
  std::vector<ValueRun> out; // once `split`: runs[0, i) as they are to be
  bool split = false;
  ValueRun a, b;
  std::int64_t ka = 0, kb = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (bin_pair(runs[i], bins, a, b, ka, kb)) {
      if (!split)
        out.assign(std::make_move_iterator(runs.begin()), std::make_move_iterator(runs.begin() + i));
      split = true;
      out.push_back(std::move(a));
      out.push_back(std::move(b));
    } else if (split) {
      out.push_back(std::move(runs[i]));
    }
  }
  if (split)
    runs = std::move(out);
}

} // namespace

// A stream: its signature, slot and number of repeats; each repeat is a varint c, then (c == 0) one run, or
// (c >= 2) a varint length L >= 1 and L runs, read c times. With bins, the block's bin indices come first.
std::string encode_streams(const std::vector<Stream>& streams, const Bins* bins, const BinBases* bases)
{
  ByteWriter w;
  std::vector<std::int64_t> indices; // of the bin runs, in order, less their stream's base
  struct Out {
    std::uint64_t count;
    std::vector<ValueRun> runs;
  };
  std::vector<Out> repeats; // of one stream
  w.varint(streams.size());
  for (const Stream& s : streams) {
    repeats.clear();
    for (const Repeat& rep : s.repeats) {
      std::vector<ValueRun> runs(s.runs.begin() + rep.first, s.runs.begin() + rep.first + rep.length);
      if (bins != nullptr)
        split_bin_pairs(runs, *bins);
      if (rep.count == 1) // a repeat read once holds one run: one each
        for (ValueRun& run : runs)
          repeats.push_back(Out{1, {std::move(run)}});
      else
        repeats.push_back(Out{rep.count, std::move(runs)});
    }
    w.varint(s.signature);
    w.varint(s.slot);
    w.varint(repeats.size());
    std::int64_t base = 0; // version 5: the stream's (a stream with bin runs has one: bases_of saw the same runs)
    bool has_base = false;
    if (bases != nullptr) {
      auto it = bases->find({s.signature, s.slot});
      has_base = it != bases->end();
      base = has_base ? it->second : 0;
    }
    for (const Out& rep : repeats) {
      w.varint(rep.count == 1 ? 0 : rep.count);
      if (rep.count != 1)
        w.varint(rep.runs.size());
      for (const ValueRun& run : rep.runs) {
        std::int64_t k = 0;
        unsigned form = 0;
        if (bins != nullptr && bins->find(run, k, form)) {
          // a bin run: the head 1 (a token of no bytes, which no version writes), its count and form; its bin
          // index goes to the block's bin indices
          w.varint(1);
          w.varint(run.count << 1 | form);
          if (!has_base)
            throw std::logic_error("encode_streams: a stream with bin runs and no bin base");
          indices.push_back(k - base);
        } else {
          encode_run(w, run);
        }
      }
    }
  }
  if (bins == nullptr)
    return std::move(w.out());
  // the bin indices first: their number, then each index less its stream's base in a byte when that is 0 to 254, else
  // the byte 255 and the difference as a zigzag varint (the bases are chosen so that most indices of the file take one
  // byte, which LZMA models far better than varints of the representatives' tokens)
  ByteWriter head;
  head.varint(indices.size());
  for (std::int64_t d : indices) {
    if (d >= 0 && d < 255) {
      head.byte(static_cast<std::uint8_t>(d));
    } else {
      head.byte(255);
      head.zigzag(d);
    }
  }
  head.bytes(w.out());
  return std::move(head.out());
}

void bin_indices(const std::vector<Stream>& streams, const Bins& bins,
                 std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::int64_t>>& out)
{
  // the runs as split_bin_pairs leaves them, without copying the stream's runs (a run per value where volumes vary)
  ValueRun a, b;
  for (const Stream& s : streams) {
    std::vector<std::int64_t>* of_stream = nullptr;
    auto add = [&](std::int64_t k) {
      if (of_stream == nullptr)
        of_stream = &out[{s.signature, s.slot}];
      of_stream->push_back(k);
    };
    for (const ValueRun& run : s.runs) {
      std::int64_t k = 0, k2 = 0;
      unsigned form = 0;
      if (bin_pair(run, bins, a, b, k, k2)) {
        add(k);
        add(k2);
      } else if (bins.find(run, k, form)) {
        add(k);
      }
    }
  }
}

std::int64_t bin_base(std::vector<std::int64_t> indices)
{
  if (indices.empty())
    return 0;
  std::sort(indices.begin(), indices.end());
  std::size_t best = 0, best_count = 0;
  for (std::size_t i = 0, j = 0; i < indices.size(); ++i) {
    while (j < indices.size() && indices[j] - indices[i] < 255)
      ++j;
    if (j - i > best_count) {
      best = i;
      best_count = j - i;
    }
  }
  return indices[best];
}

namespace {

/// The walk of a value block that decode_streams, block_in_place and renumber_streams share, checking every field:
/// `indices` receives the block's bin indices; on_stream(signature, slot, repeats, offset of its first byte, of its
/// first repeat, its first bin index, its bin base) at each stream, on_repeat(count, length) at each repeat,
/// on_run(run) at each run.
template <typename OnStream, typename OnRepeat, typename OnRun>
void walk_block(std::string_view bytes, const Meta& meta, const std::string& file, std::uint32_t block,
                std::vector<std::int64_t>& indices, const OnStream& on_stream, const OnRepeat& on_repeat,
                const OnRun& on_run)
{
  ByteReader r(bytes, file, fmt::format("value block {}", block));
  std::optional<BinIndices> bins;
  if (meta.bin_runs > 0) {
    bins.emplace(BinIndices{Bins(meta.bin_runs), {}, 0});
    indices.resize(table_size(r, "the number of bin runs", bytes.size()));
    for (std::int64_t& d : indices) { // each index less its stream's base (applied as the bin run is read)
      d = r.byte("a bin index");
      if (d == 255) {
        d = r.zigzag("a bin index less its stream's base");
        if (d > 2 * Bins::kMaxIndex || d < -2 * Bins::kMaxIndex)
          r.fail(fmt::format("expected a bin index less its stream's base within +-2^41, found {}", d));
      }
    }
    bins->indices = indices;
  }
  std::uint64_t streams = table_size(r, "the number of value streams", bytes.size());
  for (std::uint64_t i = 0; i < streams; ++i) {
    std::size_t header = r.pos();
    auto signature = static_cast<std::uint32_t>(r.below(meta.signatures.size(), "a stream's signature id"));
    auto slot = static_cast<std::uint32_t>(r.below(value_slots(meta.signatures[signature]), "a stream's value slot"));
    std::uint64_t repeats = table_size(r, "a stream's number of repeats", bytes.size());
    const std::int64_t* base = nullptr;
    if (bins) {
      auto it = meta.bin_bases.find({signature, slot});
      base = it == meta.bin_bases.end() ? nullptr : &it->second;
      bins->base = base;
      bins->signature = signature;
      bins->slot = slot;
    }
    on_stream(signature, slot, repeats, header, r.pos(), bins ? bins->used : 0, base);
    for (std::uint64_t k = 0; k < repeats; ++k) {
      std::uint64_t count = r.varint("a repeat count");
      if (count == 1)
        r.fail("expected a repeat count of 0 (one run) or at least 2, found 1");
      std::uint64_t length = count == 0 ? 1 : r.below(bytes.size() + 1, "a repeat length");
      if (length == 0)
        r.fail("expected a repeat length of at least 1, found 0");
      on_repeat(count == 0 ? 1 : count, static_cast<std::uint32_t>(length));
      for (std::uint64_t j = 0; j < length; ++j)
        on_run(decode_run(r, bytes.size(), bins ? &*bins : nullptr));
    }
  }
  if (bins && bins->used != indices.size())
    r.fail(fmt::format("expected {} bin runs (the block's bin indices), found {}", indices.size(), bins->used));
  if (!r.at_end())
    r.fail("expected the end of the value block, found more bytes");
}

} // namespace

std::vector<Stream> decode_streams(std::string_view bytes, const Meta& meta, const std::string& file,
                                   std::uint32_t block)
{
  std::vector<Stream> streams;
  std::vector<std::int64_t> indices;
  walk_block(
      bytes, meta, file, block, indices,
      [&](std::uint32_t signature, std::uint32_t slot, std::uint64_t repeats, std::size_t, std::size_t, std::size_t,
          const std::int64_t*) {
        Stream& s = streams.emplace_back();
        s.signature = signature;
        s.slot = slot;
        s.repeats.reserve(repeats);
      },
      [&](std::uint64_t count, std::uint32_t length) {
        Stream& s = streams.back();
        s.repeats.push_back(Repeat{count, static_cast<std::uint32_t>(s.runs.size()), length});
      },
      [&](ValueRun&& run) { streams.back().runs.push_back(std::move(run)); });
  return streams;
}

BlockInPlace block_in_place(std::string bytes, const Meta& meta, const std::string& file, std::uint32_t block)
{
  BlockInPlace b;
  b.meta = &meta;
  walk_block(
      bytes, meta, file, block, b.bin_indices,
      [&](std::uint32_t signature, std::uint32_t slot, std::uint64_t repeats, std::size_t, std::size_t offset,
          std::size_t first_bin, const std::int64_t* base) {
        b.streams.push_back(BlockInPlace::StreamAt{signature, slot, repeats, offset, first_bin, base});
      },
      [](std::uint64_t, std::uint32_t) {}, [](ValueRun&&) {});
  b.bytes = std::move(bytes);
  return b;
}

std::string renumber_streams(std::string_view bytes, const Meta& meta, const std::vector<std::int64_t>& signatures,
                             const std::string& what, std::uint32_t block)
{
  struct Span {
    std::uint32_t signature; // renumbered
    std::uint32_t slot;
    std::uint64_t repeats;
    std::size_t from, to; // its repeats' bytes
  };
  std::vector<Span> spans;
  std::vector<std::int64_t> indices; // none: a part's blocks have no bins
  walk_block(
      bytes, meta, what, block, indices,
      [&](std::uint32_t signature, std::uint32_t slot, std::uint64_t repeats, std::size_t header, std::size_t offset,
          std::size_t, const std::int64_t*) {
        if (signature >= signatures.size() || signatures[signature] < 0)
          throw TraceError(fmt::format("{}: error: value block {}: expected values of its ranks' signatures, found a "
                                       "stream of signature {}, which no action of its ranks has",
                                       what, block, signature));
        if (!spans.empty())
          spans.back().to = header;
        spans.push_back(Span{static_cast<std::uint32_t>(signatures[signature]), slot, repeats, offset, bytes.size()});
      },
      [](std::uint64_t, std::uint32_t) {}, [](ValueRun&&) {});
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return std::pair(a.signature, a.slot) < std::pair(b.signature, b.slot); });
  ByteWriter w;
  w.out().reserve(bytes.size() + 16);
  w.varint(spans.size());
  for (const Span& s : spans) {
    w.varint(s.signature);
    w.varint(s.slot);
    w.varint(s.repeats);
    w.bytes(bytes.substr(s.from, s.to - s.from));
  }
  return std::move(w.out());
}

void InPlaceCursor::start(const BlockInPlace& b, std::size_t stream)
{
  block = &b;
  stream_ = stream;
  const BlockInPlace::StreamAt& at = b.streams[stream];
  at_ = at.offset;
  bin_ = at.first_bin;
  repeats_ = at.repeats;
  passes_ = 0;
  runs_left_ = 0;
  load();
}

void InPlaceCursor::load()
{
  // checked by block_in_place: a failure here is a bug (the messages name no record)
  static const std::string kChecked = "(value block, checked)";
  std::string_view bytes = block->bytes;
  if (runs_left_ == 0) {
    if (passes_ > 0) { // the repeat's runs once more
      --passes_;
      at_ = repeat_at_;
      bin_ = repeat_bin_;
    } else if (repeats_ > 0) {
      --repeats_;
      ByteReader r(bytes.substr(at_), kChecked, {});
      std::uint64_t count = r.varint("a repeat count");
      length_ = count == 0 ? 1 : r.varint("a repeat length");
      passes_ = count == 0 ? 0 : count - 1;
      at_ += r.pos();
      repeat_at_ = at_;
      repeat_bin_ = bin_;
    } else {
      left = 0;
      return;
    }
    runs_left_ = length_;
  }
  --runs_left_;
  ByteReader r(bytes.substr(at_), kChecked, {});
  ValueRun run;
  if (block->meta->bin_runs > 0) {
    const BlockInPlace::StreamAt& at = block->streams[stream_];
    BinIndices bins{Bins(block->meta->bin_runs), block->bin_indices, bin_, at.base, at.signature, at.slot};
    run = decode_run(r, bytes.size(), &bins);
    bin_ = bins.used;
  } else {
    run = decode_run(r, bytes.size());
  }
  at_ += r.pos();
  value = run.first;
  step = run.is_int ? run.step : 0;
  left = run.count;
  if (run.is_int) {
    text = nullptr;
  } else {
    token_ = std::move(run.text);
    text = &token_;
  }
}

std::vector<Stream> decode_block(const Part& part, const Meta& meta, std::size_t b)
{
  return decode_streams(part.blocks[b], meta, "(in memory)", static_cast<std::uint32_t>(b));
}

} // namespace tit::trace::cformat

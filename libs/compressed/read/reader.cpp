// Reading a compressed trace (docs/compressed-format.md): the structure record is read once and shared; each
// rank's reader loads its value block and walks the structure with its own stack of loop counters, turning each
// signature back into the action's line, which the dialect's parser reads as it reads a text trace.
#include "compressed/read/read.hpp"
#include "compressed/container/container.hpp"
#include "compressed/values/values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <mutex>

namespace tit::trace {

namespace {

using cformat::Meta;
using cformat::Slot;

/// The opened file: its structure and where its value blocks are.
struct Opened {
  std::string path;
  unsigned version = 0;
  Meta meta;
  std::uint64_t value_area = 0;  ///< file offset of the first value block
  std::uint64_t file_size = 0;
  std::uint64_t structure_bytes = 0;
  // value chunks, inflated on demand; ranks are usually opened in order, so the last one is kept
  mutable std::mutex chunks_mutex;
  mutable std::shared_ptr<const std::string> chunk0;   ///< chunk 0's raw bytes: the dictionary of the others
  mutable std::uint32_t last_chunk = 0;
  mutable std::shared_ptr<const std::string> last_raw; ///< the raw bytes of chunk last_chunk
  /// checked value blocks, shared by the ranks that have the same numbers while any of them reads
  mutable std::vector<std::weak_ptr<const cformat::BlockInPlace>> checked;
  /// pooled stats: per body, per position, the index of the first schedule of that action or -1 (empty without)
  std::vector<std::vector<std::int32_t>> first_schedule;
  /// a part read from memory (read_part): its encoded value blocks, by block id (no file, no chunks)
  std::vector<std::string> held_blocks;
};

[[noreturn]] void fail_file(const std::string& path, std::string_view what)
{
  throw TraceError(fmt::format("{}: error: {}", path, what));
}

std::string read_range(std::ifstream& f, const std::string& path, std::uint64_t at, std::uint64_t n,
                       std::string_view record)
{
  std::string out(n, '\0');
  f.seekg(static_cast<std::streamoff>(at));
  f.read(out.data(), static_cast<std::streamsize>(n));
  if (!f || static_cast<std::uint64_t>(f.gcount()) != n)
    fail_file(path, fmt::format("{}: expected {} bytes at byte {}, the file ends before (truncated compressed trace)",
                                record, n, at));
  return out;
}

std::shared_ptr<const Opened> open_file(const std::filesystem::path& p)
{
  auto o = std::make_shared<Opened>();
  o->path = p.string();
  std::ifstream f(p, std::ios::binary);
  if (!f)
    fail_file(o->path, "cannot open the compressed trace");
  f.seekg(0, std::ios::end);
  o->file_size = static_cast<std::uint64_t>(f.tellg());
  // magic, version, then the sizes, CRC and packing of the structure record: at most 8 + 10 + 10 + 10 + 4 + 1 bytes
  std::string head = read_range(f, o->path, 0, std::min<std::uint64_t>(o->file_size, 43), "the header");
  if (head.size() < cformat::kMagic.size() ||
      std::memcmp(head.data(), cformat::kMagic.data(), cformat::kMagic.size()) != 0)
    fail_file(o->path, "not a compressed trace (no 'TITCTRC' magic)");
  cformat::ByteReader r(std::string_view(head).substr(cformat::kMagic.size()), o->path, "the header",
                        cformat::kMagic.size());
  std::uint64_t version = r.varint("the format version");
  if (version > cformat::kVersion)
    fail_file(o->path, fmt::format("compressed trace format version {}, but this tit-replay reads versions {} and {} "
                                   "only (a newer one)", version, cformat::kBaseVersion, cformat::kVersion));
  if (version < cformat::kBaseVersion)
    fail_file(o->path, fmt::format("compressed format version {} is no longer read; this build reads versions {} and "
                                   "{} only: re-compress the trace from its text with tit-trace compress", version,
                                   cformat::kBaseVersion, cformat::kVersion));
  o->version = static_cast<unsigned>(version);
  std::uint64_t raw_size = r.varint("the size of the structure record");
  std::uint64_t stored_size = r.varint("the stored size of the structure record");
  std::uint32_t crc = r.u32("the CRC-32 of the structure record");
  std::uint8_t codec = r.byte("the packing of the structure record");
  if (codec > cformat::kLzma2)
    fail_file(o->path, fmt::format("the header: expected the packing of the structure record (0 stored, 1 deflate, 2 "
                                   "LZMA2), found {} (corrupt compressed trace)", codec));
  std::uint64_t at = cformat::kMagic.size() + r.pos();
  if (stored_size > o->file_size - at)
    fail_file(o->path, fmt::format("the structure record: expected {} bytes at byte {}, the file has {} (truncated "
                                   "compressed trace)", stored_size, at, o->file_size - at));
  std::string stored = read_range(f, o->path, at, stored_size, "the structure record");
  if (cformat::crc32_of(stored) != crc)
    fail_file(o->path, "the structure record: CRC-32 mismatch (corrupt compressed trace)");
  o->meta = cformat::decode_meta(cformat::unpack(stored, raw_size, codec, o->path, "the structure record"),
                                 o->path, o->version);
  const std::vector<cformat::Schedule>& schedules = o->meta.schedules;
  if (!schedules.empty()) {
    o->first_schedule.resize(o->meta.bodies.size());
    for (std::size_t b = 0; b < o->meta.bodies.size(); ++b)
      o->first_schedule[b].assign(o->meta.bodies[b].size(), -1);
    for (std::size_t i = schedules.size(); i-- > 0;) // sorted: the first of an action is the last one set
      o->first_schedule[schedules[i].body][schedules[i].position] = static_cast<std::int32_t>(i);
  }
  o->value_area = at + stored_size;
  o->structure_bytes = o->value_area;
  for (std::size_t i = 0; i < o->meta.chunks.size(); ++i) {
    const cformat::ChunkRef& c = o->meta.chunks[i];
    std::uint64_t room = o->file_size - o->value_area;
    if (c.offset > room || c.stored_size > room - c.offset)
      fail_file(o->path, fmt::format("value chunk {}: expected {} bytes at byte {}, the file has {} (truncated "
                                     "compressed trace)", i, c.stored_size, o->value_area + c.offset, o->file_size));
  }
  return o;
}

/// The raw bytes of value chunk `chunk`, CRC-checked and inflated.
std::shared_ptr<const std::string> inflate_chunk(const Opened& o, std::uint32_t chunk, std::string_view dictionary)
{
  const cformat::ChunkRef& c = o.meta.chunks[chunk];
  std::ifstream f(o.path, std::ios::binary);
  if (!f)
    fail_file(o.path, "cannot open the compressed trace");
  std::string record = fmt::format("value chunk {}", chunk);
  std::string stored = read_range(f, o.path, o.value_area + c.offset, c.stored_size, record);
  if (cformat::crc32_of(stored) != c.crc)
    fail_file(o.path, fmt::format("{}: CRC-32 mismatch (corrupt compressed trace)", record));
  return std::make_shared<const std::string>(cformat::unpack(stored, c.raw_size, c.codec, o.path, record, dictionary));
}

/// The raw bytes of value block `block` (its chunk inflated, or taken from the cache).
std::string read_block(const Opened& o, std::uint32_t block)
{
  if (!o.held_blocks.empty())
    return o.held_blocks[block];
  const cformat::BlockRef& b = o.meta.blocks[block];
  std::lock_guard<std::mutex> lock(o.chunks_mutex);
  if (!o.chunk0)
    o.chunk0 = inflate_chunk(o, 0, {});
  std::shared_ptr<const std::string> raw = b.chunk == 0 ? o.chunk0 : o.last_chunk == b.chunk ? o.last_raw : nullptr;
  if (!raw) {
    raw = inflate_chunk(o, b.chunk, cformat::chunk_dictionary(*o.chunk0));
    o.last_chunk = b.chunk;
    o.last_raw = raw;
  }
  return raw->substr(b.offset, b.raw_size); // within the chunk: decode_meta checked it
}

/// Value block `block`, checked once for all the ranks that read it at the same time, read in place (its runs decoded
/// as they are read: the block's bytes take a few per run, its decoded runs tens).
std::shared_ptr<const cformat::BlockInPlace> shared_block(const Opened& o, std::uint32_t block)
{
  {
    std::lock_guard<std::mutex> lock(o.chunks_mutex);
    if (o.checked.size() != o.meta.blocks.size())
      o.checked.resize(o.meta.blocks.size());
    if (auto shared = o.checked[block].lock())
      return shared;
  }
  auto checked = std::make_shared<const cformat::BlockInPlace>(
      cformat::block_in_place(read_block(o, block), o.meta, o.path, block));
  std::lock_guard<std::mutex> lock(o.chunks_mutex);
  o.checked[block] = checked;
  return checked;
}

/// The position of a rank's walk: a body, the next item in it, and the iterations left.
struct Frame {
  std::uint32_t body = 0;
  std::size_t next = 0;
  std::uint64_t left = 1;
};


class CompressedRankReader final : public RankReader {
public:
  /// Rank `rank`, whose entry is `file->meta.ranks[entry]` (in a file, entry = rank; a part holds some ranks).
  CompressedRankReader(std::shared_ptr<const Opened> file, int rank, std::size_t entry)
      : file_(std::move(file))
      , rank_(rank)
      , entry_(entry)
      , label_(fmt::format("{} (rank {})", file_->path, rank))
      , parser_(label_, detail::DialectGuess{file_->meta.ranks[entry].dialect, 0, ""}, file_->meta.rank_count)
  {
    const cformat::RankEntry& e = file_->meta.ranks[entry_];
    load_values(e.block);
    stack_.push_back(Frame{e.root, 0, 1});
    prefix_ = fmt::format("{} ", rank);
  }

  bool next(Action& out) override
  {
    const Meta& m = file_->meta;
    while (!stack_.empty()) {
      Frame& f = stack_.back();
      const auto& body = m.bodies[f.body];
      if (f.next == body.size()) {
        if (--f.left > 0)
          f.next = 0;
        else
          stack_.pop_back();
        continue;
      }
      std::size_t position = f.next;
      const cformat::Node& n = m.nodes[body[f.next++]];
      if (n.loop) {
        stack_.push_back(Frame{n.ref, 0, n.count});
        continue;
      }
      build_line(n.ref, f.body, static_cast<std::uint32_t>(position));
      std::string_view line = line_;
      out.args.clear();
      for (const auto& [at, size] : fields_)
        out.args.push_back(line.substr(at, size));
      parser_.split_fields(line, ++action_, rank_, line.substr(prefix_.size(), name_size_), out);
      parser_.interpret(out, specs_[n.ref]);
      if (m.gaps && out.kind == Kind::Compute && out.amount == 0) { // a gap without a compute (GapNormaliser)
        --action_; // numbered as `tit-trace expand` writes the actions
        continue;
      }
      return true;
    }
    if (!finished_) {
      finished_ = true;
      check_values_used();
    }
    return false;
  }

  const std::string& file() const override { return file_->path; }

private:
  void load_values(std::uint32_t block)
  {
    block_ = shared_block(*file_, block);
    const cformat::RankEntry& e = file_->meta.ranks[entry_];
    level_ = detail::parse_double(e.level).value_or(1); // decode_meta checked it
    unit_level_ = e.level == "1";
    drawn_.assign(file_->meta.schedules.size(), 0);
    rare_.assign(file_->meta.schedules.size(), 0);
    std::string record = fmt::format("value block {}", block);
    const auto& sigs = file_->meta.signatures;
    first_cursor_.assign(sigs.size() + 1, 0);
    for (std::size_t s = 0; s < sigs.size(); ++s) {
      std::size_t values = 0;
      for (const Slot& slot : sigs[s].slots)
        values += slot.kind == Slot::Kind::Value ? 1 : 0;
      first_cursor_[s + 1] = first_cursor_[s] + values;
    }
    cursors_.assign(first_cursor_.back(), cformat::InPlaceCursor{});
    specs_.assign(sigs.size(), nullptr);
    for (std::size_t i = 0; i < block_->streams.size(); ++i) {
      const cformat::BlockInPlace::StreamAt& st = block_->streams[i];
      cformat::InPlaceCursor& c = cursors_[first_cursor_[st.signature] + st.slot];
      if (c.block != nullptr)
        fail_file(file_->path, fmt::format("{}: two value streams for argument slot {} of signature {} (corrupt "
                                           "compressed trace)", record, st.slot, st.signature));
      c.start(*block_, i);
    }
  }

  [[noreturn]] void fail_action(std::string_view what) const
  {
    throw TraceError(fmt::format("{}: error: action {} of rank {}: {} (corrupt compressed trace)", file_->path,
                                 action_ + 1, rank_, what));
  }

  void append_value(std::uint32_t sig, std::uint32_t slot)
  {
    cformat::InPlaceCursor& c = cursors_[first_cursor_[sig] + slot];
    if (c.block == nullptr || c.ended())
      fail_action(fmt::format("expected value {} of signature {} ('{}'), but its value stream {}", slot + 1, sig,
                              file_->meta.signatures[sig].name, c.block == nullptr ? "is missing" : "has ended"));
    if (c.text == nullptr) {
      append_integer(c.value);
    } else {
      line_ += *c.text;
    }
    c.advance();
  }

  void append_integer(std::int64_t v)
  {
    fmt::format_int digits(v);
    line_.append(digits.data(), digits.size());
  }

  /// Pooled `stats`: the next draw of schedule `i` for this rank.
  void append_draw(std::size_t i)
  {
    const cformat::Schedule& s = file_->meta.schedules[i];
    std::uint64_t drawn = drawn_[i]++;
    const cformat::ValueRun* d = nullptr;
    if (!s.rare.empty()) { // this rank's next rare value, if it is this occurrence's: as traced
      std::size_t& next = rare_[i];
      while (next < s.rare.size() && (s.rare[next].rank < rank_ ||
                                      (s.rare[next].rank == rank_ && s.rare[next].occurrence < drawn)))
        ++next;
      if (next < s.rare.size() && s.rare[next].rank == rank_ && s.rare[next].occurrence == drawn) {
        append_value(s.rare[next].value, false);
        return;
      }
    }
    if (drawn < s.head.size()) { // the warm-up, in order
      d = &s.head[drawn];
    } else {
      drawn -= s.head.size();
      std::uint64_t cycle = drawn / cformat::kStatsSlots;
      std::uint64_t occurrence = drawn % cformat::kStatsSlots;
      Order& o = orders_[s.shared_order ? 1 : 0];
      if (s.rank_order && cycle != o.cycle) { // this cycle's order (most draws reuse the last one)
        o.of = cformat::stats_order(s.shared_order ? cformat::kSharedOrder : rank_, cycle);
        o.cycle = cycle;
      }
      d = &s.draws[s.rank_order ? o.of[occurrence] : occurrence];
      if (!s.phases.empty()) { // the draw is a factor of the phase's mean
        append_phased(s.phases[drawn % s.phases.size()], *d);
        return;
      }
    }
    append_value(*d, s.rank_order);
  }

  /// Pooled `stats` with phases: the phase's mean times the draw `factor` times the rank's level (an integer when the
  /// phase's mean is one).
  void append_phased(const cformat::ValueRun& phase, const cformat::ValueRun& factor)
  {
    append_scaled(number(phase) * number(factor) * (unit_level_ ? 1 : level_), phase.is_int);
  }

  /// A draw `d`, times the rank's level when `scaled`.
  void append_value(const cformat::ValueRun& d, bool scaled)
  {
    if (!scaled || unit_level_) {
      if (d.is_int)
        append_integer(d.first);
      else
        line_ += d.text;
      return;
    }
    append_scaled(number(d) * level_, d.is_int);
  }

  /// A drawn volume `v` after scaling: rounded to an integer (at least 1 unless 0) when `integer`.
  void append_scaled(double v, bool integer)
  {
    if (integer)
      append_integer(v > 0 ? std::max<std::int64_t>(1, std::llround(v)) : 0);
    else
      line_ += fmt::format("{}", v);
  }

  /// The number of a run of one value (decode_meta checked that it is one).
  static double number(const cformat::ValueRun& run)
  {
    return run.is_int ? static_cast<double>(run.first) : detail::parse_double(run.text).value_or(0);
  }

  /// The line of the action of signature `sig` at `position` of body `body`.
  void build_line(std::uint32_t sig, std::uint32_t body, std::uint32_t position)
  {
    // pooled stats: the schedules of this action's value slots, in slot order
    std::int32_t schedule = file_->first_schedule.empty() ? -1 : file_->first_schedule[body][position];
    const std::vector<cformat::Schedule>& schedules = file_->meta.schedules;
    const cformat::Signature& s = file_->meta.signatures[sig];
    line_.assign(prefix_);
    line_ += s.name;
    name_size_ = s.name.size();
    fields_.clear();
    std::uint32_t value = 0;
    std::int64_t n = file_->meta.rank_count;
    for (const Slot& slot : s.slots) {
      line_ += ' ';
      std::size_t at = line_.size();
      switch (slot.kind) {
        case Slot::Kind::Literal:
          line_ += slot.literal;
          break;
        case Slot::Kind::Relative:
          append_integer(((rank_ + slot.offset) % n + n) % n);
          break;
        case Slot::Kind::Value:
          if (schedule >= 0 && static_cast<std::size_t>(schedule) < schedules.size() &&
              schedules[static_cast<std::size_t>(schedule)].body == body &&
              schedules[static_cast<std::size_t>(schedule)].position == position &&
              schedules[static_cast<std::size_t>(schedule)].slot == value) {
            append_draw(static_cast<std::size_t>(schedule++));
            ++value;
          } else {
            append_value(sig, value++);
          }
          break;
      }
      fields_.emplace_back(at, line_.size() - at);
    }
  }

  void check_values_used() const
  {
    for (const cformat::BlockInPlace::StreamAt& st : block_->streams) {
      const cformat::InPlaceCursor& c = cursors_[first_cursor_[st.signature] + st.slot];
      if (!c.ended())
        fail_action(fmt::format("rank {} ended, but value stream of slot {} of signature {} ('{}') has values left",
                                rank_, st.slot + 1, st.signature, file_->meta.signatures[st.signature].name));
    }
  }

  std::shared_ptr<const Opened> file_;
  int rank_;
  std::size_t entry_; // of rank_ in file_->meta.ranks
  std::string label_; // the Action::file of this rank's actions: "<path> (rank <r>)", line = action number
  detail::ActionParser parser_;
  std::shared_ptr<const cformat::BlockInPlace> block_; // shared with the ranks of the same block
  double level_ = 1;                   // pooled stats: the rank's level, and whether it is exactly 1
  bool unit_level_ = true;
  struct Order { // pooled stats: the order of one cycle of draws
    std::array<std::uint8_t, 16> of{};
    std::uint64_t cycle = ~std::uint64_t{0}; // none yet
  };
  Order orders_[2]; // the rank's own (0) and the shared one (1)
  std::vector<std::uint64_t> drawn_;   // pooled stats: per schedule, the draws made
  std::vector<std::size_t> rare_;      // pooled stats: per schedule, its first rare value not before this draw
  std::vector<std::size_t> first_cursor_; // per signature: index of its first cursor
  std::vector<cformat::InPlaceCursor> cursors_;
  std::vector<const detail::ActionSpec*> specs_;  // per signature: how its name reads, once looked up
  std::vector<Frame> stack_;
  std::string line_;
  std::string prefix_; // "<rank> ", the start of every line
  // the line's fields, as build_line() wrote them (decode_meta and the value decoder refuse fields with blanks)
  std::size_t name_size_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> fields_; // the arguments: offset, size
  std::uint64_t action_ = 0;
  bool finished_ = false;
};

class CompressedSet final : public TraceSet {
public:
  explicit CompressedSet(std::shared_ptr<const Opened> file)
      : file_(std::move(file)), handed_out_(static_cast<std::size_t>(file_->meta.rank_count), false)
  {
  }

  int rank_count() const override { return file_->meta.rank_count; }
  bool has_own_rank_count() const override { return true; }
  std::string describe() const override
  {
    return fmt::format("compressed trace {} ({} ranks, values {})", file_->path, rank_count(), file_->meta.value_mode);
  }
  const std::string& compute_unit() const override { return file_->meta.compute_unit; }

  std::unique_ptr<RankReader> reader(int r) override
  {
    if (r < 0 || r >= rank_count() || handed_out_[static_cast<std::size_t>(r)])
      throw std::logic_error(fmt::format("TraceSet::reader({}): no such rank or already handed out", r));
    handed_out_[static_cast<std::size_t>(r)] = true;
    return std::make_unique<CompressedRankReader>(file_, r, static_cast<std::size_t>(r));
  }

private:
  std::shared_ptr<const Opened> file_;
  std::vector<bool> handed_out_;
};

} // namespace

bool is_compressed_trace(const std::filesystem::path& path)
{
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return false;
  std::ifstream f(path, std::ios::binary);
  char head[cformat::kMagic.size()] = {};
  f.read(head, sizeof head);
  return has_compressed_magic(std::string_view(head, static_cast<std::size_t>(f.gcount())));
}

bool has_compressed_magic(std::string_view head)
{
  static_assert(cformat::kMagic.size() <= detail::LineSource::kHeadBytes, "LineSource::head() must hold the magic");
  return head.starts_with(std::string_view(cformat::kMagic.data(), cformat::kMagic.size()));
}

CompressedInfo compressed_info(const std::filesystem::path& path)
{
  std::shared_ptr<const Opened> o = open_file(path);
  CompressedInfo info;
  info.version = o->version;
  info.ranks = o->meta.rank_count;
  info.value_mode = o->meta.value_mode;
  info.compute_unit = o->meta.compute_unit;
  info.signatures = o->meta.signatures.size();
  for (const cformat::Node& n : o->meta.nodes)
    info.loops += n.loop ? 1 : 0;
  std::vector<std::uint32_t> roots;
  for (const auto& e : o->meta.ranks)
    roots.push_back(e.root);
  std::sort(roots.begin(), roots.end());
  info.structures = static_cast<std::uint64_t>(std::unique(roots.begin(), roots.end()) - roots.begin());
  info.value_blocks = o->meta.blocks.size();
  info.structure_bytes = o->structure_bytes;
  info.value_bytes = o->file_size - o->value_area;
  info.schedules = o->meta.schedules.size();
  for (const cformat::Schedule& s : o->meta.schedules)
    info.drawn_sites += draws_something(s);
  return info;
}

std::vector<std::unique_ptr<RankReader>> cformat::open_ranks(const std::filesystem::path& path)
{
  std::shared_ptr<const Opened> o = open_file(path);
  std::vector<std::unique_ptr<RankReader>> readers;
  for (int r = 0; r < o->meta.rank_count; ++r)
    readers.push_back(std::make_unique<CompressedRankReader>(o, r, static_cast<std::size_t>(r)));
  return readers;
}

std::vector<std::unique_ptr<RankReader>> cformat::read_part(Part part, int rank_count, const std::string& label)
{
  auto o = std::make_shared<Opened>();
  o->path = label;
  o->version = cformat::kVersion;
  Meta& m = o->meta;
  m.rank_count = rank_count;
  m.value_mode = "exact"; // exact or binned values alike: runs of tokens
  m.signatures = std::move(part.signatures);
  m.nodes = std::move(part.nodes);
  m.bodies = std::move(part.bodies);
  for (const Part::RankPart& e : part.ranks)
    m.ranks.push_back(cformat::RankEntry{e.root, e.dialect, e.block, e.level});
  m.blocks.resize(part.blocks.size());
  o->held_blocks = std::move(part.blocks);
  std::vector<std::unique_ptr<RankReader>> readers;
  for (std::size_t i = 0; i < part.ranks.size(); ++i)
    readers.push_back(std::make_unique<CompressedRankReader>(o, part.ranks[i].rank, i));
  return readers;
}

cformat::Loaded cformat::read_whole(const std::string& path)
{
  std::shared_ptr<const Opened> o = open_file(path);
  cformat::Loaded out;
  out.meta = o->meta;
  if (o->meta.pooled)
    return out;
  out.blocks.reserve(o->meta.blocks.size());
  for (std::uint32_t b = 0; b < o->meta.blocks.size(); ++b)
    out.blocks.push_back(cformat::decode_streams(read_block(*o, b), o->meta, o->path, b));
  return out;
}

namespace detail {

std::unique_ptr<TraceSet> open_compressed(const std::filesystem::path& path, std::optional<int> ranks)
{
  auto set = std::make_unique<CompressedSet>(open_file(path));
  if (ranks && *ranks != set->rank_count())
    throw TraceError(fmt::format("error: rank mismatch: '{}' has {} rank traces but {} ranks are deployed",
                                 path.string(), set->rank_count(), *ranks));
  return set;
}

} // namespace detail

} // namespace tit::trace

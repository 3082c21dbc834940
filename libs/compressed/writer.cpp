// Building compressed traces (trace/compressed_build.hpp): RankCompressor folds each rank's actions into nested loops
// over signatures as they arrive (a tail that repeats the items before it, or the body of the loop before it, becomes
// or extends a loop) and keeps its numbers in value streams of runs; write_compressed() writes the file of
// docs/compressed-format.md; compress() folds every rank of a trace set, merges them (compressed_merge.cpp) and writes.
#include "compressed/build.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace tit::trace::cformat {

namespace {

/// Whether the value (`is_int`: a canonical integer `v`; else the token) continues `last`: an equal token, or the next
/// integer of its constant step (any step starts a run of two; |step| < 2^62, both values being within +-2^61).
bool extend_run(ValueRun& last, bool is_int, std::int64_t v, std::string_view token)
{
  if (is_int && last.is_int) {
    if (last.count == 1) {
      last.step = v - last.first;
      last.count = 2;
      return true;
    }
    std::int64_t span = 0;
    std::int64_t next = 0;
    bool overflow = __builtin_mul_overflow(last.step, static_cast<std::int64_t>(last.count), &span) ||
                    __builtin_add_overflow(last.first, span, &next);
    if (!overflow && v == next) {
      ++last.count;
      return true;
    }
  } else if (!is_int && !last.is_int && last.text == token) {
    ++last.count;
    return true;
  }
  return false;
}

/// A run of one value.
ValueRun new_run(bool is_int, std::int64_t v, std::string_view token)
{
  ValueRun run;
  run.is_int = is_int;
  run.first = v;
  if (!is_int)
    run.text = std::string(token);
  return run;
}

/// Longest body, in items, that folding looks for (items may themselves be loops).
constexpr std::size_t kWindow = 64;

/// Arguments of an action that are world ranks (partners), by position.
std::vector<std::size_t> partner_positions(const Action& a)
{
  switch (a.kind) {
    case Kind::Send:
    case Kind::Isend:
    case Kind::Recv:
    case Kind::Irecv:
    case Kind::Ssend:
    case Kind::Issend:
    case Kind::Bsend:
    case Kind::Ibsend:
      return {0};
    case Kind::Wait:
    case Kind::Test:
      return a.wait_last_irecv ? std::vector<std::size_t>{} : std::vector<std::size_t>{0, 1};
    case Kind::SendRecv:
      return {1, 3};
    default:
      return {};
  }
}

/// One rank's sequence of items, folded as it grows.
class Folder {
public:
  explicit Folder(Tables& tables) : tables_(tables) {}

  /// The common case first: the sequence ends with a loop and the actions after it follow, leaf by leaf, the expansion
  /// of one iteration of its body (nested loops included). A cursor walks that expansion, and such an action only
  /// moves it (a few comparisons, nothing stored); when an iteration is complete, the loop grows by one. The other
  /// folds are tried only when an action breaks the repetition: the actions the cursor had matched then go through
  /// the full search one by one (push_searched), then the one that broke it. (The full search, up to 2 x 64
  /// comparisons per action, was most of the tracer's cost per call; the shortcut also keeps a loop whole rather than
  /// folding it into an outer pattern at some intermediate count.)
  void push(std::uint32_t signature)
  {
    if (!cursor_.empty() && follow(signature))
      return;
    push_other(signature);
  }

  /// Items of the sequence now (without folding what is pending: that would change the folds to come), the actions the
  /// cursor matched counted as items.
  std::size_t size() const { return seq_.size() + matched_; }

  /// The folded sequence (the rank's structure once every action is pushed).
  std::vector<Node>& items()
  {
    if (!cursor_.empty())
      break_repetition();
    if (unsettled_)
      settle();
    return seq_;
  }

private:
  /// push() of an action the cursor does not expect (or without a cursor).
  void push_other(std::uint32_t signature)
  {
    if (!cursor_.empty()) {
      break_repetition();
      if (unsettled_) { // the loop that grew may now fold into the loop before it, whose body the action may continue
        settle();
        if (tail_loop_ != kNoLoop && tail_loop_ + 1 == seq_.size()) {
          start_cursor();
          if (follow(signature))
            return;
          cursor_.clear();
        }
      }
    }
    push_searched(signature);
    if (tail_loop_ != kNoLoop && tail_loop_ + 1 == seq_.size())
      start_cursor();
  }

  /// Where the cursor is in the expansion of one iteration of the tail loop's body: a frame per level of nesting.
  struct Frame {
    std::uint32_t body;  ///< body id
    std::uint32_t pos;   ///< the item of the body the next action belongs to
    std::uint32_t size;  ///< the body's items
    std::uint64_t left;  ///< iterations of this body still to come, the current one included
  };

  /// The first action of the expansion from the top frame's item on: descends into loops.
  void descend()
  {
    while (true) {
      Frame& top = cursor_.back();
      const Node& n = tables_.node_at(tables_.body_nodes(top.body)[top.pos]);
      if (!n.loop) {
        expected_ = n.ref;
        return;
      }
      cursor_.push_back(Frame{n.ref, 0, body_size(n.ref), n.count});
    }
  }

  std::uint32_t body_size(std::uint32_t body) const
  {
    return static_cast<std::uint32_t>(tables_.body_nodes(body).size());
  }

  /// Whether the action is the one the cursor expects; then the cursor moves past it, and the loop grows when that
  /// completes an iteration.
  bool follow(std::uint32_t signature)
  {
    if (expected_ != signature)
      return false;
    ++matched_;
    if (advance()) { // a whole iteration of the body (the cursor is back at its start)
      seq_[tail_loop_].count += 1;
      unsettled_ = true;
      matched_ = 0;
    }
    return true;
  }

  /// Past the expected action; true when that ends the iteration of the tail loop's body (the cursor then starts the
  /// next one).
  bool advance()
  {
    bool whole = false;
    while (true) {
      Frame& top = cursor_.back();
      if (++top.pos < top.size)
        break;
      if (cursor_.size() == 1) { // the tail loop's body
        top.pos = 0;
        whole = true;
        break;
      }
      if (--top.left > 0) {
        top.pos = 0;
        break;
      }
      cursor_.pop_back();
    }
    descend();
    return whole;
  }

  void start_cursor()
  {
    cursor_.clear();
    std::uint32_t body = seq_[tail_loop_].ref;
    cursor_.push_back(Frame{body, 0, body_size(body), 1});
    descend();
  }

  /// The repetition is broken: the actions matched since the last whole iteration go through the full search, in
  /// order (the expansion of the body regenerated by a fresh cursor as they go: nothing stored, however long an
  /// iteration is).
  void break_repetition()
  {
    std::uint64_t n = matched_;
    matched_ = 0;
    start_cursor(); // its frames hold ids and counts of bodies and nodes, which the searches below do not change
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint32_t action = expected_;
      advance();
      push_searched(action);
    }
    cursor_.clear();
  }

  /// One action without the cursor: appended when it continues the body of a flat tail loop (the cursor's rule, at the
  /// level of the sequence's items), else appended and every fold tried.
  void push_searched(std::uint32_t signature)
  {
    Node x{false, signature, 1};
    if (tail_loop_ < seq_.size()) {
      const std::vector<std::uint32_t>& body = tables_.body_nodes(seq_[tail_loop_].ref);
      std::size_t p = seq_.size() - 1 - tail_loop_;
      if (p < body.size() && tables_.node_at(body[p]) == x) {
        if (p + 1 < body.size()) {
          seq_.push_back(x);
        } else {
          seq_.resize(tail_loop_ + 1);
          seq_.back().count += 1;
          unsettled_ = true;
        }
        return;
      }
    }
    if (unsettled_)
      settle();
    seq_.push_back(x);
    settle();
  }

  bool body_equals_tail(std::uint32_t body, std::size_t k) const
  {
    const auto& ids = tables_.body_nodes(body);
    if (ids.size() != k)
      return false;
    std::size_t from = seq_.size() - k;
    for (std::size_t i = 0; i < k; ++i)
      if (!(tables_.node_at(ids[i]) == seq_[from + i]))
        return false;
    return true;
  }

  /// [... loop(B, c), tail] with tail == B  ->  [... loop(B, c + 1)]
  bool fold_into_previous_loop()
  {
    std::size_t n = seq_.size();
    for (std::size_t k = 1; k <= kWindow && k < n; ++k) {
      Node& before = seq_[n - 1 - k];
      if (before.loop && body_equals_tail(before.ref, k)) {
        before.count += 1;
        seq_.resize(n - k);
        return true;
      }
    }
    return false;
  }

  /// [... X, X] with X the last k items  ->  [... loop(X, 2)]
  bool fold_repeated_tail()
  {
    std::size_t n = seq_.size();
    for (std::size_t k = 1; k <= kWindow && 2 * k <= n; ++k) {
      if (!(seq_[n - 1] == seq_[n - 1 - k]))
        continue;
      if (!std::equal(seq_.begin() + static_cast<std::ptrdiff_t>(n - 2 * k),
                      seq_.begin() + static_cast<std::ptrdiff_t>(n - k),
                      seq_.begin() + static_cast<std::ptrdiff_t>(n - k)))
        continue;
      std::vector<Node> tail(seq_.begin() + static_cast<std::ptrdiff_t>(n - k), seq_.end());
      std::uint32_t body = tables_.body_of(tail);
      seq_.resize(n - 2 * k);
      seq_.push_back(Node{true, body, 2});
      return true;
    }
    return false;
  }

  /// Folds the tail until nothing folds; the last item, when it is a loop, is the one the next actions may repeat.
  void settle()
  {
    while (fold_into_previous_loop() || fold_repeated_tail()) {
    }
    tail_loop_ = !seq_.empty() && seq_.back().loop ? seq_.size() - 1 : kNoLoop;
    unsettled_ = false;
  }

  static constexpr std::size_t kNoLoop = ~std::size_t{0};
  Tables& tables_;
  std::vector<Node> seq_;
  std::size_t tail_loop_ = kNoLoop; ///< position of the loop whose body the items after it start, or kNoLoop
  bool unsettled_ = false;          ///< that loop grew: folds not tried since
  std::vector<Frame> cursor_;       ///< empty: no cursor (the sequence does not end with a loop)
  std::uint64_t matched_ = 0;       ///< actions the cursor matched since the last whole iteration
  std::uint32_t expected_ = 0;      ///< the action the cursor expects next
};

/// A key of a run for a quick comparison: equal runs have equal keys.
std::uint64_t run_key(const ValueRun& r)
{
  std::uint64_t h = r.is_int ? static_cast<std::uint64_t>(r.first) : std::hash<std::string>{}(r.text);
  h ^= static_cast<std::uint64_t>(r.step) * 0x9e3779b97f4a7c15ULL;
  h ^= r.count * 0xc2b2ae3d27d4eb4fULL;
  return h ^ (r.is_int ? 1 : 0);
}

/// The closed runs a StreamBuilder has not yet grouped: a ring (no allocation once grown) with each run's key beside
/// it, so that looking for a period compares keys, contiguous in memory, before runs.
class RunQueue {
public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  ValueRun& operator[](std::size_t i) { return runs_[(head_ + i) & (runs_.size() - 1)]; }
  std::uint64_t key(std::size_t i) const { return keys_[(head_ + i) & (runs_.size() - 1)]; }
  ValueRun& front() { return runs_[head_]; }
  void pop_front(std::size_t n = 1)
  {
    head_ = (head_ + n) & (runs_.size() - 1);
    size_ -= n;
  }
  void push_back(ValueRun&& r)
  {
    reserve_one();
    put((head_ + size_) & (runs_.size() - 1), std::move(r));
  }
  void push_front(ValueRun&& r)
  {
    reserve_one();
    head_ = (head_ + runs_.size() - 1) & (runs_.size() - 1);
    put(head_, std::move(r));
  }

private:
  void put(std::size_t i, ValueRun&& r)
  {
    keys_[i] = run_key(r);
    runs_[i] = std::move(r);
    ++size_;
  }
  void reserve_one()
  {
    if (size_ < runs_.size())
      return;
    std::vector<ValueRun> runs(std::max<std::size_t>(4 * kPeriod, 2 * runs_.size()));
    std::vector<std::uint64_t> keys(runs.size());
    for (std::size_t i = 0; i < size_; ++i) {
      runs[i] = std::move((*this)[i]);
      keys[i] = key(i);
    }
    runs_ = std::move(runs);
    keys_ = std::move(keys);
    head_ = 0;
  }
  std::vector<ValueRun> runs_; ///< a power of two long
  std::vector<std::uint64_t> keys_;
  std::size_t head_ = 0, size_ = 0;
};

struct CachedLine;

/// One value stream built as its values arrive, in memory bounded by a look-ahead of runs (not by the number of
/// values): the last run stays open while values extend it (equal tokens, or integers by a constant step); closed runs
/// are grouped into repeats online, exactly as find_repeats() groups a whole stream (its greedy choice at a run needs
/// the next 2 kPeriod runs, kept pending), and each repeat is encoded as soon as it is decided.
class StreamBuilder {
public:
  void add(std::string_view token)
  {
    std::int64_t v = 0;
    bool is_int = canonical_int(token, v);
    add_parsed(is_int, v, token);
  }

  /// add_parsed() `n` times (n >= 1): once the open run repeats the value, its count grows by the rest at once.
  void add_repeated(bool is_int, std::int64_t v, std::string_view token, std::uint64_t n)
  {
    for (; n > 0; --n) {
      add_parsed(is_int, v, token);
      const ValueRun& r = *open_;
      if (n > 1 && r.count >= 2 &&
          (is_int ? r.is_int && r.step == 0 && r.first == v : !r.is_int && r.text == token)) {
        open_->count += n - 1;
        return;
      }
    }
  }

  /// The remembered line whose repeats this stream holds back (RankCompressor::Impl::add_values), or nullptr.
  CachedLine* owner = nullptr;

  /// add() of a token already classified: `is_int` whether it is a canonical integer, then `v` its value.
  void add_parsed(bool is_int, std::int64_t v, std::string_view token)
  {
    if (open_) {
      ValueRun& r = *open_;
      if (is_int && r.is_int && r.step == 0 && r.count >= 2 && r.first == v) { // the same integer again (extend_run's
        ++r.count;                                                              // answer, without its arithmetic)
        return;
      }
    }
    add_other(is_int, v, token);
  }

private:
  /// add_parsed() of a value that does not repeat the open run's integer (out of line: the common case above stays
  /// small enough to inline).
  [[gnu::noinline]] void add_other(bool is_int, std::int64_t v, std::string_view token)
  {
    if (open_) {
      ValueRun& r = *open_;
      if (extend_run(r, is_int, v, token))
        return;
      if (!pattern_.empty() && queue_.empty() && r == pattern_[partial_]) {
        // the run continues the repeat under way (what drain() would find, without queueing it): the common case of
        // values alternating with a short period, as a halo's tags
        if (++partial_ == pattern_.size()) {
          ++count_;
          partial_ = 0;
        }
        r.is_int = is_int; // the value starts the next run, in place
        r.first = v;
        r.step = 0;
        r.count = 1;
        if (is_int)
          r.text.clear();
        else
          r.text.assign(token);
        return;
      }
      queue_.push_back(std::move(*open_));
      drain(false);
    }
    open_ = new_run(is_int, v, token);
  }

public:
  /// Closes the stream: its repeats, encoded (the part of encode_streams after the repeat count), and their number.
  std::string finish(std::uint64_t& repeats)
  {
    if (open_)
      queue_.push_back(std::move(*open_));
    open_.reset();
    drain(true);
    repeats = repeats_;
    return std::move(out_.out());
  }

private:
  void emit(std::uint64_t count, const std::vector<ValueRun>& runs)
  {
    out_.varint(count == 1 ? 0 : count);
    if (count != 1)
      out_.varint(runs.size());
    for (const ValueRun& r : runs)
      encode_run(out_, r);
    ++repeats_;
  }

  /// find_repeats' greedy, on the queued runs: with no repeat under way, the run at the front starts the shortest
  /// period (<= kPeriod runs) that the runs after it repeat at once, else is a repeat of its own; a repeat under way
  /// grows by every full period that follows, and ends at the first run that differs, whose partial period goes back
  /// to the front of the queue.
  void drain(bool at_end)
  {
    while (true) {
      if (!pattern_.empty()) {
        if (queue_.empty()) {
          if (!at_end)
            return;
          end_repeat();
          continue;
        }
        if (queue_.front() == pattern_[partial_]) {
          queue_.pop_front();
          if (++partial_ == pattern_.size()) {
            ++count_;
            partial_ = 0;
          }
        } else {
          end_repeat();
        }
        continue;
      }
      if (queue_.empty() || (!at_end && queue_.size() < 2 * kPeriod))
        return;
      bool found = false;
      std::uint64_t front_key = queue_.key(0);
      for (std::size_t p = 1; p <= kPeriod && 2 * p <= queue_.size(); ++p) {
        if (queue_.key(p) != front_key || !repeats_at_once(p))
          continue;
        pattern_.clear();
        for (std::size_t i = 0; i < p; ++i)
          pattern_.push_back(std::move(queue_[i]));
        queue_.pop_front(2 * p);
        count_ = 2;
        found = true;
        break;
      }
      if (!found) {
        single_.assign(1, std::move(queue_.front()));
        queue_.pop_front();
        emit(1, single_);
      }
    }
  }

  /// Whether the queue's first p runs are followed by the same p runs.
  bool repeats_at_once(std::size_t p)
  {
    for (std::size_t i = 0; i < p; ++i)
      if (queue_.key(i) != queue_.key(p + i) || !(queue_[i] == queue_[p + i]))
        return false;
    return true;
  }

  void end_repeat()
  {
    emit(count_, pattern_);
    for (std::size_t i = partial_; i-- > 0;) // the runs of the partial period go back, in order
      queue_.push_front(std::move(pattern_[i]));
    pattern_.clear();
    partial_ = 0;
  }

  std::optional<ValueRun> open_;
  RunQueue queue_;                ///< closed runs not yet in a repeat
  std::vector<ValueRun> pattern_; ///< the period of the repeat under way (empty: none)
  std::size_t partial_ = 0;        ///< the runs of its next period seen so far (equal to the period's first ones)
  std::vector<ValueRun> single_;
  std::uint64_t count_ = 0;
  std::uint64_t repeats_ = 0;
  ByteWriter out_;
};

/// One rank's value streams, one per (signature, value slot).
class Values {
public:
  /// The stream of (signature, slot), created empty when new; its address stays valid until encode().
  StreamBuilder& builder(std::uint32_t signature, std::uint32_t slot)
  {
    if (signature >= index_.size())
      index_.resize(signature + 1);
    std::vector<std::uint32_t>& slots = index_[signature];
    if (slot >= slots.size())
      slots.resize(slot + 1, kNone);
    if (slots[slot] == kNone) {
      slots[slot] = static_cast<std::uint32_t>(streams_.size());
      streams_.push_back(Entry{signature, slot, std::make_unique<StreamBuilder>()});
    }
    return *streams_[slots[slot]].builder;
  }

  void add(std::uint32_t signature, std::uint32_t slot, std::string_view token) { builder(signature, slot).add(token); }

  /// The value block (as encode_streams writes it): streams in (signature, slot) order, so that equal ranks give
  /// equal blocks.
  std::string encode()
  {
    std::sort(streams_.begin(), streams_.end(), [](const Entry& a, const Entry& b) {
      return std::pair(a.signature, a.slot) < std::pair(b.signature, b.slot);
    });
    ByteWriter w;
    w.varint(streams_.size());
    for (Entry& e : streams_) {
      std::uint64_t repeats = 0;
      std::string bytes = e.builder->finish(repeats);
      w.varint(e.signature);
      w.varint(e.slot);
      w.varint(repeats);
      w.bytes(bytes);
    }
    streams_.clear();
    index_.clear();
    return std::move(w.out());
  }

private:
  struct Entry {
    std::uint32_t signature;
    std::uint32_t slot;
    std::unique_ptr<StreamBuilder> builder;
  };
  static constexpr std::uint32_t kNone = 0xffffffff;
  std::vector<std::vector<std::uint32_t>> index_; ///< per signature, per value slot: the stream's index, or kNone
  std::vector<Entry> streams_;
};

/// a == b, comparing 8 bytes at a time without a call (the lines compared are short).
inline bool same_text(std::string_view a, std::string_view b)
{
  std::size_t n = a.size();
  if (n != b.size())
    return false;
  auto word = [](const char* p) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, 8);
    return w;
  };
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i])
        return false;
    return true;
  }
  for (std::size_t i = 0; i + 8 < n; i += 8)
    if (word(a.data() + i) != word(b.data() + i))
      return false;
  return word(a.data() + n - 8) == word(b.data() + n - 8); // the last 8 bytes (overlapping the words before)
}

/// A value of an action line as RankCompressor::add_line remembers it: its stream and its token, classified.
struct CachedValue {
  StreamBuilder* builder;
  bool is_int;
  std::int64_t value;
  std::string token;
};

/// An action line RankCompressor::add_line remembers (its text after the rank field is its key).
struct CachedLine {
  std::uint32_t sig = 0;
  std::vector<CachedValue> values;
  const std::string* text = nullptr; ///< its key
  std::string line;                  ///< the whole line as the tracer writes it: "<rank> " and the key
  std::vector<std::uint64_t> record; ///< the tracer's record of it (RankCompressor::add_record), or empty
  CachedLine* next = nullptr;        ///< the remembered line that came after it last time
  std::uint64_t pending = 0;         ///< its occurrences whose values are held back (see add_values)
  std::size_t owned = 0;             ///< how many of its values' streams it owns
  std::uint32_t direct = 0;          ///< its next occurrences that add their values at once (see add_values)
};

/// A tracer's record as the key of the records that stand for remembered lines.
inline std::string_view record_bytes(std::span<const std::uint64_t> record)
{
  return {reinterpret_cast<const char*>(record.data()), record.size_bytes()};
}

inline bool same_record(const std::vector<std::uint64_t>& a, std::span<const std::uint64_t> b)
{
  std::size_t n = a.size();
  if (n != b.size())
    return false;
  std::uint64_t differ = 0; // records are short: every word compared, without a branch per word
  for (std::size_t i = 0; i < n; ++i)
    differ |= a[i] ^ b[i];
  return differ == 0;
}

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
    std::string stored = cformat::pack(current_, cformat::kVersion, codec,
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

void write_file(const std::filesystem::path& out, unsigned version, const std::string& meta,
                const std::vector<std::string>& blocks)
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
  std::string head = file_head(version, meta);
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
std::string smaller_meta(Meta meta)
{
  meta.absolute_ids = false;
  std::string differences = encode_meta(meta);
  meta.absolute_ids = true;
  std::string ids = encode_meta(meta);
  unsigned version = written_version(meta);
  return file_head(version, ids).size() < file_head(version, differences).size() ? ids : differences;
}

/// The bases of the bin indices of a file, per stream (signature, value slot): bin_base over the stream's indices in
/// every block; block(b) gives the streams of block b of `count` (a part's blocks are decoded one at a time: decoded
/// runs take tens of bytes each).
template <typename Block> BinBases bases_of(std::size_t count, const Block& block, const Bins& bins)
{
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::int64_t>> indices;
  for (std::size_t b = 0; b < count; ++b)
    bin_indices(block(b), bins, indices);
  BinBases bases;
  for (auto& [key, of_stream] : indices)
    bases[key] = bin_base(std::move(of_stream));
  return bases;
}

/// Which arguments of an action are partners and which are volumes: the same for every action of one kind, dialect
/// and form (a dialect 1 `wait` without arguments), so computed once per such triple.
struct Roles {
  std::vector<std::size_t> partners;
  std::vector<std::size_t> binned; ///< binned_positions(): the arguments `binned:R` bins
};

} // namespace

// ---- RankCompressor --------------------------------------------------------------------------------------

struct RankCompressor::Impl {
  Impl(int r, int n, const ValueMode& m) : rank(r), rank_count(n), mode(m), rank_prefix(std::to_string(r) + " ") {}
  int rank;
  int rank_count;
  ValueMode mode;
  Tables tables;
  Folder folder{tables};
  Values values;
  Dialect dialect = Dialect::SimGrid;
  bool first = true;
  // reused on every action (no allocation once they have grown)
  std::string key;
  struct SlotDesc {
    Slot::Kind kind;
    std::string_view token;
    std::int64_t offset;
  };
  std::vector<SlotDesc> slots;
  std::vector<std::string_view> value_tokens;
  std::vector<bool> volume;
  std::vector<Roles> roles;       // by (kind, dialect, form)
  std::vector<bool> has_roles;
  std::string rank_prefix; ///< "<rank> ", how the tracer's lines start
  std::unordered_map<std::string, Kind, StringHash, std::equal_to<>> kinds; // add_line: SimGrid names seen

  const Roles& roles_of(const Action& a)
  {
    std::size_t i = (static_cast<std::size_t>(a.kind) * 2 + static_cast<std::size_t>(a.dialect)) * 2 +
                    (a.wait_last_irecv ? 1 : 0);
    if (i >= roles.size()) {
      roles.resize(i + 1);
      has_roles.resize(i + 1, false);
    }
    if (!has_roles[i]) {
      roles[i] = Roles{partner_positions(a), binned_positions(a)};
      has_roles[i] = true;
    }
    return roles[i];
  }

  void add(const Action& a)
  {
    if (first)
      dialect = a.dialect;
    first = false;
    const Roles& r = roles_of(a);
    Tables::key_begin(key, a.name);
    std::string_view rest = a.text;
    detail::next_field(rest); // rank
    detail::next_field(rest); // name
    slots.clear();
    value_tokens.clear();
    volume.clear();
    for (std::size_t i = 0; !rest.empty(); ++i) {
      std::string_view token = detail::next_field(rest);
      std::int64_t v = 0;
      bool is_int = canonical_int(token, v);
      SlotDesc slot{Slot::Kind::Value, token, 0};
      if (is_int && v >= 0 && v < rank_count &&
          std::find(r.partners.begin(), r.partners.end(), i) != r.partners.end()) {
        std::int64_t k = ((v - a.rank) % rank_count + rank_count) % rank_count;
        if (k > rank_count / 2)
          k -= rank_count;
        slot = SlotDesc{Slot::Kind::Relative, {}, k};
      } else if (is_int || detail::parse_double(token)) {
        value_tokens.push_back(token);
        volume.push_back(std::find(r.binned.begin(), r.binned.end(), i) != r.binned.end());
      } else {
        slot.kind = Slot::Kind::Literal;
      }
      Tables::key_slot(key, slot.kind, slot.kind == Slot::Kind::Literal ? token : std::string_view(), slot.offset);
      slots.push_back(slot);
    }
    std::int64_t found = tables.find_signature(key);
    std::uint32_t sig = 0;
    if (found >= 0) {
      sig = static_cast<std::uint32_t>(found);
    } else {
      Signature s;
      s.name = std::string(a.name);
      for (const SlotDesc& d : slots) {
        Slot slot;
        slot.kind = d.kind;
        if (d.kind == Slot::Kind::Literal)
          slot.literal = std::string(d.token);
        slot.offset = d.offset;
        s.slots.push_back(std::move(slot));
      }
      sig = tables.add_signature(key, std::move(s));
    }
    bool bin = mode.kind == ValueMode::Kind::Binned;
    last.sig = sig;
    last.values.clear();
    for (std::size_t j = 0; j < value_tokens.size(); ++j) {
      CachedValue v{&values.builder(sig, static_cast<std::uint32_t>(j)), false, 0,
                    bin && volume[j] ? bin_token(value_tokens[j], mode.bin) : std::string(value_tokens[j])};
      v.is_int = canonical_int(v.token, v.value);
      release(*v.builder);
      v.builder->add_parsed(v.is_int, v.value, v.token);
      last.values.push_back(std::move(v));
    }
    folder.push(sig);
  }

  // add_line's shortcuts (exact and binned values): an action line seen before (its text after the rank field)
  // gives the same signature and value tokens; a `compute <integer>` line has the one compute signature. They skip
  // the classification of the tokens and the signature's lookup, which cost more than the tracer's own work per call.
  // A program repeats its lines in the same order, so each remembered line also remembers the one that followed it:
  // comparing the line with that guess usually spares hashing it.
  static constexpr std::size_t kLineCache = 4096; ///< distinct lines remembered (memory stays bounded)
  std::unordered_map<std::string, CachedLine, StringHash, std::equal_to<>> lines;
  CachedLine last;                  ///< what the last add() did
  CachedLine* previous = nullptr;   ///< the line added last, when remembered (or compute_line)
  CachedLine compute_line;          ///< stands for every `compute <integer>` line in the chain of guesses
  std::int64_t compute_sig = -1;
  StreamBuilder* compute_values = nullptr;

  // add_record's shortcut: a record given with a remembered line before stands for it (the records of one line may be
  // several: only equal records are known to give equal lines). Each remembered line keeps its first record, compared
  // with the record of the line guessed to come next, as add_line compares texts.
  static constexpr std::size_t kRecords = 2 * kLineCache; ///< records remembered (memory stays bounded)
  std::unordered_map<std::string, CachedLine*, StringHash, std::equal_to<>> records;

  /// add_record(): the line `record` stands for, folded as add_line folds a remembered line; false when unknown.
  bool add_record(std::span<const std::uint64_t> record)
  {
    CachedLine* hit = nullptr;
    if (previous != nullptr && previous->next != nullptr && same_record(previous->next->record, record)) {
      hit = previous->next;
    } else if (auto it = records.find(record_bytes(record)); it != records.end()) {
      hit = it->second;
      if (previous != nullptr)
        previous->next = hit;
    } else {
      return false;
    }
    previous = hit;
    add_values(*hit);
    folder.push(hit->sig);
    return true;
  }

  /// After add_line() of the line `record` stands for: `previous` is that line when it is remembered.
  void remember_record(std::span<const std::uint64_t> record)
  {
    CachedLine* line = previous;
    if (line == nullptr || line == &compute_line || records.size() >= kRecords)
      return;
    if (records.emplace(std::string(record_bytes(record)), line).second && line->record.empty())
      line->record.assign(record.begin(), record.end());
  }

  /// add_compute(): the shortcut add_known takes for `compute <volume>` (the volume as a token would give it).
  bool add_compute(std::int64_t volume)
  {
    if (compute_sig < 0 || volume >= kIntLimit || volume <= -kIntLimit)
      return false;
    release(*compute_values);
    compute_values->add_parsed(true, volume, {}); // an integer's token is not read: its value is the run's
    folder.push(static_cast<std::uint32_t>(compute_sig));
    previous = &compute_line;
    return true;
  }

  /// The shortcuts of add_line, for `rest` (the line after its rank field); false when neither applies.
  bool add_known(std::string_view rest)
  {
    std::int64_t v = 0;
    // compute lines are never remembered: looking them up first would only cost a hash
    if (compute_sig >= 0 && !rest.empty() && rest[0] == 'c' && rest.starts_with("compute ") &&
        canonical_int(rest.substr(8), v)) {
      release(*compute_values);
      compute_values->add_parsed(true, v, rest.substr(8));
      folder.push(static_cast<std::uint32_t>(compute_sig));
      previous = &compute_line;
      return true;
    }
    CachedLine* hit = nullptr;
    if (previous != nullptr && previous->next != nullptr && same_text(*previous->next->text, rest)) {
      hit = previous->next;
    } else if (auto it = lines.find(rest); it != lines.end()) {
      hit = &it->second;
      if (previous != nullptr)
        previous->next = hit;
    }
    previous = hit;
    if (hit == nullptr)
      return false;
    add_values(*hit);
    folder.push(hit->sig);
    return true;
  }

  // A remembered line seen again adds the same values. While a line is the only one adding to each of its values'
  // streams (it owns them), its occurrences are only counted; another value for one of those streams first adds the
  // counted ones (each stream gets its values in order; streams are independent), as does finish(). A line that held
  // back a single occurrence when it lost a stream (lines taking the same streams in turn, as a halo's receives from
  // two sides with two tags) adds its values at once for its next kDirect occurrences, then tries again.
  static constexpr std::uint32_t kDirect = 64;

  /// The values of `line` (a remembered line, seen again), added or held back.
  void add_values(CachedLine& line)
  {
    if (line.direct == 0 && line.owned == line.values.size())
      ++line.pending; // the common case, inlined
    else
      add_values_otherwise(line);
  }

  void add_values_otherwise(CachedLine& line)
  {
    if (line.direct > 0) {
      --line.direct;
      for (const CachedValue& v : line.values) {
        release(*v.builder);
        v.builder->add_parsed(v.is_int, v.value, v.token);
      }
      return;
    }
    if (line.owned != line.values.size())
      take_streams(line);
    ++line.pending;
  }

  /// The line takes the streams of its values it does not own (their owners first add what they held back).
  void take_streams(CachedLine& line)
  {
    for (const CachedValue& v : line.values) {
      if (v.builder->owner != &line) {
        release(*v.builder);
        v.builder->owner = &line;
        ++line.owned;
      }
    }
  }

  /// The stream's owner, if any, adds its held-back values and gives the stream up.
  static void release(StreamBuilder& b)
  {
    if (CachedLine* o = b.owner) {
      if (o->pending <= 1)
        o->direct = kDirect;
      flush(*o);
      --o->owned;
      b.owner = nullptr;
    }
  }

  static void flush(CachedLine& line)
  {
    if (line.pending == 0)
      return;
    for (const CachedValue& v : line.values)
      v.builder->add_repeated(v.is_int, v.value, v.token, line.pending);
    line.pending = 0;
  }

  /// Adds every value held back (before the streams are encoded).
  void flush_all()
  {
    for (auto& [text, line] : lines)
      flush(line);
  }

  /// After add() of a line whose shortcut did not apply: remembers it.
  void remember(std::string_view rest, Kind kind)
  {
    if (kind == Kind::Compute) {
      std::int64_t v = 0;
      if (compute_sig < 0 && mode.kind == ValueMode::Kind::Exact && last.values.size() == 1 &&
          canonical_int(last.values[0].token, v)) {
        compute_sig = last.sig;
        compute_values = last.values[0].builder;
      }
      previous = compute_sig >= 0 ? &compute_line : nullptr;
      return; // compute volumes vary: their lines are not remembered
    }
    previous = nullptr;
    if (lines.size() < kLineCache) {
      auto [it, added] = lines.emplace(std::string(rest), last);
      it->second.text = &it->first;
      it->second.line = rank_prefix + it->first;
      previous = &it->second;
    }
  }
};

RankCompressor::RankCompressor(int rank, int rank_count, const ValueMode& mode)
    : impl_(std::make_unique<Impl>(rank, rank_count, mode))
{
  if (mode.kind == ValueMode::Kind::Stats)
    throw TraceError("error: value mode 'stats' needs every rank's values: fold them exact, then pool_stats()");
}

RankCompressor::~RankCompressor() = default;

void RankCompressor::add(const Action& a)
{
  impl_->add(a);
  ++actions_;
}

void RankCompressor::add_line(std::string_view line)
{
  Impl& m = *impl_;
  // The common case first: the line the last one's successor guesses, as the tracer writes it ("<rank> " and the
  // remembered text: a remembered text has no blank at either end, so trimming and cutting the rank field give it).
  if (CachedLine* guess = m.previous != nullptr ? m.previous->next : nullptr) {
    if (same_text(line, guess->line)) {
      m.previous = guess;
      m.add_values(*guess);
      m.folder.push(guess->sig);
      ++actions_;
      return;
    }
  }
  std::string_view text = line;
  std::string_view rest;
  const std::string& prefix = impl_->rank_prefix;
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  std::size_t n = prefix.size();
  if (line.size() > n && same_text(line.substr(0, n), prefix) && !blank(line[n]) && !blank(line.back())) {
    rest = std::string_view(line.data() + n, line.size() - n); // the tracer's lines: what trimming and cutting the rank
                                                               // field give
  } else {
    text = detail::trim(line);
    rest = text;
    detail::next_field(rest);
  }
  std::string_view after_rank = rest;
  bool shortcuts = !impl_->first;
  if (shortcuts && impl_->add_known(after_rank)) {
    ++actions_;
    return;
  }
  Action a;
  a.dialect = Dialect::SimGrid;
  a.text = text;
  a.rank = impl_->rank;
  a.name = detail::next_field(rest);
  auto it = impl_->kinds.find(a.name);
  if (it == impl_->kinds.end()) {
    const detail::ActionSpec* spec = detail::find_action(Dialect::SimGrid, a.name);
    if (spec == nullptr)
      throw TraceError(fmt::format("error: unknown action '{}' in line '{}'", a.name, a.text));
    it = impl_->kinds.emplace(std::string(a.name), spec->kind).first;
  }
  a.kind = it->second;
  add(a);
  impl_->remember(after_rank, a.kind);
}

bool RankCompressor::add_record(std::span<const std::uint64_t> record)
{
  if (!impl_->add_record(record))
    return false;
  ++actions_;
  return true;
}

void RankCompressor::add_line(std::string_view line, std::span<const std::uint64_t> record)
{
  add_line(line);
  impl_->remember_record(record);
}

bool RankCompressor::add_compute(std::int64_t volume)
{
  if (!impl_->add_compute(volume))
    return false;
  ++actions_;
  return true;
}

std::uint64_t RankCompressor::structure_items() const
{
  std::uint64_t n = impl_->folder.size();
  for (const auto& b : impl_->tables.bodies())
    n += b.size();
  return n;
}

Part RankCompressor::finish()
{
  Impl& m = *impl_;
  Part p;
  std::uint32_t root = m.tables.body_of(m.folder.items());
  m.flush_all();
  p.blocks.push_back(m.values.encode());
  m.tables.move_into(p.signatures, p.nodes, p.bodies);
  p.ranks.push_back(Part::RankPart{m.rank, root, m.dialect, 0});
  impl_.reset();
  return p;
}

namespace {

/// The file of `all`, encoded but not written: its raw structure record, its packed chunks, and what compress()
/// reports of it (all but the bytes).
struct EncodedFile {
  unsigned version = kVersion;
  std::string meta;
  std::vector<std::string> chunks;
  CompressStats stats;
  bool over_budget = false; ///< its chunks were not all packed: larger than encode_file's budget
  /// The size of the file written (the largest number when over budget).
  std::uint64_t size() const
  {
    if (over_budget)
      return std::numeric_limits<std::uint64_t>::max();
    std::uint64_t n = file_head(version, meta).size();
    for (const std::string& c : chunks)
      n += c.size();
    return n;
  }
};

/// `budget`: a file whose value chunks alone take more bytes is given over budget, its other chunks not packed (the
/// `stats` file that keeps every value, against the one with draws).
EncodedFile encode_file(const std::filesystem::path& out, int rank_count, const ValueMode& mode,
                        const std::string& compute_unit, const Part& all,
                        std::uint64_t budget = std::numeric_limits<std::uint64_t>::max())
{
  Meta meta;
  meta.rank_count = rank_count;
  meta.value_mode = value_mode_name(mode);
  meta.pooled = mode.kind == ValueMode::Kind::Stats;
  meta.gaps = meta.pooled; // folded by GapNormaliser
  meta.compute_unit = compute_unit;
  if (all.ranks.size() != static_cast<std::size_t>(rank_count))
    throw TraceError(fmt::format("error: compressed trace '{}': {} ranks of {} were merged", out.string(),
                                 all.ranks.size(), rank_count));
  for (int r = 0; r < rank_count; ++r) {
    const Part::RankPart& e = all.ranks[static_cast<std::size_t>(r)];
    if (e.rank != r)
      throw TraceError(fmt::format("error: compressed trace '{}': rank {} is missing", out.string(), r));
    meta.ranks.push_back(RankEntry{e.root, e.dialect, e.block, e.level});
  }
  meta.signatures = all.signatures;
  meta.nodes = all.nodes;
  meta.bodies = all.bodies;
  meta.schedules = all.schedules;
  // the value chunks: the blocks as the parts hold them (plain runs: parts are merged, renumbered and re-encoded);
  // a block of a binned file starts with its bin indices (version 5): none here, a count of 0
  bool binned_mode = mode.kind == ValueMode::Kind::Binned;
  bool over_budget = false;
  auto pack_blocks = [&all, binned_mode, budget, &over_budget](Meta& m, std::vector<std::string>& chunks) {
    Chunker chunker(budget);
    m.blocks.clear();
    for (const std::string& b : all.blocks)
      m.blocks.push_back(chunker.add(binned_mode ? std::string(1, '\0') + b : b));
    chunker.finish(m, chunks);
    over_budget = chunker.over_budget();
  };
  std::vector<std::string> chunks;
  std::uint64_t raw = 0;
  for (const std::string& b : all.blocks)
    raw += b.size();
  bool binned_only = mode.kind == ValueMode::Kind::Binned && raw > kChunkBytes;
  if (!binned_only)
    pack_blocks(meta, chunks);
  if (mode.kind == ValueMode::Kind::Binned) {
    // binned: with bin runs; a file whose values fit one chunk keeps the plain form (no bin indices, every volume's
    // representative a token or an integer run) when that packs smaller (tiny files, whose few bins do not pay for
    // the bin indices)
    Meta binned = meta;
    binned.bin_runs = mode.bin;
    Bins bins(mode.bin);
    // a block decoded at a time, twice (its bin indices for the bases, then its bytes)
    binned.bin_bases = bases_of(all.blocks.size(), [&all, &meta](std::size_t b) { return decode_block(all, meta, b); },
                                bins);
    Chunker chunker;
    binned.blocks.clear();
    for (std::size_t b = 0; b < all.blocks.size(); ++b)
      binned.blocks.push_back(chunker.add(encode_streams(decode_block(all, meta, b), &bins, &binned.bin_bases)));
    std::vector<std::string> binned_chunks;
    chunker.finish(binned, binned_chunks);
    auto file_size = [](const Meta& m, const std::vector<std::string>& c) { // the header, structure and chunks
      std::uint64_t n = file_head(kVersion, encode_meta(m)).size();
      for (const std::string& s : c)
        n += s.size();
      return n;
    };
    if (binned_only || file_size(binned, binned_chunks) < file_size(meta, chunks)) {
      meta = std::move(binned);
      chunks = std::move(binned_chunks);
    }
  }
  CompressStats stats;
  stats.signatures = meta.signatures.size();
  stats.loops = static_cast<std::uint64_t>(
      std::count_if(meta.nodes.begin(), meta.nodes.end(), [](const Node& n) { return n.loop; }));
  std::vector<std::uint32_t> roots;
  for (const auto& e : meta.ranks)
    roots.push_back(e.root);
  std::sort(roots.begin(), roots.end());
  stats.structures = static_cast<std::uint64_t>(std::unique(roots.begin(), roots.end()) - roots.begin());
  stats.value_blocks = meta.blocks.size();
  EncodedFile file;
  file.over_budget = over_budget;
  file.version = written_version(meta);
  file.chunks = std::move(chunks);
  file.meta = smaller_meta(meta);
  file.stats = stats;
  return file;
}

} // namespace

CompressStats write_compressed(const std::filesystem::path& out, int rank_count, const ValueMode& mode,
                               const std::string& compute_unit, Part all)
{
  EncodedFile file;
  if (mode.kind == ValueMode::Kind::Stats) {
    // the distributions, unless keeping every value (folded with the gaps) makes a file no larger: then they would
    // lose the values and gain nothing (traces whose volumes repeat exactly, or too few to fold)
    EncodedFile drawn;
    bool draws = false; // whether some site is drawn
    {
      Part pooled = all;
      pool_stats(pooled);
      draws = std::any_of(pooled.schedules.begin(), pooled.schedules.end(), [](const Schedule& s) {
        return !s.head.empty() || !s.phases.empty() ||
               std::any_of(s.draws.begin(), s.draws.end(), [](const ValueRun& r) { return r.is_int ? r.first != 0 : r.text != "0"; });
      });
      drawn = encode_file(out, rank_count, mode, compute_unit, pooled);
    }
    std::optional<LockStep> traced; // the check's reference: the traced values, folded with the gaps
    if (draws)
      traced = lock_step(read_part(all, rank_count, out.string()));
    pool_stats(all, false);
    EncodedFile kept = encode_file(out, rank_count, mode, compute_unit, all, drawn.size());
    bool drawn_smaller = drawn.size() < kept.size();
    std::uint64_t drawn_size = drawn.size();
    file = std::move(drawn_smaller ? drawn : kept);
    if (draws && drawn_smaller) {
      // the check: the drawn file (now `file`) read back, on the reference model (docs/compressed-format.md, "The
      // check")
      write_file(out, file.version, file.meta, file.chunks);
      double d = lock_step(open_ranks(out)).difference(*traced);
      file.stats.stats_check = d;
      if (std::abs(d) > kStatsCheckLimit) {
        file = encode_file(out, rank_count, mode, compute_unit, all); // kept was encoded with the drawn size as budget
        file.stats.stats_check = d;
        file.stats.warning = fmt::format(
            "warning: {}: values 'stats': the draws would move the computations' lock-step estimate by {:+.1f} % "
            "(more than {:g} %): every value kept as traced instead (a file {:.1f} times the drawn one's size; "
            "docs/compressed-format.md, \"The check\")",
            out.string(), 100 * d, 100 * kStatsCheckLimit,
            static_cast<double>(file.size()) / static_cast<double>(drawn_size));
      }
    }
  } else {
    if (mode.kind == ValueMode::Kind::Binned) // what every block repeats, in the structure instead
      hoist_constants(all);
    file = encode_file(out, rank_count, mode, compute_unit, all);
  }
  write_file(out, file.version, file.meta, file.chunks);
  std::error_code ec;
  file.stats.bytes = std::filesystem::file_size(out, ec);
  return file.stats;
}

void ValueStreams::add(std::uint32_t signature, std::uint32_t slot, std::string_view token)
{
  auto [it, added] = index_.try_emplace({signature, slot}, streams_.size());
  if (added)
    streams_.push_back(Stream{signature, slot, {}, {}});
  std::vector<ValueRun>& runs = streams_[it->second].runs;
  std::int64_t v = 0;
  bool is_int = canonical_int(token, v);
  if (runs.empty() || !extend_run(runs.back(), is_int, v, token))
    runs.push_back(new_run(is_int, v, token));
}

struct ValueBlock::Impl {
  Values values;
};
ValueBlock::ValueBlock() : impl_(std::make_unique<Impl>()) {}
ValueBlock::~ValueBlock() = default;
void ValueBlock::add(std::uint32_t signature, std::uint32_t slot, std::string_view token)
{
  impl_->values.add(signature, slot, token);
}
std::string ValueBlock::encode()
{
  return impl_->values.encode();
}

std::vector<Stream> ValueStreams::take()
{
  std::sort(streams_.begin(), streams_.end(), [](const Stream& a, const Stream& b) {
    return std::pair(a.signature, a.slot) < std::pair(b.signature, b.slot);
  });
  for (Stream& s : streams_)
    find_repeats(s);
  return std::move(streams_);
}

namespace {

/// Rank `rank` of `rank_count`, its actions read from `reader`, folded as fold_parts() folds every rank; `actions`
/// grows by the actions read.
Part fold_rank(RankReader& reader, int rank, int rank_count, const ValueMode& values, std::uint64_t& actions)
{
  bool stats = values.kind == ValueMode::Kind::Stats; // folded exact, with the gaps; write_compressed() pools
  bool binned = values.kind == ValueMode::Kind::Binned; // consecutive computes summed, then binned as one
  RankCompressor out(rank, rank_count, stats ? ValueMode{} : values);
  Action a;
  if (stats || binned) { // stats: a compute's presence as a value, not structure
    GapNormaliser gaps(out, stats);
    std::uint64_t read = 0;
    for (; reader.next(a); ++read)
      gaps.add(a);
    gaps.finish();
    actions += read;
  } else {
    while (reader.next(a))
      out.add(a);
    actions += out.actions();
  }
  return out.finish();
}

} // namespace

Part fold_parts(TraceSet& in, const ValueMode& values, std::uint64_t& actions)
{
  int ranks = in.rank_count();
  std::vector<Part> parts;
  actions = 0;
  for (int r = 0; r < ranks; ++r)
    parts.push_back(fold_rank(*in.reader(r), r, ranks, values, actions));
  return merge_parts(std::move(parts));
}

Part fold_gaps(Part exact, int rank_count)
{
  std::vector<int> ranks;
  for (const Part::RankPart& e : exact.ranks)
    ranks.push_back(e.rank);
  std::vector<std::unique_ptr<RankReader>> readers = read_part(std::move(exact), rank_count, "(folded exact)");
  std::vector<Part> parts;
  std::uint64_t actions = 0;
  ValueMode stats;
  stats.kind = ValueMode::Kind::Stats;
  for (std::size_t i = 0; i < readers.size(); ++i) {
    parts.push_back(fold_rank(*readers[i], ranks[i], rank_count, stats, actions));
    readers[i].reset(); // its decoded values
  }
  if (parts.size() == 1) // one rank (the tracer's): merged later, with the others (merge_parts decodes its values)
    return std::move(parts[0]);
  return merge_parts(std::move(parts));
}

Loaded fold(TraceSet& in, const ValueMode& values, std::uint64_t* actions)
{
  if (values.kind == ValueMode::Kind::Stats)
    throw std::logic_error("fold(): stats values are pooled across ranks, not kept per rank (fold them exact)");
  int ranks = in.rank_count();
  std::uint64_t count = 0;
  Part all = fold_parts(in, values, count);
  Loaded out;
  Meta& meta = out.meta;
  meta.rank_count = ranks;
  meta.value_mode = value_mode_name(values);
  meta.compute_unit = in.compute_unit();
  meta.signatures = std::move(all.signatures);
  meta.nodes = std::move(all.nodes);
  meta.bodies = std::move(all.bodies);
  for (const Part::RankPart& e : all.ranks)
    meta.ranks.push_back(RankEntry{e.root, e.dialect, e.block});
  for (std::size_t b = 0; b < all.blocks.size(); ++b)
    out.blocks.push_back(decode_block(all, meta, b));
  if (actions)
    *actions = count;
  return out;
}

std::uint64_t write_compressed(const std::filesystem::path& out, const Loaded& trace)
{
  Meta meta = trace.meta;
  meta.blocks.clear();
  meta.bin_runs = 0;
  if (meta.value_mode.starts_with("binned:"))
    meta.bin_runs = parse_value_mode(meta.value_mode).bin;
  std::optional<Bins> bins;
  meta.bin_bases.clear();
  if (meta.bin_runs > 0) {
    bins.emplace(meta.bin_runs);
    meta.bin_bases = bases_of(
        trace.blocks.size(), [&trace](std::size_t b) -> const std::vector<Stream>& { return trace.blocks[b]; }, *bins);
  }
  Chunker chunker;
  for (const std::vector<Stream>& block : trace.blocks)
    meta.blocks.push_back(chunker.add(encode_streams(block, bins ? &*bins : nullptr, &meta.bin_bases)));
  std::vector<std::string> chunks;
  chunker.finish(meta, chunks);
  write_file(out, written_version(meta), smaller_meta(meta), chunks);
  std::error_code ec;
  return std::filesystem::file_size(out, ec);
}

} // namespace tit::trace::cformat

namespace tit::trace {

CompressStats compress(TraceSet& in, const std::filesystem::path& out, const ValueMode& values)
{
  std::uint64_t actions = 0;
  cformat::Part all = cformat::fold_parts(in, values, actions);
  CompressStats stats = cformat::write_compressed(out, in.rank_count(), values, in.compute_unit(), std::move(all));
  stats.actions = actions;
  return stats;
}

} // namespace tit::trace

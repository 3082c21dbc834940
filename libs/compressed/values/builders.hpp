// Value streams built as their values arrive, in memory bounded by a look-ahead of runs (RankCompressor's streams,
// pool_stats' kept values, ValueBlock). Internal to libs/compressed.
#pragma once

#include "compressed/values/streams.hpp"
#include "compressed/values/values.hpp"

#include <algorithm>
#include <memory>

namespace tit::trace::cformat {

/// Whether the value (`is_int`: a canonical integer `v`; else the token) continues `last`: an equal token, or the next
/// integer of its constant step (any step starts a run of two; |step| < 2^62, both values being within +-2^61).
inline bool extend_run(ValueRun& last, bool is_int, std::int64_t v, std::string_view token)
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
inline ValueRun new_run(bool is_int, std::int64_t v, std::string_view token)
{
  ValueRun run;
  run.is_int = is_int;
  run.first = v;
  if (!is_int)
    run.text = std::string(token);
  return run;
}

/// A key of a run for a quick comparison: equal runs have equal keys.
inline std::uint64_t run_key(const ValueRun& r)
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

} // namespace tit::trace::cformat

// Blocks of collectives present in some iterations of a loop only (docs/extrapolation.md#sporadic-blocks) for tit-trace
// extrapolate. miniFE's CG checks for breakdown, two more allreduces, in the iterations where its data say: the folder
// then writes the iterations between two checks as loops that begin and end at other places in each input, and no
// class structure holds. Before folding, each rank's run of one repeated block B in which a block X of collectives
// (and the computes between them) is inserted, at the same place of B, in some iterations, is read as B repeated, then
// X repeated as many times as it was inserted: the same actions, the inserted collectives moved after the run (every
// rank alike: collectives keep the ranks in step, and those of X are ones B makes too). The count of X is data; the
// model holds it at the largest input's (extrap_fitter.cpp).
#include "extrap_unroll.hpp"

#include "extrap_model.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace tit::extrap {

namespace {

/// The longest repeated block (actions) a run is searched with, and the longest inserted block.
constexpr std::size_t kMaxBlock = 4096;
constexpr std::size_t kMaxInserted = 64;
/// A run is gathered when its block was inserted this many times or more (GatherReader::sporadic).
constexpr std::size_t kMinInsertions = 2;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

/// One action held: its text and name owned here, its key (the name and every argument but measured volumes).
struct Item {
  trace::Action action;
  std::string text, name;
  std::uint32_t key = 0;
  bool compute = false;
  bool collective = false;
};

/// A run found at a position: one block of `len` actions from `start`, repeated to `end`, with the block `inserted`
/// long inserted at offset `at` of an iteration at each of `insertions` (the iterations' first actions).
struct Run {
  std::size_t start = 0, len = 0, end = 0;
  std::size_t at = 0, inserted = 0;
  std::vector<std::size_t> insertions;
};

class GatherReader : public trace::RankReader {
public:
  GatherReader(std::unique_ptr<trace::RankReader> in, std::vector<GatheredRun>& runs) : in_(std::move(in)), runs_(runs)
  {
  }

  bool next(trace::Action& out) override
  {
    if (!loaded_)
      load();
    if (pos_ >= order_.size())
      return false;
    const Item& it = items_[order_[pos_++]];
    cur_ = it.action;
    cur_.text = it.text;
    cur_.name = it.name;
    point_args(cur_);
    out = cur_;
    return true;
  }

  const std::string& file() const override { return in_->file(); }

private:
  void load()
  {
    loaded_ = true;
    std::map<std::string, std::uint32_t> keys;
    trace::Action a;
    while (in_->next(a)) {
      Item& it = items_.emplace_back();
      std::string key(a.name);
      std::vector<std::size_t> measured = trace::cformat::binned_positions(a);
      for (std::size_t j = 0; j < a.args.size(); ++j)
        if (std::find(measured.begin(), measured.end(), j) == measured.end())
          (key += ' ') += a.args[j];
      it.key = keys.try_emplace(key, static_cast<std::uint32_t>(keys.size())).first->second;
      it.action = a;
      it.action.args.clear();
      it.text = std::string(a.text);
      it.name = std::string(a.name);
      it.compute = trace::traits(a.kind).group == trace::Group::Local;
      it.collective = trace::traits(a.kind).group == trace::Group::Collective;
    }
    const std::size_t n = items_.size();
    next_same_.assign(n, kNone);
    std::unordered_map<std::uint32_t, std::size_t> seen;
    for (std::size_t i = n; i-- > 0;) {
      auto [it, added] = seen.try_emplace(items_[i].key, i);
      if (!added) {
        next_same_[i] = it->second;
        it->second = i;
      }
    }
    for (std::size_t i = 0; i < n;) {
      Run r = run_at(i);
      if (r.end == 0) {
        order_.push_back(i++);
        continue;
      }
      if (!r.insertions.empty())
        extend_back(r);
      if (!sporadic(r)) {
        for (std::size_t k = r.start; k < r.end; ++k) // extend_back took [r.start, i) back from order_
          order_.push_back(k);
      } else {
        gather(r);
        floor_ = r.end;
      }
      i = r.end;
    }
  }

  /// Whether actions [from, from + len) have r's keys from offset `at` of its block (len within the block), or those of
  /// the inserted block when `inserted`.
  bool same_keys(const Run& r, std::size_t from, std::size_t at, std::size_t len, bool inserted) const
  {
    const std::size_t base = inserted ? r.insertions.front() + r.at : r.start + at;
    for (std::size_t k = 0; k < len; ++k)
      if (key(from + k) != key(base + k))
        return false;
    return true;
  }

  /// Extends run `r` (an inserted block known) back over the iterations before its first that are its block, with or
  /// without the inserted one, that no earlier run took (their actions, given out one by one, taken back from order_):
  /// the first iterations, before the run's block had repeated 3 times, may hold the inserted block too (a check
  /// at the first iteration in one input and not in another).
  void extend_back(Run& r)
  {
    const std::size_t i = r.start, len = r.len, k = r.inserted;
    std::size_t start = i;
    auto free_from = [&](std::size_t from) { return from >= floor_; }; // no gathered run took it
    if (r.at == 0 && start >= k && free_from(start - k) && same_keys(r, start - k, 0, k, true)) {
      start -= k; // the run's first iteration held the block at its beginning
      r.insertions.insert(r.insertions.begin(), start);
    }
    for (;;) {
      if (start >= len && free_from(start - len) && same_keys(r, start - len, 0, len, false)) {
        start -= len;
        continue;
      }
      const std::size_t whole = len + k, j = r.at;
      if (start >= whole && free_from(start - whole) && same_keys(r, start - whole, 0, j, false) &&
          same_keys(r, start - whole + j, 0, k, true) && same_keys(r, start - whole + j + k, j, len - j, false)) {
        start -= whole;
        r.insertions.insert(r.insertions.begin(), start);
        continue;
      }
      break;
    }
    // the actions [start, i) were given out one by one, the last ones of order_
    order_.resize(order_.size() - (i - start));
    r.start = start;
  }

  std::uint32_t key(std::size_t i) const { return items_[i].key; }

  /// Whether run `r`'s block was inserted in some iterations only: twice or more (once: a last iteration that
  /// differs), in at most half of them, and with iterations without it between the first and the last insertion (not
  /// two phases, the block in every iteration of the second: HPCG's 4 iterations of 2 allreduces, then 21 of 3).
  bool sporadic(const Run& r) const
  {
    const std::size_t n = r.insertions.size();
    if (n < kMinInsertions)
      return false;
    const std::size_t iterations = (r.end - r.start - n * r.inserted) / r.len;
    return 2 * n <= iterations && r.insertions.back() - r.insertions.front() > (n - 1) * (r.len + r.inserted);
  }

  /// The first offset t < r.len where the iteration from `pos` differs from r's block (the end of the sequence counts
  /// as a difference); r.len when the whole iteration is the block.
  std::size_t differs_at(const Run& r, std::size_t pos) const
  {
    for (std::size_t t = 0; t < r.len; ++t)
      if (pos + t >= items_.size() || key(pos + t) != key(r.start + t))
        return t;
    return r.len;
  }

  /// Whether, after `inserted` actions at offset `at` of the iteration from `pos`, the rest of r's block follows.
  bool resumes(const Run& r, std::size_t pos, std::size_t at, std::size_t inserted) const
  {
    if (pos + inserted + r.len > items_.size())
      return false;
    for (std::size_t t = at; t < r.len; ++t)
      if (key(pos + inserted + t) != key(r.start + t))
        return false;
    return true;
  }

  /// Whether `inserted` actions from `from` may be gathered: collectives that the block makes too, with the computes
  /// between them, at least one collective.
  bool gatherable(const Run& r, std::size_t from, std::size_t inserted) const
  {
    bool collective = false;
    for (std::size_t k = from; k < from + inserted; ++k) {
      const Item& it = items_[k];
      if (it.compute)
        continue;
      if (!it.collective)
        return false;
      bool in_block = false;
      for (std::size_t t = r.start; t < r.start + r.len && !in_block; ++t)
        in_block = key(t) == it.key;
      if (!in_block)
        return false;
      collective = true;
    }
    return collective;
  }

  /// The run that begins at `i`: a block (up to the next action with i's key) repeated 3 times or more, then
  /// iterations that are the block or the block with one inserted block at one place; end 0 when none begins there.
  Run run_at(std::size_t i) const
  {
    Run r;
    if (next_same_[i] == kNone || next_same_[i] - i > kMaxBlock)
      return r;
    r.start = i;
    r.len = next_same_[i] - i;
    if (i + 3 * r.len > items_.size())
      return r;
    for (std::size_t t = 0; t < 2 * r.len; ++t)
      if (key(i + t) != key(i + t + r.len))
        return r;
    std::size_t pos = i + 3 * r.len;
    for (;;) {
      std::size_t t = differs_at(r, pos);
      if (t == r.len) {
        pos += r.len;
        continue;
      }
      if (pos + t >= items_.size())
        break;
      if (r.insertions.empty()) {
        std::size_t k = 1;
        while (k <= kMaxInserted && !(resumes(r, pos, t, k) && gatherable(r, pos + t, k)))
          ++k;
        if (k > kMaxInserted)
          break;
        r.at = t;
        r.inserted = k;
      } else {
        const std::size_t first = r.insertions.front() + r.at;
        bool same = t == r.at && resumes(r, pos, t, r.inserted);
        for (std::size_t k = 0; same && k < r.inserted; ++k)
          same = key(pos + t + k) == key(first + k);
        if (!same)
          break;
      }
      r.insertions.push_back(pos);
      pos += r.len + r.inserted;
    }
    r.end = pos;
    return r;
  }

  /// Writes run `r` into order_: its iterations without the inserted blocks, then the inserted blocks (rotated by one
  /// action when the first would follow an action of its own kind: merge_computes alternates computes and the rest).
  void gather(const Run& r)
  {
    std::vector<std::size_t> moved;
    std::size_t next = 0; // the next insertion
    for (std::size_t k = r.start; k < r.end; ++k) {
      if (next < r.insertions.size() && k == r.insertions[next] + r.at) {
        for (std::size_t x = 0; x < r.inserted; ++x)
          moved.push_back(k + x);
        k += r.inserted - 1;
        ++next;
        continue;
      }
      order_.push_back(k);
    }
    if (!order_.empty() && items_[order_.back()].compute == items_[moved.front()].compute)
      std::rotate(moved.begin(), moved.begin() + 1, moved.end());
    runs_.push_back(GatheredRun{order_.size(), moved.size(), r.insertions.size()});
    order_.insert(order_.end(), moved.begin(), moved.end());
  }

  std::unique_ptr<trace::RankReader> in_;
  std::vector<GatheredRun>& runs_;
  bool loaded_ = false;
  std::vector<Item> items_;
  std::vector<std::size_t> next_same_; ///< per action, the next one with its key (kNone)
  std::vector<std::size_t> order_;     ///< the actions as given out
  std::size_t floor_ = 0;              ///< the end of the last run gathered: the actions before it are given out in
                                       ///< another order
  std::size_t pos_ = 0;
  trace::Action cur_;
};

class GatherSet : public trace::TraceSet {
public:
  GatherSet(std::unique_ptr<trace::TraceSet> in, std::vector<std::vector<GatheredRun>>& runs)
      : in_(std::move(in)), runs_(runs)
  {
    runs_.assign(static_cast<std::size_t>(in_->rank_count()), {});
  }
  int rank_count() const override { return in_->rank_count(); }
  bool has_own_rank_count() const override { return in_->has_own_rank_count(); }
  std::unique_ptr<trace::RankReader> reader(int r) override
  {
    std::vector<GatheredRun>& mine = runs_.at(static_cast<std::size_t>(r));
    mine.clear(); // a rank read again finds the same runs
    return std::make_unique<GatherReader>(in_->reader(r), mine);
  }
  std::string describe() const override { return in_->describe(); }
  const std::string& compute_unit() const override { return in_->compute_unit(); }

private:
  std::unique_ptr<trace::TraceSet> in_;
  std::vector<std::vector<GatheredRun>>& runs_;
};

/// The actions node `id` of `meta` stands for (a loop's iterations all), memoised in `lengths`.
std::uint64_t flat_length(const trace::cformat::Meta& meta, std::uint32_t id,
                          std::map<std::uint32_t, std::uint64_t>& lengths)
{
  const trace::cformat::Node& n = meta.nodes[id];
  if (!n.loop)
    return 1;
  if (auto it = lengths.find(id); it != lengths.end())
    return it->second;
  std::uint64_t body = 0;
  for (std::uint32_t inner : meta.bodies[n.ref])
    body += flat_length(meta, inner, lengths);
  return lengths[id] = body * n.count;
}

/// Adds to `out` the loops of body `body` (its first action the `offset`-th of the rank) that hold the actions
/// [from, to): the innermost loop whose iterations they span, or where they span items of one body, the loops that lie
/// mostly among them.
void loops_holding(const trace::cformat::Meta& meta, std::uint32_t body, std::uint64_t offset, std::uint64_t from,
                   std::uint64_t to, std::map<std::uint32_t, std::uint64_t>& lengths, std::set<std::uint32_t>& out)
{
  for (std::uint32_t id : meta.bodies[body]) {
    std::uint64_t len = flat_length(meta, id, lengths);
    const trace::cformat::Node& n = meta.nodes[id];
    if (n.loop && from >= offset && to <= offset + len) {
      std::uint64_t iteration = len / n.count, q = (from - offset) / iteration;
      if (to <= offset + (q + 1) * iteration)
        loops_holding(meta, n.ref, offset + q * iteration, from, to, lengths, out);
      else
        out.insert(id);
      return;
    }
    std::uint64_t overlap = std::min(to, offset + len) > std::max(from, offset)
                                ? std::min(to, offset + len) - std::max(from, offset)
                                : 0;
    if (n.loop && 2 * overlap >= len)
      out.insert(id);
    offset += len;
  }
}

} // namespace

std::unique_ptr<trace::TraceSet> gather_sporadic_blocks(std::unique_ptr<trace::TraceSet> set,
                                                        std::vector<std::vector<GatheredRun>>& runs)
{
  return std::make_unique<GatherSet>(std::move(set), runs);
}

std::set<std::uint32_t> gathered_loops(const trace::cformat::Loaded& trace,
                                       const std::vector<std::vector<GatheredRun>>& runs)
{
  std::set<std::uint32_t> out;
  std::map<std::uint32_t, std::uint64_t> lengths;
  const trace::cformat::Meta& meta = trace.meta;
  for (std::size_t r = 0; r < runs.size() && r < meta.ranks.size(); ++r)
    for (const GatheredRun& g : runs[r])
      loops_holding(meta, meta.ranks[r].root, 0, g.first, g.first + g.length, lengths, out);
  return out;
}

} // namespace tit::extrap

#include "fastforward/plan.hpp"

#include "compressed/compressed.hpp"
#include "trace/kinds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <unordered_map>

namespace tit::fastforward {

namespace fs = std::filesystem;
using trace::Action;
using trace::TraceError;

namespace {

/// Actions a loop body must not hold: cutting iterations that start or end the run, or that make communicators
/// (whose handles later actions name), would change what the remaining actions mean.
constexpr std::array<std::string_view, 6> kNotInCutLoops = {"init",        "finalize", "comm_split",
                                                            "comm_create", "comm_dup", "comm_free"};

/// How many more iterations a loop may have on some ranks than on others (folded from another starting point).
constexpr std::uint64_t kPeeledIterations = 2;

/// A loop found at the top level of one rank's sequence.
struct Candidate {
  std::uint64_t first = 0;
  std::uint64_t body = 0;
  std::uint64_t trip = 0;
};

/// The structure of the folded ranks: actions per body, bodies that cannot be cut, each rank's top-level loops.
class Structure {
public:
  explicit Structure(const trace::cformat::Meta& meta) : meta_(meta), length_(meta.bodies.size(), 0),
                                                        cuttable_(meta.bodies.size(), -1) {}

  std::uint64_t length(std::uint32_t body)
  {
    if (length_[body] != 0)
      return length_[body];
    std::uint64_t n = 0;
    for (std::uint32_t id : meta_.bodies[body]) {
      const auto& node = meta_.nodes[id];
      n += node.loop ? node.count * length(node.ref) : 1;
    }
    return length_[body] = n;
  }

  bool cuttable(std::uint32_t body)
  {
    if (cuttable_[body] >= 0)
      return cuttable_[body] == 1;
    bool ok = true;
    for (std::uint32_t id : meta_.bodies[body]) {
      const auto& node = meta_.nodes[id];
      if (node.loop)
        ok = ok && cuttable(node.ref);
      else
        ok = ok && std::find(kNotInCutLoops.begin(), kNotInCutLoops.end(), meta_.signatures[node.ref].name) ==
                       kNotInCutLoops.end();
    }
    cuttable_[body] = ok ? 1 : 0;
    return ok;
  }

  /// The loops of rank `r`'s top level with at least `min_trip` iterations and a cuttable body; `total` its actions.
  std::vector<Candidate> candidates(int r, std::uint64_t min_trip, std::uint64_t& total)
  {
    std::vector<Candidate> out;
    std::uint64_t at = 0;
    for (std::uint32_t id : meta_.bodies[meta_.ranks[static_cast<std::size_t>(r)].root]) {
      const auto& node = meta_.nodes[id];
      if (not node.loop) {
        ++at;
        continue;
      }
      std::uint64_t body = length(node.ref);
      if (node.count >= min_trip && body > 0 && cuttable(node.ref))
        out.push_back({at, body, node.count});
      at += node.count * body;
    }
    total = at;
    return out;
  }

private:
  const trace::cformat::Meta& meta_;
  std::vector<std::uint64_t> length_;
  std::vector<int> cuttable_;
};

/// A held action line and where it was traced.
struct Line {
  std::uint64_t offset = 0;
  std::uint32_t size = 0;
  std::uint64_t number = 0;
};

/// What a cut keeps of one rank.
struct RankLines {
  std::string file;
  trace::Dialect dialect = trace::Dialect::SimGrid;
  std::string text;                     ///< the held lines, one after the other
  std::vector<Line> lines;
  /// Per loop: index in `lines` where each held iteration starts (its gap's computes first), and where the last
  /// one ends: kept + extra + 1 entries.
  std::vector<std::vector<std::size_t>> iteration_start;
  std::uint64_t calls = 0;              ///< its actions other than computations (what the loops are made of)
  std::uint64_t actions = 0;            ///< every action of the rank
};

/// Computations and sleeps: not part of a loop's structure (a tracer writes a computation only when it lasted long
/// enough, so iterations differ in having one), but of the gap before the next action.
bool local(const Action& a)
{
  return trace::traits(a.kind).group == trace::Group::Local;
}

/// A trace set's ranks without their computations and sleeps: what the loops are found in.
class CallsOnly final : public trace::TraceSet {
public:
  explicit CallsOnly(std::unique_ptr<trace::TraceSet> set) : set_(std::move(set)) {}
  int rank_count() const override { return set_->rank_count(); }
  bool has_own_rank_count() const override { return set_->has_own_rank_count(); }
  std::unique_ptr<trace::RankReader> reader(int r) override
  {
    return std::make_unique<Reader>(set_->reader(r));
  }
  std::string describe() const override { return set_->describe(); }
  const std::string& compute_unit() const override { return set_->compute_unit(); }

private:
  class Reader final : public trace::RankReader {
  public:
    explicit Reader(std::unique_ptr<trace::RankReader> in) : in_(std::move(in)) {}
    bool next(Action& out) override
    {
      while (in_->next(out))
        if (not local(out))
          return true;
      return false;
    }
    const std::string& file() const override { return in_->file(); }

  private:
    std::unique_ptr<trace::RankReader> in_;
  };
  std::unique_ptr<trace::TraceSet> set_;
};

/// Bytes an action sends (messages and collectives).
double bytes_sent(const Action& a)
{
  const auto& t = trace::traits(a.kind);
  switch (t.group) {
  case trace::Group::Message:
    return t.sends ? a.bytes : 0;
  case trace::Group::SendRecv:
    return a.bytes;
  case trace::Group::Collective:
  case trace::Group::NonBlockingCollective:
    return std::max(a.bytes, 0.0) + std::accumulate(a.send_counts.begin(), a.send_counts.end(), 0.0);
  default:
    return 0;
  }
}

} // namespace

struct Plan::Impl {
  std::vector<Loop> loops;
  std::string refusal;
  std::vector<std::string> notes;
  std::vector<RankLines> ranks;
  std::uint64_t actions = 0;
  bool own_rank_count = true;
  std::string description;
  std::string unit;

  void find_loops(const fs::path& traces, std::optional<int> ranks, const Settings& settings);
  void hold(const fs::path& traces, std::optional<int> ranks, const Settings& settings);
};

void Plan::Impl::find_loops(const fs::path& traces, std::optional<int> rank_hint, const Settings& settings)
{
  using namespace trace::cformat;
  if (settings.progress)
    settings.progress("fast-forward: folding each rank's actions into loops");
  CallsOnly calls(trace::TraceSet::open(traces, rank_hint));
  Loaded folded = fold(calls, trace::ValueMode{});
  Structure structure(folded.meta);
  int n = folded.meta.rank_count;
  std::uint64_t min_trip = 6 * settings.first_k; // cutting to 3k iterations leaves at most half of them
  std::vector<std::vector<Candidate>> found(static_cast<std::size_t>(n));
  ranks.resize(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    found[static_cast<std::size_t>(r)] = structure.candidates(r, min_trip, ranks[static_cast<std::size_t>(r)].calls);
  auto trips = [&](int r) {
    std::vector<std::uint64_t> t;
    for (auto const& c : found[static_cast<std::size_t>(r)])
      t.push_back(c.trip);
    return t;
  };
  auto reference = trips(0);
  if (reference.empty()) {
    refusal = fmt::format("no loop of rank 0 runs {} times or more at the top level of its MPI calls without starting "
                          "or ending the run or making communicators",
                          min_trip);
    return;
  }
  // Ranks fold the same loop from different starting points (a rank that only sends folds `compute send` where its
  // neighbour folds `recv compute send`): a loop may have an iteration or two more on some ranks, peeled off on the
  // others. Every rank skipping the same number of iterations still skips the same messages.
  for (int r = 1; r < n; ++r) {
    auto t = trips(r);
    bool same = t.size() == reference.size();
    for (std::size_t i = 0; same && i < t.size(); ++i)
      same = std::max(t[i], reference[i]) - std::min(t[i], reference[i]) <= kPeeledIterations;
    if (not same) {
      auto list = [](const std::vector<std::uint64_t>& v) {
        return v.empty() ? std::string("none") : fmt::format("{}", fmt::join(v, ", "));
      };
      refusal = fmt::format("the ranks' loops differ: rank 0 has loops of {} iterations at the top level of its "
                            "MPI calls, rank {} of {} (a cut must skip the same iterations on every rank)",
                            list(reference), r, list(t));
      return;
    }
  }
  // The longest loops (iterations x rank 0's body), at most max_loops, in the order the ranks run them.
  std::vector<std::size_t> order(reference.size());
  std::iota(order.begin(), order.end(), 0);
  auto weight = [&](std::size_t i) { return found[0][i].trip * found[0][i].body; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return weight(a) > weight(b); });
  if (order.size() > settings.max_loops) {
    for (std::size_t i = settings.max_loops; i < order.size(); ++i)
      notes.push_back(fmt::format("a loop of {} iterations is replayed in full (at most {} loops are cut)",
                                  found[0][order[i]].trip, settings.max_loops));
    order.resize(settings.max_loops);
  }
  std::sort(order.begin(), order.end());
  std::uint64_t kept_max = 3 * settings.first_k << settings.doublings;
  for (std::size_t i : order) {
    Loop loop;
    loop.trip = reference[i];
    for (int r = 0; r < n; ++r)
      loop.trip = std::min(loop.trip, found[static_cast<std::size_t>(r)][i].trip);
    loop.kept = std::max(3 * settings.first_k, std::min(loop.trip / 2, kept_max));
    for (int r = 0; r < n; ++r) {
      const Candidate& c = found[static_cast<std::size_t>(r)][i];
      loop.first.push_back(c.first);
      loop.body.push_back(c.body);
      loop.extra.push_back(c.trip - loop.trip);
    }
    loop.work.assign(loop.trip + kPeeledIterations, 0.0);
    loop.peak.assign(loop.trip + kPeeledIterations, 0.0);
    loop.bytes.assign(loop.trip + kPeeledIterations, 0.0);
    loops.push_back(std::move(loop));
  }
}

void Plan::Impl::hold(const fs::path& traces, std::optional<int> rank_hint, const Settings& settings)
{
  auto set = trace::TraceSet::open(traces, rank_hint);
  if (set->rank_count() != static_cast<int>(ranks.size()))
    throw TraceError(fmt::format("error: {}: {} ranks when read again, {} when folded (did the trace change?)",
                                 traces.string(), set->rank_count(), ranks.size()));
  own_rank_count = set->has_own_rank_count();
  description = set->describe();
  unit = set->compute_unit();
  Action a;
  std::size_t step = std::max<std::size_t>(1, ranks.size() / 10);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (settings.progress && r % step == 0 && ranks.size() >= 64)
      settings.progress(fmt::format("fast-forward: reading rank {} of {}", r, ranks.size()));
    RankLines& rl = ranks[r];
    rl.iteration_start.resize(loops.size());
    auto reader = set->reader(static_cast<int>(r));
    std::uint64_t i = 0;       // calls so far
    std::size_t j = 0;         // the loop `i` is in or before
    std::size_t gap = 0;       // index in rl.lines of the first computation since the last call
    double gap_work = 0;
    std::vector<std::vector<double>> mine(loops.size()); // this rank's compute volume per iteration of each loop
    for (std::size_t l = 0; l < loops.size(); ++l)
      mine[l].assign(loops[l].work.size(), 0.0);
    while (reader->next(a)) {
      if (rl.actions++ == 0) {
        rl.file = reader->file();
        rl.dialect = a.dialect;
      }
      if (rl.lines.size() == gap)
        gap_work = 0;
      auto hold_line = [&] {
        rl.lines.push_back({rl.text.size(), static_cast<std::uint32_t>(a.text.size()), a.line});
        rl.text += a.text;
      };
      if (local(a)) { // held with the gap; dropped with the call that ends it
        if (a.kind == trace::Kind::Compute)
          gap_work += a.amount;
        hold_line();
        continue;
      }
      while (j < loops.size() && i >= loops[j].first[r] + (loops[j].trip + loops[j].extra[r]) * loops[j].body[r]) {
        rl.iteration_start[j].push_back(gap); // the end of the last held iteration
        ++j;
      }
      bool keep = true;
      if (j < loops.size() && i >= loops[j].first[r]) {
        Loop& loop = loops[j];
        std::uint64_t offset = i - loop.first[r];
        std::uint64_t iteration = offset / loop.body[r];
        keep = iteration < loop.kept + loop.extra[r];
        if (offset % loop.body[r] == 0 && keep)
          rl.iteration_start[j].push_back(gap);
        if (offset == 0 && r == 0)
          loop.where = fmt::format("{}:{}", *a.file, a.line);
        mine[j][iteration] += gap_work;
        loop.bytes[iteration] += bytes_sent(a);
      }
      if (keep) {
        hold_line();
      } else { // the call and its gap's computations
        if (gap < rl.lines.size())
          rl.text.resize(rl.lines[gap].offset);
        rl.lines.resize(gap);
      }
      gap = rl.lines.size();
      ++i;
    }
    while (j < loops.size()) { // a loop that ends with the rank's last call
      rl.iteration_start[j].push_back(gap);
      ++j;
    }
    for (std::size_t l = 0; l < loops.size(); ++l)
      for (std::size_t it = 0; it < mine[l].size(); ++it) {
        loops[l].work[it] += mine[l][it];
        loops[l].peak[it] = std::max(loops[l].peak[it], mine[l][it]);
      }
    if (i != rl.calls)
      throw TraceError(fmt::format("error: {}: rank {} has {} MPI calls when read again, {} when folded (did the "
                                   "trace change?)",
                                   traces.string(), r, i, rl.calls));
    rl.text.shrink_to_fit();
    rl.lines.shrink_to_fit();
    actions += rl.actions;
  }
}

namespace {

/// One rank's stream of a cut: ranges of its held lines, parsed as the trace's reader parses them.
class CutReader final : public trace::RankReader {
public:
  CutReader(const RankLines& rank, std::vector<std::pair<std::size_t, std::size_t>> ranges, int rank_count)
      : rank_(rank), ranges_(std::move(ranges)), parser_(rank.file, trace::detail::DialectGuess{rank.dialect, 0, {}},
                                                         rank_count)
  {
  }

  bool next(Action& out) override
  {
    while (range_ < ranges_.size() && at_ >= ranges_[range_].second) {
      ++range_;
      if (range_ < ranges_.size())
        at_ = ranges_[range_].first;
    }
    if (range_ >= ranges_.size())
      return false;
    const Line& line = rank_.lines[at_++];
    parser_.split(std::string_view(rank_.text).substr(line.offset, line.size), line.number, out);
    parser_.interpret(out);
    return true;
  }

  const std::string& file() const override { return rank_.file; }

private:
  const RankLines& rank_;
  std::vector<std::pair<std::size_t, std::size_t>> ranges_;
  std::size_t range_ = 0;
  std::size_t at_ = 0;
  trace::detail::ActionParser parser_;
};

class CutSet final : public trace::TraceSet {
public:
  CutSet(const Plan::Impl& plan, std::vector<std::uint64_t> iterations)
      : plan_(plan), iterations_(std::move(iterations))
  {
    description_ = fmt::format("{}, loops cut to {} iterations", plan.description, fmt::join(iterations_, ", "));
  }
  int rank_count() const override { return static_cast<int>(plan_.ranks.size()); }
  bool has_own_rank_count() const override { return plan_.own_rank_count; }
  std::unique_ptr<trace::RankReader> reader(int r) override
  {
    const RankLines& rank = plan_.ranks[static_cast<std::size_t>(r)];
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    std::size_t from = 0;
    for (std::size_t j = 0; j < plan_.loops.size(); ++j) {
      const auto& starts = rank.iteration_start[j];
      std::size_t extra = plan_.loops[j].extra[static_cast<std::size_t>(r)];
      ranges.emplace_back(from, starts[iterations_[j] + extra]);
      from = starts.back();
    }
    ranges.emplace_back(from, rank.lines.size());
    return std::make_unique<CutReader>(rank, std::move(ranges), rank_count());
  }
  std::string describe() const override { return description_; }
  const std::string& compute_unit() const override { return plan_.unit; }

private:
  const Plan::Impl& plan_;
  std::vector<std::uint64_t> iterations_;
  std::string description_;
};

} // namespace

Plan Plan::make(const fs::path& traces, std::optional<int> ranks, const Settings& settings)
{
  auto impl = std::make_unique<Impl>();
  impl->find_loops(traces, ranks, settings);
  if (impl->refusal.empty())
    impl->hold(traces, ranks, settings);
  return Plan(std::move(impl));
}

Plan::Plan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

const std::vector<Loop>& Plan::loops() const { return impl_->loops; }
const std::string& Plan::refusal() const { return impl_->refusal; }
const std::vector<std::string>& Plan::notes() const { return impl_->notes; }
int Plan::rank_count() const { return static_cast<int>(impl_->ranks.size()); }
std::uint64_t Plan::actions() const { return impl_->actions; }

std::uint64_t Plan::actions_of_cut(const std::vector<std::uint64_t>& iterations) const
{
  std::uint64_t n = 0;
  for (std::size_t r = 0; r < impl_->ranks.size(); ++r) {
    const RankLines& rank = impl_->ranks[r];
    n += rank.lines.size();
    for (std::size_t j = 0; j < impl_->loops.size(); ++j) {
      const auto& starts = rank.iteration_start[j];
      n -= starts.back() - starts[iterations[j] + impl_->loops[j].extra[r]];
    }
  }
  return n;
}

std::unique_ptr<trace::TraceSet> Plan::cut(const std::vector<std::uint64_t>& iterations) const
{
  if (iterations.size() != impl_->loops.size())
    throw std::logic_error("Plan::cut: one iteration count per loop");
  for (std::size_t j = 0; j < iterations.size(); ++j)
    if (iterations[j] > impl_->loops[j].kept)
      throw std::logic_error("Plan::cut: more iterations than the plan holds");
  return std::make_unique<CutSet>(*impl_, iterations);
}

} // namespace tit::fastforward

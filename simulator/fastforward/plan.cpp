#include "fastforward/plan.hpp"

#include "compressed/compressed.hpp"
#include "trace/kinds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <span>
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
  std::uint64_t collectives_before = 0; ///< the rank's collectives before the loop's first call
  std::uint64_t collectives = 0;        ///< collectives per iteration
};

/// Whether an action named `name` in `dialect` is a collective (blocking or not), as the trace's reader reads it.
bool collective(trace::Dialect dialect, std::string_view name)
{
  const auto* spec = trace::detail::find_action(dialect, name);
  if (spec == nullptr)
    return false;
  auto group = trace::traits(spec->kind).group;
  return group == trace::Group::Collective || group == trace::Group::NonBlockingCollective;
}

/// The structure of one folded rank: actions per body, bodies that cannot be cut, its top-level loops.
class Structure {
public:
  explicit Structure(const trace::cformat::Part& part)
      : part_(part), length_(part.bodies.size(), 0), collectives_(part.bodies.size(), -1),
        cuttable_(part.bodies.size(), -1)
  {
  }

  std::uint64_t collectives(std::uint32_t body)
  {
    if (collectives_[body] >= 0)
      return static_cast<std::uint64_t>(collectives_[body]);
    std::uint64_t n = 0;
    for (std::uint32_t id : part_.bodies[body]) {
      const auto& node = part_.nodes[id];
      n += node.loop ? node.count * collectives(node.ref) : is_collective(node) ? 1 : 0;
    }
    collectives_[body] = static_cast<std::int64_t>(n);
    return n;
  }

  std::uint64_t length(std::uint32_t body)
  {
    if (length_[body] != 0)
      return length_[body];
    std::uint64_t n = 0;
    for (std::uint32_t id : part_.bodies[body]) {
      const auto& node = part_.nodes[id];
      n += node.loop ? node.count * length(node.ref) : 1;
    }
    return length_[body] = n;
  }

  bool cuttable(std::uint32_t body)
  {
    if (cuttable_[body] >= 0)
      return cuttable_[body] == 1;
    bool ok = true;
    for (std::uint32_t id : part_.bodies[body]) {
      const auto& node = part_.nodes[id];
      if (node.loop)
        ok = ok && cuttable(node.ref);
      else
        ok = ok && std::find(kNotInCutLoops.begin(), kNotInCutLoops.end(), part_.signatures[node.ref].name) ==
                       kNotInCutLoops.end();
    }
    cuttable_[body] = ok ? 1 : 0;
    return ok;
  }

  /// The loops of the rank's top level with at least `min_trip` iterations and a cuttable body; `total` its calls.
  std::vector<Candidate> candidates(std::uint64_t min_trip, std::uint64_t& total)
  {
    std::vector<Candidate> out;
    std::uint64_t at = 0, collectives_at = 0;
    for (std::uint32_t id : part_.bodies[part_.ranks.front().root]) {
      const auto& node = part_.nodes[id];
      if (not node.loop) {
        ++at;
        collectives_at += is_collective(node) ? 1 : 0;
        continue;
      }
      std::uint64_t body = length(node.ref);
      if (node.count >= min_trip && body > 0 && cuttable(node.ref))
        out.push_back({at, body, node.count, collectives_at, collectives(node.ref)});
      at += node.count * body;
      collectives_at += node.count * collectives(node.ref);
    }
    total = at;
    return out;
  }

private:
  /// Whether the action `node` is a collective.
  bool is_collective(const trace::cformat::Node& node) const
  {
    return collective(part_.ranks.front().dialect, part_.signatures[node.ref].name);
  }

  const trace::cformat::Part& part_;
  std::vector<std::uint64_t> length_;
  std::vector<std::int64_t> collectives_;
  std::vector<int> cuttable_;
};

/// Folds the runs of one block longer than the folder's window (kFoldWindow items), repeated 3 times or more, at the
/// top level of the rank's sequence into loops: an iteration of a rank with many neighbours (a 3-D stencil's 26: 78
/// calls) stays a flat run of equal blocks where a rank with fewer folds it, and the ranks' loops would differ. From
/// the start, each first repeat, going on after it; passes until nothing folds (inner repeats first, then the outer
/// ones they make periodic), as tit-trace extrapolate does. Blocks are compared by their items only (signatures and
/// loops): iterations that differ in sizes are told apart by the bytes each sends (fast_forward.cpp's fit).
void fold_long_iterations(trace::cformat::Part& part)
{
  std::vector<std::uint32_t> seq = part.bodies[part.ranks.front().root];
  trace::cformat::fold_long_repeats(seq, [&part](std::span<const std::uint32_t> block, std::size_t reps) {
    part.bodies.emplace_back(block.begin(), block.end());
    part.nodes.push_back({true, static_cast<std::uint32_t>(part.bodies.size() - 1), reps});
    return static_cast<std::uint32_t>(part.nodes.size() - 1);
  });
  part.bodies.push_back(std::move(seq));
  part.ranks.front().root = static_cast<std::uint32_t>(part.bodies.size() - 1);
}

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

/// One action of a rank read in full, before the rank's loops are known.
struct Item {
  bool call = false;
  double volume = 0; ///< a computation: its volume; a call: the bytes it sends
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
  std::vector<RankLines> ranks;
  std::uint64_t actions = 0;
  bool own_rank_count = true;
  std::string description;
  std::string unit;

  void read(const fs::path& traces, std::optional<int> ranks, const Settings& settings);

private:
  struct Volumes;
  /// Why rank r's loops cannot be cut along rank 0's (empty: they can); keeps in found[r] those matched with rank 0's.
  std::string refused(std::vector<std::vector<Candidate>>& found, std::size_t r, std::uint64_t min_trip,
                      const Settings& settings) const;
  /// Holds of rank r's actions (`all`) those a cut may keep; adds its volumes per iteration to `volumes`.
  void hold(std::size_t r, const RankLines& all, const std::vector<Item>& items,
            const std::vector<Candidate>& found, std::vector<Volumes>& volumes, const Settings& settings);
  /// The loops, from every rank's candidates and the volumes summed over the ranks.
  void make_loops(const std::vector<std::vector<Candidate>>& found, std::vector<Volumes>& volumes,
                  const Settings& settings);
};

namespace {

/// How many iterations of a loop of `trip` iterations a rank holds: those a cut may keep, and the peeled ones.
std::uint64_t held(std::uint64_t trip, const Settings& settings)
{
  std::uint64_t most = 3 * settings.first_k << settings.doublings;
  return std::min(trip, std::max(3 * settings.first_k, std::min(trip / 2, most)) + kPeeledIterations);
}

std::string trips_text(const std::vector<Candidate>& found)
{
  std::vector<std::uint64_t> t;
  for (auto const& c : found)
    t.push_back(c.trip);
  return t.empty() ? std::string("none") : fmt::format("{}", fmt::join(t, ", "));
}

} // namespace

/// Per loop (by its rank in the ranks' top-level loops) and iteration, summed over the ranks read so far.
struct Plan::Impl::Volumes {
  std::vector<double> work, peak, bytes;
  std::string where;
};

namespace {

/// Reads every action of one rank into `all` (its lines) and `items`, its MPI calls folded by `folder`.
void read_rank(trace::RankReader& reader, RankLines& all, std::vector<Item>& items,
               trace::cformat::RankCompressor& folder)
{
  Action a;
  while (reader.next(a)) {
    if (items.empty()) {
      all.file = reader.file();
      all.dialect = a.dialect;
    }
    all.lines.push_back({all.text.size(), static_cast<std::uint32_t>(a.text.size()), a.line});
    all.text += a.text;
    bool call = not local(a);
    items.push_back({call, call ? bytes_sent(a) : a.kind == trace::Kind::Compute ? a.amount : 0.0});
    if (call && a.dialect == trace::Dialect::SimGrid)
      folder.add_line(a.text); // with its shortcut for lines seen before (most of a loop's)
    else if (call)
      folder.add(a);
  }
  all.actions = items.size();
}

} // namespace

// Each rank is read once: its actions held in full while its MPI calls are folded into loops (as `tit-trace
// compress` folds them), then only the iterations a cut may keep are held on.
void Plan::Impl::read(const fs::path& traces, std::optional<int> rank_hint, const Settings& settings)
{
  auto set = trace::TraceSet::open(traces, rank_hint);
  own_rank_count = set->has_own_rank_count();
  description = set->describe();
  unit = set->compute_unit();
  std::size_t n = static_cast<std::size_t>(set->rank_count());
  std::uint64_t min_trip = 6 * settings.first_k; // cutting to 3k iterations leaves at most half of them
  ranks.resize(n);
  std::vector<std::vector<Candidate>> found(n);
  std::vector<Volumes> volumes;
  std::size_t step = std::max<std::size_t>(1, n / 10);
  for (std::size_t r = 0; r < n; ++r) {
    if (settings.progress && r % step == 0 && (r > 0 || n >= 64))
      settings.progress(fmt::format("fast-forward: reading rank {} of {}", r, n));
    RankLines all; // every action of the rank
    std::vector<Item> items;
    trace::cformat::RankCompressor folder(static_cast<int>(r), static_cast<int>(n), trace::ValueMode{});
    read_rank(*set->reader(static_cast<int>(r)), all, items, folder);
    auto part = folder.finish();
    fold_long_iterations(part);
    found[r] = Structure(part).candidates(min_trip, all.calls);
    refusal = refused(found, r, min_trip, settings);
    if (not refusal.empty())
      return;
    volumes.resize(found[r].size());
    hold(r, all, items, found[r], volumes, settings);
  }
  make_loops(found, volumes, settings);
}

std::string Plan::Impl::refused(std::vector<std::vector<Candidate>>& found, std::size_t r,
                                std::uint64_t min_trip, const Settings& settings) const
{
  if (found[0].empty())
    return fmt::format("no loop of rank 0 runs {} times or more at the top level of its MPI calls without starting "
                       "or ending the run or making communicators",
                       min_trip);
  // Ranks fold the same loop from different starting points (a rank that only sends folds `compute send` where its
  // neighbour folds `recv compute send`): a loop may have an iteration or two more on some ranks, peeled off on the
  // others. Every rank skipping the same number of iterations still skips the same messages. Each of rank 0's loops
  // is matched, in order, with one of rank r's that has as many iterations (give or take those), as many
  // collectives per iteration, and as many before it (give or take the peeled iterations'); rank r's other loops
  // are not cut (a rank with 26 neighbours has a loop of 26 receives where rank 0, with 7, has 7 receives).
  auto matches = [](const Candidate& a, const Candidate& b) {
    auto apart = [](std::uint64_t x, std::uint64_t y) { return std::max(x, y) - std::min(x, y); };
    return apart(a.trip, b.trip) <= kPeeledIterations && a.collectives == b.collectives &&
           apart(a.collectives_before, b.collectives_before) <= kPeeledIterations * a.collectives;
  };
  std::vector<Candidate> matched;
  std::size_t next = 0;
  for (const Candidate& loop : found[0]) {
    while (next < found[r].size() && not matches(loop, found[r][next]))
      ++next;
    if (next == found[r].size())
      return fmt::format("the ranks' loops differ: rank 0 has loops of {} iterations at the top level of its MPI "
                         "calls, rank {} of {} (a cut must skip the same iterations on every rank)",
                         trips_text(found[0]), r, trips_text(found[r]));
    matched.push_back(found[r][next++]);
  }
  found[r] = std::move(matched);
  if (found[r].size() > settings.max_loops)
    return fmt::format("rank 0 has {} loops of {} iterations or more at the top level of its MPI calls: more than "
                       "the {} a fast-forward cuts",
                       found[r].size(), min_trip, settings.max_loops);
  return {};
}

// The rank's held lines: every action outside its loops, the first iterations of each loop (an iteration's
// computations are the ones before each of its calls).
void Plan::Impl::hold(std::size_t r, const RankLines& all, const std::vector<Item>& items,
                      const std::vector<Candidate>& found, std::vector<Volumes>& volumes, const Settings& settings)
{
  RankLines& rl = ranks[r];
  rl.file = all.file;
  rl.dialect = all.dialect;
  rl.actions = all.actions;
  rl.calls = all.calls;
  rl.iteration_start.resize(found.size());
  std::uint64_t i = 0; // calls so far
  std::size_t j = 0;   // the loop call i is in or before
  std::size_t gap = 0; // index in rl.lines of the first computation since the last call
  double gap_work = 0;
  std::vector<std::vector<double>> mine(found.size()); // this rank's compute volume per iteration of each loop
  for (std::size_t l = 0; l < found.size(); ++l) {
    mine[l].assign(found[l].trip, 0.0);
    for (auto* v : {&volumes[l].work, &volumes[l].peak, &volumes[l].bytes})
      v->resize(std::max<std::size_t>(v->size(), found[l].trip), 0.0);
  }
  for (std::size_t at = 0; at < items.size(); ++at) {
    const Line& line = all.lines[at];
    auto hold_line = [&] {
      rl.lines.push_back({rl.text.size(), line.size, line.number});
      rl.text.append(all.text, line.offset, line.size);
    };
    if (rl.lines.size() == gap)
      gap_work = 0;
    if (not items[at].call) { // held with the gap; dropped with the call that ends it
      gap_work += items[at].volume;
      hold_line();
      continue;
    }
    while (j < found.size() && i >= found[j].first + found[j].trip * found[j].body) {
      rl.iteration_start[j].push_back(gap); // where the actions after the held iterations start
      ++j;
    }
    bool keep = true;
    if (j < found.size() && i >= found[j].first) {
      std::uint64_t offset = i - found[j].first;
      std::uint64_t iteration = offset / found[j].body;
      keep = iteration < held(found[j].trip, settings);
      if (offset % found[j].body == 0 && keep)
        rl.iteration_start[j].push_back(gap);
      if (offset == 0 && r == 0)
        volumes[j].where = fmt::format("{}:{}", all.file, line.number);
      mine[j][iteration] += gap_work;
      volumes[j].bytes[iteration] += items[at].volume;
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
  for (; j < found.size(); ++j) // a loop that ends with the rank's last call
    rl.iteration_start[j].push_back(gap);
  for (std::size_t l = 0; l < found.size(); ++l)
    for (std::size_t it = 0; it < mine[l].size(); ++it) {
      volumes[l].work[it] += mine[l][it];
      volumes[l].peak[it] = std::max(volumes[l].peak[it], mine[l][it]);
    }
  rl.text.shrink_to_fit();
  rl.lines.shrink_to_fit();
  actions += rl.actions;
}

void Plan::Impl::make_loops(const std::vector<std::vector<Candidate>>& found, std::vector<Volumes>& volumes,
                            const Settings& settings)
{
  std::uint64_t most = 3 * settings.first_k << settings.doublings;
  for (std::size_t l = 0; l < found[0].size(); ++l) {
    Loop loop;
    loop.trip = found[0][l].trip;
    for (auto const& rank : found)
      loop.trip = std::min(loop.trip, rank[l].trip);
    loop.kept = std::max(3 * settings.first_k, std::min(loop.trip / 2, most));
    for (std::size_t r = 0; r < found.size(); ++r) {
      loop.first.push_back(found[r][l].first);
      loop.body.push_back(found[r][l].body);
      loop.extra.push_back(found[r][l].trip - loop.trip);
      if (loop.kept + loop.extra.back() + 1 > ranks[r].iteration_start[l].size())
        throw std::logic_error("fast-forward: a rank holds fewer iterations than a cut keeps");
    }
    loop.where = volumes[l].where;
    loop.work = std::move(volumes[l].work);
    loop.peak = std::move(volumes[l].peak);
    loop.bytes = std::move(volumes[l].bytes);
    loops.push_back(std::move(loop));
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
  impl->read(traces, ranks, settings);
  return Plan(std::move(impl));
}

Plan::Plan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

const std::vector<Loop>& Plan::loops() const { return impl_->loops; }
const std::string& Plan::refusal() const { return impl_->refusal; }
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

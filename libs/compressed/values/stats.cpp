// The `stats` value mode of compressed traces (docs/compressed-format.md, "What it keeps"): the ranks of one structure
// share one distribution (a schedule of kStatsSlots draws) per value slot of each action of their structure, rank
// structures of one shape share one per compute or sleep slot at each place of their loops (BodyGroups), and each rank
// keeps its own level of compute and sleep volumes. pool_stats() rewrites the value blocks of every rank, folded with
// exact values and merged, into the blocks of a version 3 file.
#include "compressed/values/body_groups.hpp"
#include "compressed/values/builders.hpp"
#include "compressed/values/values.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace tit::trace::cformat {

namespace {

/// What a value slot of a signature holds.
struct SlotRole {
  bool volume = false; ///< a volume (volume_positions): drawn from a distribution
  bool local = false;  ///< a compute or sleep volume: drawn in the rank's order, at the rank's level
  bool gap = false;    ///< a compute volume: 0 stands for no compute (GapNormaliser)
};

std::vector<SlotRole> slot_roles(const Signature& s, Dialect dialect)
{
  std::vector<std::size_t> volumes;
  bool local = false;
  bool gap = false;
  if (const detail::ActionSpec* spec = detail::find_action(dialect, s.name)) {
    Action a;
    a.kind = spec->kind;
    a.dialect = dialect;
    volumes = volume_positions(a);
    local = a.kind == Kind::Compute || a.kind == Kind::Sleep;
    gap = a.kind == Kind::Compute;
  }
  std::vector<SlotRole> out;
  for (std::size_t i = 0; i < s.slots.size(); ++i)
    if (s.slots[i].kind == Slot::Kind::Value)
      out.push_back(SlotRole{std::find(volumes.begin(), volumes.end(), i) != volumes.end(), local, gap});
  return out;
}

/// A rank's value streams read token by token in order, by (signature, value slot): read in place (memory follows the
/// block's bytes, not its decoded runs nor its values).
class RankTokens {
public:
  RankTokens(const std::string& block, const Meta& meta) : block_(block_in_place(block, meta, "(stats)", 0))
  {
    first_.assign(meta.signatures.size() + 1, 0);
    for (std::size_t s = 0; s < meta.signatures.size(); ++s) {
      std::size_t values = 0;
      for (const Slot& slot : meta.signatures[s].slots)
        values += slot.kind == Slot::Kind::Value ? 1 : 0;
      first_[s + 1] = first_[s] + values;
    }
    cursors_.assign(first_.back(), InPlaceCursor{});
    tokens_.resize(first_.back());
    for (std::size_t i = 0; i < block_.streams.size(); ++i)
      cursors_[first_[block_.streams[i].signature] + block_.streams[i].slot].start(block_, i);
  }

  /// The next token of the stream; valid until the next call for the same (signature, slot).
  const std::string& next(std::uint32_t signature, std::uint32_t slot)
  {
    std::size_t i = first_[signature] + slot;
    InPlaceCursor& c = cursors_[i];
    if (c.block == nullptr || c.ended())
      throw std::logic_error(fmt::format("pool_stats: value stream of signature {} slot {} ended", signature, slot));
    if (c.text == nullptr)
      tokens_[i] = fmt::format_int(c.value).str();
    else
      tokens_[i] = *c.text; // the cursor's token changes with its run
    c.advance();
    return tokens_[i];
  }

private:
  BlockInPlace block_;
  std::vector<std::size_t> first_;
  std::vector<InPlaceCursor> cursors_;
  std::vector<std::string> tokens_; // per stream, its last token
};

/// A rank's values of a site, in its order, its zeros as bits: a gap where the rank computed now and then (a compute
/// site, 0 where the gap held none) takes a bit per occurrence and 8 bytes per computation, rather than 8 bytes per
/// occurrence (the tracer's 2-rank halo of 1,000,000 steps held such gaps of a million values each). Read in order only.
class Volumes {
public:
  /// Reads the values in order (the pooling's loops), each step a bit test.
  class Iterator {
  public:
    Iterator(const Volumes& v, std::size_t j) : v_(&v), j_(j) {}
    double operator*() const { return set() ? v_->nonzero_[k_] : 0; }
    Iterator& operator++()
    {
      k_ += set() ? 1 : 0;
      ++j_;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return j_ != o.j_; }

  private:
    bool set() const { return (v_->words_[j_ / 64] >> (j_ % 64) & 1) != 0; }
    const Volumes* v_;
    std::size_t j_;
    std::size_t k_ = 0; // the nonzero values before j_
  };

  void push_back(double v)
  {
    if (size_ % 64 == 0)
      words_.push_back(0);
    if (v != 0) {
      words_.back() |= std::uint64_t{1} << (size_ % 64);
      nonzero_.push_back(v);
    }
    ++size_;
  }
  void assign(std::size_t n, double v)
  {
    *this = Volumes();
    for (std::size_t j = 0; j < n; ++j)
      push_back(v);
  }
  std::size_t size() const { return size_; }
  Iterator begin() const { return {*this, 0}; }
  Iterator end() const { return {*this, size_}; }

private:
  std::vector<std::uint64_t> words_; // bit j % 64 of word j / 64: value j is not 0
  std::vector<double> nonzero_;
  std::size_t size_ = 0;
};
using RankVolumes = std::map<std::size_t, Volumes>; // per rank (index in the part)

/// Calls visit(body, position, signature) for each action of body `body`'s depth-first walk.
template <typename Visit> void walk(const Part& p, std::uint32_t body, const Visit& visit)
{
  const std::vector<std::uint32_t>& ids = p.bodies[body];
  for (std::uint32_t pos = 0; pos < ids.size(); ++pos) {
    const Node& n = p.nodes[ids[pos]];
    if (n.loop) {
      for (std::uint64_t c = 0; c < n.count; ++c)
        walk(p, n.ref, visit);
    } else {
      visit(body, pos, n.ref);
    }
  }
}

/// Each rank's first n values of a site over their mean (n the fewest of any rank's, at most `most`; `n` receives it, 0
/// when a rank has none); ranks whose n values do not sum above 0 are left out.
std::vector<std::vector<double>> over_their_means(const RankVolumes& values,
                                                  std::size_t& n, std::size_t most = ~std::size_t{0})
{
  n = values.empty() ? 0 : most;
  for (const auto& [i, v] : values)
    n = std::min(n, v.size());
  std::vector<std::vector<double>> ranks;
  for (const auto& [i, v] : values) {
    double sum = 0;
    auto x = v.begin();
    for (std::size_t j = 0; j < n; ++j, ++x)
      sum += *x;
    if (!(sum > 0))
      continue;
    std::vector<double>& u = ranks.emplace_back(n);
    x = v.begin();
    for (std::size_t j = 0; j < n; ++j, ++x)
      u[j] = *x / sum * static_cast<double>(n);
  }
  return ranks;
}

/// Whether the ranks' volumes of a site rise and fall together (the same phases of a solver, a warm-up every rank goes
/// through, a computation every rank makes in the same iterations of a loop) rather than each rank's own noise: then
/// one order of draws shared by the ranks (Schedule::shared_order) keeps them together, where one order per rank would
/// draw a large volume on some rank at almost every step and, ranks that wait for each other waiting for it, predict
/// longer. Estimated on the first n occurrences (n the fewest of any rank's), each rank's values over their mean: with
/// V the ranks' mean variance and C the variance of their mean at each occurrence, two ranks' mean correlation is
/// (R C / V - 1) / (R - 1) for R ranks, and shared above 1/2 (nearer to 1 than to the 0 of one order per rank). The
/// occurrences of the largest kStatsSlots-th by their mean over the ranks are left out: a step slow on every rank
/// (such as the first, cold one) alone would make the rest, noise of each rank's own, look correlated (a warm-up at
/// the start is kept in order by the schedule's head: warm_up).
bool rise_and_fall_together(const RankVolumes& values)
{
  std::size_t n = 0;
  std::vector<std::vector<double>> ranks = over_their_means(values, n); // each rank's first n values over their mean
  if (values.size() < 2 || n < 2 * kStatsSlots)
    return false;
  if (ranks.size() < 2)
    return false;
  auto r = static_cast<double>(ranks.size());
  std::vector<double> at(n, 0); // the ranks' mean at each occurrence
  for (std::size_t j = 0; j < n; ++j)
    for (const std::vector<double>& u : ranks)
      at[j] += u[j] / r;
  // the largest kStatsSlots-th of the occurrences (by their mean over the ranks) left out
  std::vector<std::size_t> keep(n);
  for (std::size_t j = 0; j < n; ++j)
    keep[j] = j;
  std::stable_sort(keep.begin(), keep.end(), [&](std::size_t a, std::size_t b) { return at[a] < at[b]; });
  keep.resize(n - (n + kStatsSlots - 1) / kStatsSlots);
  auto k = static_cast<double>(keep.size());
  double within = 0; // the ranks' mean variance
  for (const std::vector<double>& u : ranks) {
    double m = 0, q = 0;
    for (std::size_t j : keep)
      m += u[j] / k;
    for (std::size_t j : keep)
      q += (u[j] - m) * (u[j] - m);
    within += q / k / r;
  }
  double m = 0, q = 0;
  for (std::size_t j : keep)
    m += at[j] / k;
  for (std::size_t j : keep)
    q += (at[j] - m) * (at[j] - m);
  double common = q / k;
  return within > 0 && (r * common / within - 1) / (r - 1) > 0.5;
}

/// A site's typical shape in time: at each of its first n occurrences (n the fewest of any rank's, at least
/// kStatsSlots; else none), the ranks' median of their value over their own mean of those n (a median, so that one
/// rank's slow occurrence is a rare value, not a shape every rank shares).
std::vector<double> typical(const RankVolumes& values)
{
  std::size_t n = 0;
  std::vector<std::vector<double>> ranks = over_their_means(values, n);
  if (n < kStatsSlots || ranks.empty())
    return {};
  std::vector<double> at(n, 0);
  std::vector<double> u; // at occurrence j, each rank's value over its mean (one buffer: a vector per occurrence took
                         // tens of bytes per occurrence where a rank's values take 8)
  for (std::size_t j = 0; j < n; ++j) {
    u.clear();
    for (const std::vector<double>& r : ranks)
      u.push_back(r[j]);
    std::size_t mid = u.size() / 2;
    std::nth_element(u.begin(), u.begin() + static_cast<std::ptrdiff_t>(mid), u.end());
    at[j] = u[mid];
    if (u.size() % 2 == 0)
      at[j] = (at[j] + *std::max_element(u.begin(), u.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
  }
  return at;
}

/// How many of a site's first occurrences are a warm-up every rank goes through (a first, cold step; a solver's first
/// iterations, slower and slower ones): the longest run of first occurrences, at most kStatsSlots and half of those
/// in `at` (typical()), each larger there than every later one. Drawn among the others in each rank's own order, such
/// values would land on different steps on different ranks: ranks that were slow together, and whose messages then
/// crossed a shared network together, would no longer be (SMPI's halo2d at 16 ranks: its messages took 6 % less
/// time, the prediction 3 % less). Kept in order at the start instead (Schedule::head), one value for every rank, at
/// the rank's level. 0: no warm-up.
std::size_t warm_up(const std::vector<double>& at)
{
  std::size_t n = at.size();
  std::vector<double> later(n + 1, 0); // later[j]: the largest of at[j..n)
  for (std::size_t j = n; j-- > 0;)
    later[j] = std::max(later[j + 1], at[j]);
  std::size_t head = 0;
  double least = n > 0 ? at[0] : 0;
  for (std::size_t h = 1; h <= std::min(kStatsSlots, n / 2); ++h) {
    least = std::min(least, at[h - 1]);
    if (least > later[h])
      head = h;
  }
  return head;
}

/// A site's rare values: those at least kRare times their rank's mean of the site's non-zero values, and kRare times
/// the typical value of their occurrence (`at`, typical(); 1 past its end), the kStatsSlots largest by the first
/// ratio at most, and at most `most`. The 16 groups of the draws average such a value with the many others of the
/// largest group, and drawn it would land on another occurrence; kept exact at its rank and occurrence instead
/// (Schedule::rare): one rank's slow iteration in a pipeline delays every rank after it (SMPI's wavefront at 64
/// ranks: one such iteration, 160 k flops against 6 k, is 6 % of the predicted time). Sorted by (rank, occurrence).
constexpr double kRare = 4;
std::vector<std::pair<std::size_t, std::size_t>> rare_values(const RankVolumes& values,
                                                             const std::vector<double>& at, std::size_t most)
{
  std::vector<std::tuple<double, std::size_t, std::size_t>> found; // ratio, rank, occurrence
  for (const auto& [i, v] : values) {
    double sum = 0;
    std::size_t nonzero = 0;
    for (double x : v) {
      sum += x;
      nonzero += x > 0 ? 1 : 0;
    }
    if (nonzero == 0)
      continue;
    double mean = sum / static_cast<double>(nonzero);
    auto x = v.begin();
    for (std::size_t j = 0; j < v.size(); ++j, ++x)
      if (*x >= kRare * mean * std::max(1.0, j < at.size() ? at[j] : 1.0))
        found.emplace_back(*x / mean, i, j);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
  found.resize(std::min({found.size(), kStatsSlots, most}));
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (const auto& [ratio, i, j] : found)
    out.emplace_back(i, j);
  std::sort(out.begin(), out.end());
  return out;
}

using SiteKey = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>; // body, position, value slot
/// A site values are pooled by: a compute or sleep volume by its body's group (BodyGroups; 1), any other volume by its
/// body (0), then the position and the value slot.
using PoolKey = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;

/// One value slot of one action of the structures (a site), over the ranks whose structure holds it.
struct SiteValues {
  bool usable = true;   ///< every value a positive number (or 0 for a compute: none in that gap)
  bool integers = true; ///< every value a canonical integer
  bool local = false;
  bool same = true;     ///< every value the same token (then the streams keep it, at no cost)
  std::string first;
  std::size_t count = 0;
  double sum = 0;
  bool gap = false;      ///< a compute volume, 0 where the gap had none
  bool periodic = false; ///< every rank's values repeat with a short period (exactly_periodic)
  bool drawn = false;    ///< drawn from a distribution (pool_stats)
  /// a gap that a test closes on some rank: a polling loop's computations, whose lengths follow the other ranks'
  /// progress, not a distribution (drawn, a long one lands where the traced loop polled briefly): kept as traced
  bool polled = false;
  /// per rank (index in the part), in its order; while `same`, only how many (`same_count`), and none once not
  /// `usable` (such sites are not drawn: memory for the values of the sites that may be drawn only)
  RankVolumes values;
  std::map<std::size_t, std::size_t> same_count;
  std::set<SiteKey> members; ///< the actions' value slots pooled into this site (site_of)
  std::map<std::size_t, SiteKey> member_of; ///< per rank, the member its first value came from
  /// some rank's values come from two members or more: its values' order is not the order of each member's draws
  /// (the reader counts the draws per member), so the site has no head and no rare values
  bool interleaved = false;
  std::size_t head = 0; ///< drawn: its first occurrences kept in order on every rank (warm_up)
  std::size_t phases = 0; ///< drawn: the number of phases its volumes differ by (phase_count), 0 for none
  /// drawn: its rare values, each (rank index in the part, occurrence): kept exact there (rare_values)
  std::vector<std::pair<std::size_t, std::size_t>> rare;
  bool drawable() const { return usable && !same && !periodic && !polled && count >= 2 * kStatsSlots; }
  /// A gap that never held a compute: a schedule of 0s, rather than zeros among the other computes' values in the
  /// rank's stream of `compute` volumes, where they would break its runs.
  bool empty_gap() const { return gap && same && first == "0"; }
  bool scheduled() const { return drawn || empty_gap(); }
};

/// The number of phases of a site whose volumes differ by phase: a loop body that a multigrid cycle's levels, say, run
/// in turn, P times per iteration of the loop around it, occurrence i being phase i % P on every rank. Pooled into one
/// distribution, such volumes were drawn at any phase (a coarse level's volume at a fine level's place: SMPI traces of
/// a multigrid V-cycle on a dragonfly +6.2 %). Estimated on each rank's first n values over their mean (n the fewest
/// of any rank's, at most what keeps the values looked at near kPhaseValues): for each P of 2 to kMaxPhases with at
/// least 3 values per phase on each rank, the share of the values' variance left within the phases (about 1 - P / N for
/// noise without phases, N the values); the smallest P whose share is within 0.02 of the least (a multiple of the
/// period explains as much), when that least share is at most kPhaseShare; else 0 (no phases).
constexpr std::size_t kPhaseValues = std::size_t{1} << 18;
constexpr double kPhaseShare = 0.25;
std::size_t phase_count(const RankVolumes& values)
{
  std::size_t n = 0;
  std::vector<std::vector<double>> ranks = over_their_means(
      values, n, std::max<std::size_t>(3 * kMaxPhases, kPhaseValues / std::max<std::size_t>(values.size(), 1)));
  if (n < 6 || ranks.empty())
    return 0;
  double total = 0; // each rank's values average 1: their spread about 1
  for (const std::vector<double>& v : ranks)
    for (std::size_t j = 0; j < n; ++j)
      total += (v[j] - 1) * (v[j] - 1);
  if (!(total > 0))
    return 0;
  std::vector<double> share(kMaxPhases + 1, 1);
  std::vector<double> sum(kMaxPhases);
  std::vector<std::size_t> count(kMaxPhases);
  for (std::size_t p = 2; p <= kMaxPhases && 3 * p <= n; ++p) {
    std::fill(sum.begin(), sum.end(), 0);
    std::fill(count.begin(), count.end(), 0);
    for (const std::vector<double>& v : ranks)
      for (std::size_t j = 0; j < n; ++j) {
        sum[j % p] += v[j];
        ++count[j % p];
      }
    double within = 0;
    for (const std::vector<double>& v : ranks)
      for (std::size_t j = 0; j < n; ++j) {
        double d = v[j] - sum[j % p] / static_cast<double>(count[j % p]);
        within += d * d;
      }
    share[p] = within / total;
  }
  double least = *std::min_element(share.begin() + 2, share.end());
  if (least > kPhaseShare)
    return 0;
  for (std::size_t p = 2; p <= kMaxPhases; ++p)
    if (share[p] <= least + 0.02)
      return p;
  return 0;
}

/// Whether `v` repeats with a period of at most kPeriod values, at least twice over (a trailing part of a period
/// allowed): the exact value streams then hold it in a repeat of that many runs, a size that does not grow with
/// the iterations, and in the order it was traced.
bool exactly_periodic(const Volumes& v)
{
  for (std::size_t p = 1; p <= kPeriod && 2 * p <= v.size(); ++p) {
    std::size_t i = p;
    auto earlier = v.begin(), x = v.begin(); // at i - p and at i
    for (std::size_t j = 0; j < p; ++j)
      ++x;
    while (i < v.size() && *x == *earlier) {
      ++i;
      ++x;
      ++earlier;
    }
    if (i == v.size())
      return true;
  }
  return false;
}

ValueRun draw_run(const std::string& token)
{
  ValueRun run;
  run.is_int = canonical_int(token, run.first);
  if (!run.is_int)
    run.text = token;
  return run;
}

} // namespace

namespace {

using Sites = std::map<PoolKey, SiteValues>;

/// What pool_stats works on: the part, its signatures' slot roles per dialect, its body groups, and the sites.
class Pooling {
public:
  Pooling(Part& all, bool draw) : all_(all), draw_(draw), groups_(all)
  {
    meta_.signatures = all.signatures;
    for (int d = 0; d < 2; ++d)
      for (const Signature& s : all.signatures) {
        roles_[d].push_back(slot_roles(s, static_cast<Dialect>(d)));
        const detail::ActionSpec* spec = detail::find_action(static_cast<Dialect>(d), s.name);
        tests_[d].push_back(spec != nullptr && is_test(spec->kind));
      }
  }

  void run()
  {
    gather();
    choose();
    std::vector<double> levels = rank_levels();
    all_.schedules.clear();
    for (auto& [k, site] : sites_)
      add_schedules(site, levels);
    std::sort(all_.schedules.begin(), all_.schedules.end(), [](const Schedule& a, const Schedule& b) {
      return std::tie(a.body, a.position, a.slot) < std::tie(b.body, b.position, b.slot);
    });
    keep_the_rest();
  }

private:
  /// The index of rank index `i`'s dialect in roles_ and tests_.
  std::size_t dialect_of(std::size_t i) const { return all_.ranks[i].dialect == Dialect::SimGrid ? 1 : 0; }
  const std::vector<std::vector<SlotRole>>& roles_of(std::size_t i) const { return roles_[dialect_of(i)]; }
  PoolKey site_of(const SlotRole& role, std::uint32_t body, std::uint32_t pos, std::uint32_t slot)
  {
    return role.local ? PoolKey{1, groups_.of(body), pos, slot} : PoolKey{0, body, pos, slot};
  }

  /// Every value of every volume slot of the structures, per rank, pooled by site (site_of).
  void gather()
  {
    for (std::size_t i = 0; i < all_.ranks.size(); ++i) {
      const auto& role = roles_of(i);
      const auto& tests = tests_[dialect_of(i)];
      RankTokens tokens(all_.blocks[all_.ranks[i].block], meta_);
      SiteValues* gap = nullptr; // the site of the compute volume just read: the gap the next action closes
      walk(all_, all_.ranks[i].root, [&](std::uint32_t body, std::uint32_t pos, std::uint32_t sig) {
        if (gap != nullptr && tests[sig])
          gap->polled = true;
        gap = nullptr;
        for (std::uint32_t j = 0; j < role[sig].size(); ++j) {
          const std::string& token = tokens.next(sig, j);
          if (!role[sig][j].volume)
            continue;
          SiteValues& site = sites_[site_of(role[sig][j], body, pos, j)];
          add_value(site, role[sig][j], i, SiteKey{body, pos, j}, token);
          if (role[sig][j].gap)
            gap = &site;
        }
      });
    }
  }

  /// The value `token` of rank index `i` at `member` of `site`.
  void add_value(SiteValues& site, const SlotRole& role, std::size_t i, const SiteKey& member, const std::string& token)
  {
    site.members.insert(member);
    auto [at, added] = site.member_of.try_emplace(i, member);
    site.interleaved = site.interleaved || (!added && at->second != member);
    if (site.count == 0) {
      site.first = token;
      site.local = role.local;
      site.gap = role.gap;
    }
    ++site.count;
    std::optional<double> v = detail::parse_double(token);
    std::int64_t n = 0;
    site.usable = site.usable && v && (*v > 0 || (role.gap && *v == 0));
    site.integers = site.integers && canonical_int(token, n);
    site.same = site.same && token == site.first;
    if (site.usable) {
      if (!draw_) {
        // nothing is drawn: the values would not be looked at
      } else if (site.same) {
        ++site.same_count[i];
      } else {
        if (!site.same_count.empty()) { // the first other value: the ranks' values so far were all `first`
          double first = detail::parse_double(site.first).value_or(0);
          for (const auto& [rank, count] : site.same_count)
            site.values[rank].assign(count, first);
          site.same_count.clear();
        }
        site.values[i].push_back(*v);
      }
      site.sum += *v;
    } else if (!site.values.empty() || !site.same_count.empty()) {
      site.values.clear();
      site.same_count.clear();
    }
  }

  /// Which sites are drawn, with how many phases, which head and which rare values. Sites whose values repeat exactly,
  /// with a short period, on every rank are kept as they are (a deterministic pattern, which draws would lose).
  void choose()
  {
    for (auto& [k, site] : sites_) {
      site.periodic = site.usable && !site.values.empty();
      for (const auto& [i, values] : site.values)
        site.periodic = site.periodic && exactly_periodic(values);
      site.drawn = draw_ && site.drawable();
      if (site.drawn && site.local && !site.interleaved)
        site.phases = phase_count(site.values);
      if (site.drawn && site.local && !site.interleaved && site.phases == 0) {
        // the head and the rare values, leaving at least 2 * kStatsSlots values to cut into the draws' 16 groups
        std::size_t spare = site.count - 2 * kStatsSlots;
        std::vector<double> at = typical(site.values);
        site.head = std::min(warm_up(at), spare / site.values.size());
        site.rare = rare_values(site.values, at, spare - site.head * site.values.size());
      }
    }
  }

  /// Each rank's level: its compute and sleep volumes over what the sites' means would give it (as written in its
  /// entry, and as read back).
  std::vector<double> rank_levels()
  {
    std::vector<double> total(all_.ranks.size(), 0), expected(all_.ranks.size(), 0);
    for (const auto& [k, site] : sites_)
      if (site.local && site.drawn)
        add_totals(site, total, expected);
    std::vector<double> levels(all_.ranks.size(), 1);
    for (std::size_t i = 0; i < all_.ranks.size(); ++i) {
      std::string level = expected[i] > 0 ? fmt::format("{:.4g}", total[i] / expected[i]) : "1";
      levels[i] = detail::parse_double(level).value_or(1);
      all_.ranks[i].level = level;
    }
    return levels;
  }

  /// A drawn local site's part of each rank's total and of what its mean would give the rank; the rare values kept
  /// exact are in neither the ranks' totals nor the site's mean.
  void add_totals(const SiteValues& site, std::vector<double>& total, std::vector<double>& expected) const
  {
    double rare_sum = 0;
    std::vector<std::size_t> rare_of(all_.ranks.size(), 0);
    auto next = site.rare.begin(); // sorted as the values are walked: by rank, then occurrence
    for (const auto& [i, values] : site.values) {
      auto x = values.begin();
      for (std::size_t j = 0; j < values.size(); ++j, ++x) {
        if (next != site.rare.end() && *next == std::pair<std::size_t, std::size_t>(i, j)) {
          rare_sum += *x;
          ++rare_of[i];
          ++next;
        } else {
          total[i] += *x;
        }
      }
    }
    for (const auto& [i, values] : site.values) {
      expected[i] += static_cast<double>(values.size() - rare_of[i]) * (site.sum - rare_sum) /
                     static_cast<double>(site.count - site.rare.size());
    }
  }

  /// The site's schedule, once per member (one per action's slot, the same draws): compute and sleep volumes divided
  /// by their rank's level, so that the ranks share the shape of the distribution and each keeps its level.
  void add_schedules(SiteValues& site, const std::vector<double>& levels)
  {
    Schedule s;
    if (site.empty_gap() && !site.drawn)
      s.draws.assign(kStatsSlots, draw_run("0"));
    else if (site.drawn)
      draw(site, levels, s);
    // the site's values are no longer needed (the kept values are read from the blocks again): freed site by site,
    // rather than every site's at the end (8 bytes a nonzero value of each site that may be drawn)
    RankVolumes().swap(site.values);
    if (!site.scheduled())
      return;
    for (const SiteKey& member : site.members) {
      std::tie(s.body, s.position, s.slot) = member;
      all_.schedules.push_back(s);
    }
  }

  /// A drawn site's draws, head, rare values or phases.
  void draw(const SiteValues& site, const std::vector<double>& levels, Schedule& s) const
  {
    std::size_t head = site.head;
    std::vector<double> pooled, first(head, 0); // first: the head, the ranks' mean over their level
    std::vector<std::size_t> leveled(head, 0);  // how many ranks' values each head value is the mean of
    if (site.phases == 0) // a phased site has no head, no rare values, and factors of 1 for draws (below)
      pool(site, levels, s, pooled, first, leveled);
    s.rank_order = site.local;
    s.shared_order = site.local && site.phases == 0 && rise_and_fall_together(site.values);
    if (site.phases > 0) {
      add_phases(site, levels, s);
      pooled.assign(2 * kStatsSlots, 1);
    }
    for (const std::string& token : stats_schedule(pooled, site.integers && site.phases == 0))
      s.draws.push_back(draw_run(token));
    if (head > 0 && std::find(leveled.begin(), leveled.end(), 0) == leveled.end()) {
      for (std::size_t j = 0; j < head; ++j)
        first[j] /= static_cast<double>(leveled[j]);
      for (const std::string& token : stats_schedule(first, site.integers)) // fewer than 2 * kStatsSlots: as they are
        s.head.push_back(draw_run(token));
    }
  }

  /// The values of a site without phases, each over its rank's level: the rare ones kept as traced (s.rare), the
  /// head's summed per occurrence (first, leveled), the others pooled.
  void pool(const SiteValues& site, const std::vector<double>& levels, Schedule& s, std::vector<double>& pooled,
            std::vector<double>& first, std::vector<std::size_t>& leveled) const
  {
    pooled.reserve(site.count);
    auto next = site.rare.begin();
    for (const auto& [i, values] : site.values) {
      double level = site.local && levels[i] > 0 ? levels[i] : 1; // level 0: every value of the rank 0
      auto x = values.begin();
      for (std::size_t j = 0; j < values.size(); ++j, ++x) {
        if (next != site.rare.end() && *next == std::pair<std::size_t, std::size_t>(i, j)) {
          for (const std::string& token : stats_schedule({*x}, site.integers)) // as traced
            s.rare.push_back(RareValue{all_.ranks[i].rank, j, draw_run(token)});
          ++next;
        } else if (j >= site.head) {
          pooled.push_back(*x / level);
        } else if (levels[i] > 0) {
          ++leveled[j];
          first[j] += *x / level;
        }
      }
    }
  }

  /// Each phase's mean over the ranks (their values over their level); the draws, factors of those means, all 1: the
  /// noise about the phases is left out (drawn, in one order for every rank or in each rank's own, it predicted SMPI
  /// traces of a multigrid V-cycle 2.6 to 14.5 % slow, their noise rising and falling with the cycles on every rank:
  /// each rank's own values shuffled moved the plain prediction by -7 to +20 %; the means alone were within 1.4 %).
  void add_phases(const SiteValues& site, const std::vector<double>& levels, Schedule& s) const
  {
    std::vector<double> sum(site.phases, 0), count(site.phases, 0);
    for (const auto& [i, values] : site.values) {
      double level = levels[i] > 0 ? levels[i] : 1;
      auto x = values.begin();
      for (std::size_t j = 0; j < values.size(); ++j, ++x) {
        sum[j % site.phases] += *x / level;
        ++count[j % site.phases];
      }
    }
    for (std::size_t p = 0; p < site.phases; ++p)
      s.phases.push_back(draw_run(stats_schedule({count[p] > 0 ? sum[p] / count[p] : 0}, site.integers)[0]));
  }

  /// Each rank's block: the values that are not drawn; ranks with equal blocks share one.
  void keep_the_rest()
  {
    std::vector<std::string> blocks;
    std::map<std::string, std::uint32_t> block_ids;
    for (std::size_t i = 0; i < all_.ranks.size(); ++i) {
      const auto& role = roles_of(i);
      Part::RankPart& rank = all_.ranks[i];
      RankTokens tokens(all_.blocks[rank.block], meta_);
      ValueBlock kept;
      walk(all_, rank.root, [&](std::uint32_t body, std::uint32_t pos, std::uint32_t sig) {
        for (std::uint32_t j = 0; j < role[sig].size(); ++j) {
          const std::string& token = tokens.next(sig, j);
          auto it = role[sig][j].volume ? sites_.find(site_of(role[sig][j], body, pos, j)) : sites_.end();
          if (it == sites_.end() || !it->second.scheduled())
            kept.add(sig, j, token);
        }
      });
      std::string block = kept.encode();
      auto [it, added] = block_ids.try_emplace(std::move(block), static_cast<std::uint32_t>(blocks.size()));
      if (added)
        blocks.push_back(it->first);
      rank.block = it->second;
    }
    all_.blocks = std::move(blocks);
  }

  Part& all_;
  bool draw_;
  Meta meta_; ///< the part's signatures, for decode_streams
  std::vector<std::vector<SlotRole>> roles_[2]; ///< per dialect, per signature
  std::vector<bool> tests_[2];                  ///< per dialect, per signature: a test (is_test)
  BodyGroups groups_;
  Sites sites_;
};

} // namespace

void pool_stats(Part& all, bool draw)
{
  Pooling(all, draw).run();
}

} // namespace tit::trace::cformat

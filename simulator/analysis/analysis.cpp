#include "analysis/analysis.hpp"

#include "colls/collectives.hpp"

#include <algorithm>
#include <cassert>
#include <deque>
#include <tuple>
#include <unordered_map>

namespace tit::analysis {

using trace::Kind;

std::string_view pattern_name(Pattern p)
{
  switch (p) {
    case Pattern::LateSender: return "late_sender";
    case Pattern::LateReceiver: return "late_receiver";
    case Pattern::WaitAtNxN: return "wait_at_nxn";
    case Pattern::WaitAtBarrier: return "wait_at_barrier";
    case Pattern::LateBroadcast: return "late_broadcast";
    case Pattern::EarlyReduce: return "early_reduce";
    case Pattern::EarlyScan: return "early_scan";
    case Pattern::NonBlockingCollective: return "nonblocking_collective";
    default: return "none";
  }
}

namespace {

/// The pattern of a collective's flow (colls/collectives.hpp's row).
Pattern collective_pattern(Kind k)
{
  const colls::Collective* c = colls::collective_of(k);
  switch (c != nullptr ? c->flow : colls::Flow::AllToAll) {
    case colls::Flow::Barrier: return Pattern::WaitAtBarrier;
    case colls::Flow::OneToAll: return Pattern::LateBroadcast;
    case colls::Flow::AllToOne: return Pattern::EarlyReduce;
    case colls::Flow::Prefix: return Pattern::EarlyScan;
    case colls::Flow::AllToAll: return Pattern::WaitAtNxN;
  }
  return Pattern::WaitAtNxN;
}

/// The part of an activity that is not busy can be waited in.
double waitable(const Activity& a)
{
  return std::max(0.0, a.duration() - a.compute);
}

/// Sets `a` waiting for `cause`, who entered at `release`.
void wait_for(Activity& a, Pattern pattern, int cause, double release)
{
  if (release <= a.start)
    return;
  a.pattern = pattern;
  a.waiting = std::min(release - a.start, waitable(a));
  a.partner = cause;
  a.release = a.start + a.waiting;
}

/// Collective patterns, instance by instance: who entered when.
void collective_waits(Input& in)
{
  std::map<std::pair<int, std::int64_t>, std::vector<std::pair<int, std::uint32_t>>> instances;
  for (std::size_t r = 0; r < in.ranks.size(); ++r)
    for (std::uint32_t i = 0; i < in.ranks[r].size(); ++i) {
      auto const& a = in.ranks[r][i];
      if (a.collective < 0 || not trace::is_collective(a.kind))
        continue;
      instances[{a.comm, a.collective}].emplace_back(static_cast<int>(r), i);
    }
  for (auto& [instance, members] : instances) {
    if (members.size() < 2)
      continue;
    auto act = [&](const std::pair<int, std::uint32_t>& m) -> Activity& {
      return in.ranks[static_cast<std::size_t>(m.first)][m.second];
    };
    Kind kind = act(members.front()).kind;
    Pattern pattern = collective_pattern(kind);
    auto later = [&](const auto& x, const auto& y) { return act(x).start < act(y).start; };
    switch (pattern) {
      case Pattern::WaitAtNxN:
      case Pattern::WaitAtBarrier: {
        auto& last = *std::max_element(members.begin(), members.end(), later);
        for (auto& m : members)
          if (m.first != last.first)
            wait_for(act(m), pattern, last.first, act(last).start);
        break;
      }
      case Pattern::LateBroadcast: {
        int root = act(members.front()).root;
        auto it = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == root; });
        if (it == members.end())
          break;
        for (auto& m : members)
          if (m.first != root)
            wait_for(act(m), pattern, root, act(*it).start);
        break;
      }
      case Pattern::EarlyReduce: {
        int root = act(members.front()).root;
        auto it = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == root; });
        const std::pair<int, std::uint32_t>* first = nullptr;
        for (auto& m : members)
          if (m.first != root && (first == nullptr || act(m).start < act(*first).start))
            first = &m;
        if (it != members.end() && first != nullptr)
          wait_for(act(*it), pattern, first->first, act(*first).start);
        break;
      }
      case Pattern::EarlyScan: {
        std::sort(members.begin(), members.end());
        const std::pair<int, std::uint32_t>* last_lower = nullptr;
        for (auto& m : members) {
          if (last_lower != nullptr)
            wait_for(act(m), pattern, last_lower->first, act(*last_lower).start);
          if (last_lower == nullptr || act(m).start >= act(*last_lower).start)
            last_lower = &m;
        }
        break;
      }
      default:
        break;
    }
  }
}

void add(Breakdown& b, const Activity& a, const std::string& pattern)
{
  double busy = std::min(a.compute, a.duration());
  double waiting = std::clamp(a.waiting, 0.0, a.duration() - busy);
  b.busy += busy;
  b.waiting += waiting;
  b.communication += a.duration() - busy - waiting;
  if (waiting > 0)
    b.by_pattern[pattern] += waiting;
}

/// Index of the last activity of `acts` starting strictly before `t`, or -1.
std::ptrdiff_t last_starting_before(const std::vector<Activity>& acts, double t)
{
  auto it = std::lower_bound(acts.begin(), acts.end(), t, [](const Activity& a, double v) { return a.start < v; });
  return (it - acts.begin()) - 1;
}

void critical_path(const Input& in, Result& res)
{
  res.path_by_rank.assign(in.ranks.size(), 0.0);
  int r = -1;
  double t = -1;
  for (std::size_t q = 0; q < in.ranks.size(); ++q)
    if (not in.ranks[q].empty() && in.ranks[q].back().end >= t) {
      t = in.ranks[q].back().end;
      r = static_cast<int>(q);
    }
  if (r < 0)
    return;
  double top = t;
  double bottom = t;
  auto attribute = [&](int rank, const Activity& a, double from, double to) {
    if (to <= from)
      return;
    res.path_by_rank[static_cast<std::size_t>(rank)] += to - from;
    res.path_by_action[in.names[a.name]] += to - from;
    bottom = std::min(bottom, from);
  };
  std::ptrdiff_t i = last_starting_before(in.ranks[static_cast<std::size_t>(r)], t);
  while (i >= 0) {
    auto const& acts = in.ranks[static_cast<std::size_t>(r)];
    const Activity& a = acts[static_cast<std::size_t>(i)];
    double seg_end = std::min(t, a.end);
    if (a.waiting > 0 && a.partner >= 0 && a.partner != r && a.release > a.start && a.release < seg_end) {
      attribute(r, a, a.release, seg_end);
      r = a.partner;
      t = a.release;
      i = last_starting_before(in.ranks[static_cast<std::size_t>(r)], t);
      continue;
    }
    attribute(r, a, a.start, seg_end);
    t = a.start;
    --i;
  }
  res.path_length = top - bottom;
}

// ---- delay costs ----------------------------------------------------------------------------------------

/// The part of an activity that falls in a synchronisation interval, split into what can delay a partner.
struct Part {
  std::string key;        ///< activity class and its ordinal in the interval
  double amount = 0;
  int wait_state = -1;    ///< the wait state this part is (propagates its cost), or -1
  std::string cause;      ///< the activity name a cost is reported under
};

class DelayCosts {
public:
  DelayCosts(const Input& in, Result& res, DelayModel model) : in_(in), res_(res), model_(model)
  {
    collectives_.resize(in.ranks.size());
    for (std::size_t r = 0; r < in.ranks.size(); ++r)
      for (std::uint32_t i = 0; i < in.ranks[r].size(); ++i) {
        auto const& a = in.ranks[r][i];
        int rank = static_cast<int>(r);
        bool wait_state = a.waiting > 0 && a.partner >= 0 && a.partner != rank &&
                          static_cast<std::size_t>(a.partner) < in.ranks.size();
        if (wait_state) {
          ids_.emplace(key(rank, i), static_cast<int>(states_.size()));
          states_.push_back({rank, i});
        }
        if (a.collective >= 0 && trace::is_collective(a.kind)) {
          collectives_[r].push_back(i);
          instance_index_[{a.comm, a.collective, rank}] = i;
        }
      }
    for (auto const& m : in.messages)
      if (m.src != m.dst)
        messages_[pair_key(m.src, m.dst)].push_back(&m);
  }

  void run()
  {
    res_.cost_by_rank.assign(in_.ranks.size(), Cost{});
    std::size_t n = states_.size();
    std::vector<std::vector<Part>> delays(n);
    std::vector<int> indegree(n, 0);
    for (std::size_t w = 0; w < n; ++w) {
      delays[w] = delays_of(states_[w]);
      for (auto const& d : delays[w])
        if (d.wait_state >= 0)
          indegree[static_cast<std::size_t>(d.wait_state)]++;
    }
    std::vector<double> propagated(n, 0.0);
    std::deque<std::size_t> ready;
    for (std::size_t w = 0; w < n; ++w)
      if (indegree[w] == 0)
        ready.push_back(w);
    std::vector<bool> done(n, false);
    std::size_t processed = 0;
    auto process = [&](std::size_t w) {
      done[w] = true;
      processed++;
      distribute(w, delays[w], propagated);
      for (auto const& d : delays[w])
        if (d.wait_state >= 0 && --indegree[static_cast<std::size_t>(d.wait_state)] == 0)
          ready.push_back(static_cast<std::size_t>(d.wait_state));
    };
    while (processed < n) {
      if (ready.empty()) { // cannot happen on a causal timeline; never lose waiting time if it does
        for (std::size_t w = 0; w < n; ++w)
          if (not done[w]) {
            ready.push_back(w);
            break;
          }
      }
      std::size_t w = ready.front();
      ready.pop_front();
      if (not done[w])
        process(w);
    }
  }

private:
  struct State {
    int rank;
    std::uint32_t index;
  };
  static std::uint64_t key(int r, std::uint32_t i) { return (static_cast<std::uint64_t>(r) << 32) | i; }
  static std::uint64_t pair_key(int a, int b)
  {
    return key(std::min(a, b), static_cast<std::uint32_t>(std::max(a, b)));
  }

  /// The last synchronisation of ranks r and p before r's activity `i` and p's activity `j_end`: the indices
  /// of the activities that synchronised (-1, -1 for the start of the run).
  std::pair<std::ptrdiff_t, std::ptrdiff_t> previous_sync(int r, std::uint32_t i, int p, std::size_t j_end) const
  {
    std::ptrdiff_t sr = -1;
    std::ptrdiff_t sp = -1;
    if (auto it = messages_.find(pair_key(r, p)); it != messages_.end()) {
      for (auto m = it->second.rbegin(); m != it->second.rend(); ++m) {
        std::uint32_t on_r = (*m)->src == r ? (*m)->src_index : (*m)->dst_index;
        std::uint32_t on_p = (*m)->src == r ? (*m)->dst_index : (*m)->src_index;
        if (on_r < i && on_p < j_end) {
          sr = on_r;
          sp = on_p;
          break;
        }
      }
    }
    // The latest collective instance both joined, before both points (walking back from r's side).
    auto const& cr = collectives_[static_cast<std::size_t>(r)];
    auto k = std::lower_bound(cr.begin(), cr.end(), i) - cr.begin();
    while (k-- > 0) {
      auto idx = cr[static_cast<std::size_t>(k)];
      if (static_cast<std::ptrdiff_t>(idx) <= sr)
        break;
      auto const& a = in_.ranks[static_cast<std::size_t>(r)][idx];
      auto it = instance_index_.find({a.comm, a.collective, p});
      if (it != instance_index_.end() && it->second < j_end) {
        sr = idx;
        sp = it->second;
        break;
      }
    }
    return {sr, sp};
  }

  /// Splits the activities (from, to) of `rank` into parts, the last one cut at `cut`.
  std::vector<Part> parts(int rank, std::ptrdiff_t from, std::size_t to, double cut) const
  {
    std::vector<Part> out;
    std::map<std::string, int> ordinal;
    auto push = [&](std::string cls, double amount, int wait_state, std::string cause) {
      if (amount <= 0)
        return;
      int n = ordinal[cls]++;
      out.push_back({cls + "#" + std::to_string(n), amount, wait_state, std::move(cause)});
    };
    auto const& acts = in_.ranks[static_cast<std::size_t>(rank)];
    for (auto k = static_cast<std::size_t>(from + 1); k < to && k < acts.size(); ++k) {
      auto const& a = acts[k];
      double length = std::min(a.end, cut) - a.start;
      if (length <= 0)
        continue;
      std::string const& name = in_.names[a.name];
      double waiting = std::min(std::clamp(a.waiting, 0.0, a.duration()), length);
      double busy = std::clamp(length - (a.duration() - a.compute), 0.0, length - waiting);
      double comm = length - waiting - busy;
      bool computing = a.kind == Kind::Compute || a.kind == Kind::Sleep;
      if (computing) {
        push("compute", length, -1, name);
        continue;
      }
      if (waiting > 0) {
        auto id = ids_.find(key(rank, static_cast<std::uint32_t>(k)));
        push("wait", waiting, id == ids_.end() ? -1 : id->second, name);
      }
      push(name, comm, -1, name);
      push(name + ":compute", busy, -1, name);
    }
    return out;
  }

  /// The delays of the delayer of wait state `w`: its parts in the synchronisation interval, minus what the
  /// waiter spent in the same class of activity there.
  std::vector<Part> delays_of(const State& w) const
  {
    auto const& a = in_.ranks[static_cast<std::size_t>(w.rank)][w.index];
    int p = a.partner;
    auto const& pacts = in_.ranks[static_cast<std::size_t>(p)];
    auto j_end = static_cast<std::size_t>(last_starting_before(pacts, a.release) + 1);
    auto [sr, sp] = previous_sync(w.rank, w.index, p, j_end);
    auto mine = parts(w.rank, sr, w.index, a.start);
    std::map<std::string, double> spent;
    for (auto const& m : mine)
      spent[m.key] += m.amount;
    std::vector<Part> out;
    for (auto& d : parts(p, sp, j_end, a.release)) {
      double excess = d.amount - spent[d.key];
      if (excess > 0) {
        d.amount = excess;
        out.push_back(std::move(d));
      }
    }
    return out;
  }

  void charge(int rank, const std::string& cause, double amount, double short_fraction)
  {
    Cost c{amount * short_fraction, amount * (1 - short_fraction)};
    auto& by_rank = res_.cost_by_rank[static_cast<std::size_t>(rank)];
    by_rank.short_term += c.short_term;
    by_rank.long_term += c.long_term;
    auto& by_cause = res_.cost_by_cause[{rank, cause}];
    by_cause.short_term += c.short_term;
    by_cause.long_term += c.long_term;
    res_.total_cost += amount;
  }

  void distribute(std::size_t w, const std::vector<Part>& delays, std::vector<double>& propagated)
  {
    auto const& state = states_[w];
    auto const& a = in_.ranks[static_cast<std::size_t>(state.rank)][state.index];
    double own = a.waiting;
    double total = own + propagated[w];
    if (total <= 0)
      return;
    double short_fraction = own / total;
    double remaining = total;
    std::vector<const Part*> proportional;
    if (model_ == DelayModel::LocalFirst) {
      // The delayer's own wait states absorb the cost first, the latest first.
      for (auto d = delays.rbegin(); d != delays.rend() && remaining > 0; ++d)
        if (d->wait_state >= 0) {
          double take = std::min(remaining, d->amount);
          propagated[static_cast<std::size_t>(d->wait_state)] += take;
          remaining -= take;
        }
      for (auto const& d : delays)
        if (d.wait_state < 0)
          proportional.push_back(&d);
    } else {
      for (auto const& d : delays)
        proportional.push_back(&d);
    }
    double sum = 0;
    for (auto const* d : proportional)
      sum += d->amount;
    if (remaining <= 0)
      return;
    if (sum <= 0) { // nothing the delayer did explains it: the communication itself (latency, transfer)
      charge(a.partner, "communication", remaining, short_fraction);
      return;
    }
    for (auto const* d : proportional) {
      double share = remaining * d->amount / sum;
      if (d->wait_state >= 0)
        propagated[static_cast<std::size_t>(d->wait_state)] += share;
      else
        charge(a.partner, d->cause, share, short_fraction);
    }
  }

  const Input& in_;
  Result& res_;
  DelayModel model_;
  std::vector<State> states_;
  std::unordered_map<std::uint64_t, int> ids_;
  std::vector<std::vector<std::uint32_t>> collectives_;
  std::map<std::tuple<int, std::int64_t, int>, std::uint32_t> instance_index_; ///< (comm, position, rank) -> activity
  std::unordered_map<std::uint64_t, std::vector<const Message*>> messages_;
};

} // namespace

Result analyse(Input& in, DelayModel model)
{
  Result res;
  res.model = model;
  res.hosts = in.hosts;
  collective_waits(in);
  res.per_rank.resize(in.ranks.size());
  res.elapsed.assign(in.ranks.size(), 0.0);
  double first = in.end_time;
  for (std::size_t r = 0; r < in.ranks.size(); ++r) {
    auto const& acts = in.ranks[r];
    if (acts.empty())
      continue;
    res.elapsed[r] = acts.back().end - acts.front().start;
    first = std::min(first, acts.front().start);
    for (auto const& a : acts) {
      std::string pattern(pattern_name(a.pattern));
      add(res.per_rank[r], a, pattern);
      add(res.per_action[in.names[a.name]], a, pattern);
      add(res.total, a, pattern);
    }
  }
  res.simulated_time = in.simulated_time > 0 ? in.simulated_time : in.end_time - std::min(first, in.end_time);
  critical_path(in, res);
  DelayCosts(in, res, model).run();
  return res;
}

} // namespace tit::analysis

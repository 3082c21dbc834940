// The symbolic execution of a trace before its proxy is written (proxy_check.hpp): no time, only the order in
// which MPI lets each rank's calls complete.
#include "proxy_check.hpp"
#include "proxy_races.hpp"
#include "proxy_state.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <deque>
#include <map>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace tit::tracetool {

namespace {

using proxy_state::Comm;
using proxy_state::make_req;
using proxy_state::Needs;
using proxy_state::Posted;
using proxy_state::Rank;
using proxy_state::Req;
using trace::Action;
using trace::Kind;

constexpr std::uint32_t kNone = ~std::uint32_t{0};
/// Actions a rank runs before the next ready rank's turn (keeps the queues of unreceived messages short).
constexpr int kQuantum = 1024;

/// When a member of a collective may leave it: `Synchronising`, once every member arrived (what any MPI may do);
/// `DataDependency`, once the members whose data it receives arrived (what every MPI must wait for: a bcast's root
/// leaves at once, its other members wait for the root; a reduce's root waits for all, the others leave at once),
/// for collectives whose messages are below the detached threshold (larger ones are rendez-vous: synchronising).
enum class CollectiveRule : std::uint8_t { Synchronising, DataDependency };

/// Whose arrival member `member` of a `k` collective rooted at `root` needs under the data-dependency rule.
Needs needs_of(Kind k, int member, int root)
{
  switch (k) {
    case Kind::Bcast:
    case Kind::Scatter:
    case Kind::ScatterV:
      return member == root ? Needs::Nobody : Needs::Root;
    case Kind::Reduce:
    case Kind::Gather:
    case Kind::GatherV:
      return member == root ? Needs::All : Needs::Nobody;
    case Kind::Scan:
    case Kind::Exscan:
      return Needs::Lower;
    default:
      return Needs::All;
  }
}

class Execution {
public:
  /// forced: a receive from any source made to take another message than it would (exploring, check_trace)
  Execution(trace::TraceSet& set, const CheckOptions& o, CollectiveRule rule, const OtherMatch* forced)
      : set_(set), o_(o), rule_(rule), forced_(forced), races_(set.rank_count())
  {
    int n = set.rank_count();
    ranks_.resize(static_cast<std::size_t>(n));
    queued_.assign(static_cast<std::size_t>(n), true);
    for (int r = 0; r < n; ++r) {
      ranks_[static_cast<std::size_t>(r)].reader = set.reader(r);
      ready_.push_back(r);
    }
    Comm world;
    for (int r = 0; r < n; ++r)
      world.members.push_back(r);
    comms_.push_back(std::move(world));
  }

  const AnySourceRaces& races() const { return races_; }

  TraceFacts run(std::ostream& warnings)
  {
    while (!ready_.empty()) {
      int r = ready_.front();
      ready_.pop_front();
      queued_[static_cast<std::size_t>(r)] = false;
      advance(r);
    }
    std::string blocked;
    for (std::size_t r = 0; r < ranks_.size(); ++r)
      if (!ranks_[r].finished)
        blocked += "\n  " + describe_blocked(static_cast<int>(r));
    if (!blocked.empty())
      throw ProxyDeadlock(fmt::format("{}: error: the trace deadlocks: no rank can progress (messages of {} bytes or "
                                      "more are rendez-vous). Blocked ranks and their action:{}",
                                      set_.describe(), o_.detached_thresh, blocked));
    if (rule_ == CollectiveRule::DataDependency) // a collective some member never called: erroneous, not relaxed
      for (const Comm& c : comms_)
        if (!c.calls.empty())
          throw ProxyDeadlock("a collective is not called by every member of its communicator");
    warn_unreceived(warnings);
    warn_ambiguous(warnings);
    for (std::size_t r = 0; r < ranks_.size(); ++r)
      if (ranks_[r].unnamed > 0)
        fmt::print(warnings, "tit-trace: warning: rank {} waits or tests {} time(s) for a request it has not pending "
                             "(first at {}); the proxy does nothing there, as tit-replay\n",
                   r, ranks_[r].unnamed, ranks_[r].first_unnamed);
    TraceFacts facts;
    facts.actions = actions_;
    for (const Rank& k : ranks_) {
      facts.bsend_bytes = std::max(facts.bsend_bytes, k.bsend_bytes);
      facts.bsend_count = std::max(facts.bsend_count, k.bsend_count);
    }
    return facts;
  }

private:
  Rank& rank(int r) { return ranks_[static_cast<std::size_t>(r)]; }

  void wake(int r)
  {
    if (!queued_[static_cast<std::size_t>(r)] && !rank(r).finished) {
      queued_[static_cast<std::size_t>(r)] = true;
      ready_.push_back(r);
    }
  }

  /// Runs rank r until it blocks, ends, or has run a quantum (then it queues again).
  void advance(int r)
  {
    Rank& k = rank(r);
    for (int n = 0; n < kQuantum; ++n) {
      if (!k.has_action && !k.at_end) {
        if (k.reader->next(k.a)) {
          k.has_action = true;
          ++actions_;
        } else {
          k.at_end = true; // the proxy waits for every pending request after the trace's last action
          k.waits.clear();
          for (std::uint32_t q : k.pending)
            if (!reqs_[q].tested)
              k.waits.push_back(q);
          k.waits.insert(k.waits.end(), k.buffered.begin(), k.buffered.end());
          k.wait_any = false;
          k.temporary = false;
        }
      }
      if (k.has_action && !k.started) {
        start(r, k);
        k.started = true;
      }
      if (!satisfied(k))
        return;
      if (k.at_end) {
        for (std::uint32_t q : k.pending)
          release(q);
        for (std::uint32_t q : k.buffered)
          release(q);
        k.pending.clear();
        k.buffered.clear();
        k.finished = true;
        return;
      }
      finish(r, k);
      k.has_action = k.started = false;
      k.waits.clear();
    }
    wake(r);
  }

  bool complete(std::uint32_t q) const
  {
    const Req& x = reqs_[q];
    if (x.type != Req::Type::Coll)
      return x.complete;
    const Comm& c = comms_[x.comm];
    if (c.first > x.seq)
      return true; // every member arrived
    if (rule_ == CollectiveRule::Synchronising)
      return false;
    auto arrived = [&](int member) {
      auto n = c.next.find(c.members[static_cast<std::size_t>(member)]);
      return n != c.next.end() && n->second > x.seq;
    };
    switch (x.needs) {
      case Needs::Nobody:
        return true;
      case Needs::Root:
        return arrived(x.root);
      case Needs::Lower:
        for (int m = 0; m < x.member; ++m)
          if (!arrived(m))
            return false;
        return true;
      case Needs::All:
        return false;
    }
    return false;
  }
  bool satisfied(const Rank& k) const
  {
    if (k.waits.empty())
      return true;
    if (k.wait_any)
      return std::any_of(k.waits.begin(), k.waits.end(), [&](std::uint32_t q) { return complete(q); });
    return std::all_of(k.waits.begin(), k.waits.end(), [&](std::uint32_t q) { return complete(q); });
  }

  std::uint32_t new_req(Req x)
  {
    if (!free_.empty()) {
      std::uint32_t q = free_.back();
      free_.pop_back();
      reqs_[q] = x;
      return q;
    }
    reqs_.push_back(x);
    return static_cast<std::uint32_t>(reqs_.size() - 1);
  }
  void release(std::uint32_t q) { free_.push_back(q); }

  /// Rank r knows its receive q completed: it learns what the message's sender knew (proxy_races.hpp).
  void learn(int r, std::uint32_t q)
  {
    Req& x = reqs_[q];
    if (x.type != Req::Type::Recv || x.learned)
      return;
    x.learned = true;
    races_.learn(r, x.clock, x.wild);
  }

  std::uint32_t comm_of(int r, const Action& a, int handle)
  {
    auto h = rank(r).handles.find(handle);
    if (h == rank(r).handles.end())
      trace::detail::fail(a, fmt::format("communicator {} does not exist on rank {} here (not created, or freed)",
                                         handle, r));
    return h->second;
  }
  /// A message from r: matched with the first receive posted at dst that takes it, else kept in order.
  std::uint32_t post_send(int r, std::uint32_t comm, int dst, int tag, double bytes, bool detached, const Action& a)
  {
    std::uint32_t q = new_req(make_req(Req::Type::Send, r, dst, tag, comm, 0, bytes, detached));
    std::uint32_t knew = races_.known(r, dst);
    auto& posted = receives_[{comm, dst}];
    for (auto it = posted.begin(); it != posted.end(); ++it)
      if ((it->peer == r || it->peer == trace::kAnySource) && it->tag == tag) {
        Req& rq = reqs_[it->req];
        rq.complete = true;
        rq.clock = races_.clock(r);
        if (rq.wild != nullptr)
          rq.wild->src = r;
        races_.taken(comm, dst, tag, r, knew, it->post, a.file, a.line);
        wake(dst);
        posted.erase(it);
        reqs_[q].complete = true;
        return q;
      }
    Posted m;
    m.peer = r;
    m.tag = tag;
    m.req = detached ? kNone : q;
    m.known = knew;
    m.clock = races_.clock(r);
    m.file = a.file;
    m.line = a.line;
    messages_[{comm, dst}].push_back(std::move(m));
    return q;
  }
  /// A receive of r: matched with the earliest message it takes, else kept in order.
  std::uint32_t post_recv(int r, std::uint32_t comm, int src, int tag, const Action& a)
  {
    std::uint32_t q = new_req(make_req(Req::Type::Recv, src, r, tag, comm, 0, 0, false));
    std::uint64_t post = ++rank(r).receives;
    int match = src; // the sources it takes
    if (src == trace::kAnySource) {
      reqs_[q].wild = races_.posted(r, comm, tag, post, a.file, a.line);
      if (forced_ != nullptr && forced_->dst == r && forced_->post == post)
        match = forced_->src;
    }
    auto& sent = messages_[{comm, r}];
    for (auto it = sent.begin(); it != sent.end(); ++it)
      if ((match == trace::kAnySource || it->peer == match) && it->tag == tag) {
        if (it->req != kNone) {
          reqs_[it->req].complete = true;
          wake(it->peer);
        }
        Req& rq = reqs_[q];
        rq.clock = std::move(it->clock);
        if (rq.wild != nullptr)
          rq.wild->src = it->peer;
        races_.taken(comm, r, tag, it->peer, it->known, post, it->file, it->line);
        sent.erase(it);
        rq.complete = true;
        return q;
      }
    Posted p;
    p.peer = match;
    p.tag = tag;
    p.req = q;
    p.post = post;
    receives_[{comm, r}].push_back(std::move(p));
    return q;
  }

  /// Rank r arrives at its next collective on comm; returns its number there. Completing it wakes every member.
  std::uint64_t arrive(int r, std::uint32_t comm, const Action& a, std::string name, int root,
                       std::tuple<int, int, int, int> created = {}, bool creates = false, Kind kind = Kind::Barrier,
                       bool blocking = true)
  {
    Comm& c = comms_[comm];
    std::uint64_t seq = c.next[r]++;
    if (seq >= c.first + c.calls.size()) {
      Comm::Call call;
      call.name = std::move(name);
      call.root = root;
      call.rank = r;
      call.where = where(a);
      c.calls.push_back(std::move(call));
    } else {
      const Comm::Call& call = c.calls[seq - c.first];
      if (call.name != name || call.root != root)
        trace::detail::fail(a, fmt::format("ranks disagree on their collective number {} on {}: rank {} calls {} "
                                           "(root {}) at {}, rank {} calls {} (root {}) here",
                                           seq + 1, comm_name(comm), call.rank, call.name, call.root, call.where, r,
                                           name, root));
    }
    Comm::Call& call = c.calls[seq - c.first];
    if (creates)
      call.created.push_back(created);
    if (races_.active() && blocking)
      share_clocks(c, call, seq, r, kind, root);
    if (rule_ == CollectiveRule::DataDependency)
      for (int m : c.members) // who may leave depends on who arrived
        wake(m);
    if (++call.arrived == c.members.size()) {
      if (races_.active() && blocking && needs_of(kind, 0, 1) == Needs::All)
        for (int m : c.members) // every member receives from every other
          merge(races_.clock(m), call.merged);
      if (races_.active() && blocking && (kind == Kind::Reduce || kind == Kind::Gather || kind == Kind::GatherV))
        merge(races_.clock(c.members[static_cast<std::size_t>(root)]), call.merged);
      if (creates)
        create(comm, call);
      // members arrive in order, so the calls complete in order
      while (!c.calls.empty() && c.calls.front().arrived == c.members.size()) {
        c.calls.pop_front();
        ++c.first;
      }
      for (int m : c.members)
        wake(m);
    }
    return seq;
  }

  /// What a blocking collective tells its members, whatever the algorithm: every member learns the clocks of those
  /// whose data it receives (a bcast's or scatter's members the root's, below; the others when all arrived).
  /// Scans tell nothing here (fewer known receives: more reported ambiguities, never fewer).
  void share_clocks(Comm& c, Comm::Call& call, std::uint64_t seq, int r, Kind kind, int root)
  {
    Clock& mine = races_.clock(r);
    merge(call.merged, mine);
    if (kind != Kind::Bcast && kind != Kind::Scatter && kind != Kind::ScatterV)
      return;
    if (c.members[static_cast<std::size_t>(root)] == r) {
      call.root_clock = mine;
      call.root_arrived = true;
      for (int m : c.members) { // the members already there
        auto n = c.next.find(m);
        if (m != r && n != c.next.end() && n->second > seq)
          merge(races_.clock(m), call.root_clock);
      }
    } else if (call.root_arrived) {
      merge(mine, call.root_clock);
    }
  }

  /// The communicators a comm_split, comm_dup or comm_create makes: each color's members by key, then parent rank.
  void create(std::uint32_t parent, Comm::Call& call)
  {
    const std::vector<int>& pm = comms_[parent].members;
    auto parent_rank = [&](int world) { return static_cast<int>(std::find(pm.begin(), pm.end(), world) - pm.begin()); };
    std::map<int, std::vector<std::tuple<int, int, int, int>>> colors; // color -> (key, parent rank, world, handle)
    for (auto [world, color, key, handle] : call.created)
      if (color >= 0)
        colors[color].emplace_back(key, parent_rank(world), world, handle);
    for (auto& [color, members] : colors) {
      std::sort(members.begin(), members.end());
      Comm c;
      for (auto& m : members)
        c.members.push_back(std::get<2>(m));
      comms_.push_back(std::move(c));
      auto id = static_cast<std::uint32_t>(comms_.size() - 1);
      for (auto& m : members)
        rank(std::get<2>(m)).handles[std::get<3>(m)] = id;
    }
  }

  std::string comm_name(std::uint32_t comm) const
  {
    if (comm == 0)
      return "MPI_COMM_WORLD";
    return fmt::format("the communicator of world ranks {{{}}}", fmt::join(comms_[comm].members, ", "));
  }

  static std::string where(const Action& a)
  {
    return fmt::format("{}:{}: {}", a.file ? *a.file : std::string("<trace>"), a.line, a.text);
  }

  /// The request of rank k a wait or test line names: trace::named_request (tit-replay's rule, and the proxy
  /// runtime's tp_find) over k's requests in the proxy's order: posting order, those a test completed behind the
  /// others (the runtime looks among the pending ones first). k.pending.size() when none.
  std::size_t find(const Rank& k, const Action& a)
  {
    ordered_.clear();
    for (int tested = 0; tested < 2; ++tested)
      for (std::size_t i = 0; i < k.pending.size(); ++i)
        if (reqs_[k.pending[i]].tested == (tested == 1))
          ordered_.push_back(i);
    std::size_t at = trace::named_request(
        ordered_, trace::named_key(a), [&](std::size_t i) { return reqs_[k.pending[i]].key(); },
        [&](std::size_t i) { return reqs_[k.pending[i]].type == Req::Type::Coll; });
    return at == ordered_.size() ? k.pending.size() : ordered_[at];
  }

  void start(int r, Rank& k)
  {
    const Action& a = k.a;
    k.wait_any = false;
    k.temporary = true;
    auto const& t = trace::traits(a.kind);
    switch (t.group) {
      case trace::Group::Message: {
        std::uint32_t q = t.sends ? start_send(r, k, t) : post_recv(r, comm_of(r, a, a.comm), a.partner, a.tag, a);
        reqs_[q].handle = a.comm;
        if (t.nonblocking)
          k.pending.push_back(q);
        else
          k.waits.assign(1, q);
        break;
      }
      case trace::Group::SendRecv: {
        std::uint32_t comm = comm_of(r, a, a.comm);
        k.waits = {post_send(r, comm, a.partner, 0, a.bytes, a.bytes < o_.detached_thresh, a),
                   post_recv(r, comm, a.partner2, 0, a)};
        break;
      }
      case trace::Group::Completion:
        start_completion(r, k);
        break;
      case trace::Group::Communicator:
        if (a.kind == Kind::CommFree) {
          comm_of(r, a, a.comm);
          k.handles.erase(a.comm);
        } else {
          start_comm_creation(r, k);
        }
        break;
      case trace::Group::Persistent:
        trace::detail::fail(a, "SimGrid's Start and Startall lines name too little to know the request they start "
                               "(tit-replay refuses them too); our tracer writes each MPI_Start as the call it starts");
      case trace::Group::Collective:
      case trace::Group::NonBlockingCollective:
        start_collective(r, k);
        break;
      case trace::Group::Lifecycle:
      case trace::Group::Local:
        break; // compute, sleep, init, finalize, comm_size, location: complete at once
    }
  }

  /// A send, ssend, bsend or their nonblocking forms: posts its request and returns it.
  std::uint32_t start_send(int r, Rank& k, const trace::KindTraits& t)
  {
    const Action& a = k.a;
    bool buffered = t.mode == trace::SendMode::Buffered;
    bool sync = t.mode == trace::SendMode::Synchronous;
    if (buffered) {
      k.bsend_bytes += a.bytes;
      ++k.bsend_count;
    }
    bool detached = buffered || (!sync && a.bytes < o_.detached_thresh);
    std::uint32_t q = post_send(r, comm_of(r, a, a.comm), a.partner, a.tag, a.bytes,
                                buffered ? a.bytes < o_.detached_thresh : detached, a);
    if (buffered && a.bytes >= o_.detached_thresh) { // its request completes at once; the detach waits
      k.buffered.push_back(q);
      q = new_req(make_req(Req::Type::Send, r, a.partner, a.tag, 0, 0, a.bytes, true));
    }
    return q;
  }

  /// wait, test, waitall, waitany, testany, testall, testsome.
  void start_completion(int r, Rank& k)
  {
    const Action& a = k.a;
    switch (a.kind) {
      case Kind::Wait:
      case Kind::Test: {
        std::size_t i = find(k, a);
        k.temporary = false;
        if (i == k.pending.size()) { // nothing to wait for, as in tit-replay and the proxy: warned
          if (k.unnamed++ == 0)
            k.first_unnamed = where(a);
          break;
        }
        if (a.kind == Kind::Wait) {
          k.waits.assign(1, k.pending[i]);
        } else if (complete(k.pending[i])) {
          reqs_[k.pending[i]].tested = true;
          learn(r, k.pending[i]);
        }
        break;
      }
      case Kind::WaitAll:
        k.temporary = false;
        for (std::uint32_t q : k.pending)
          if (!reqs_[q].tested)
            k.waits.push_back(q);
        break;
      case Kind::WaitAny: { // the most recent COUNT untested requests, as the proxy's array
        k.temporary = false;
        k.wait_any = true;
        std::size_t count = a.args.empty() ? 0 : static_cast<std::size_t>(trace::detail::parse_int(a.args[0]).value_or(0));
        for (auto it = k.pending.rbegin(); it != k.pending.rend() && k.waits.size() < count; ++it)
          if (!reqs_[*it].tested)
            k.waits.push_back(*it);
        std::reverse(k.waits.begin(), k.waits.end());
        break;
      }
      default: { // testall, testany, testsome
        std::vector<std::uint32_t> open;
        for (std::uint32_t q : k.pending)
          if (!reqs_[q].tested)
            open.push_back(q);
        bool all = std::all_of(open.begin(), open.end(), [&](std::uint32_t q) { return complete(q); });
        for (std::uint32_t q : open)
          if (complete(q) && (a.kind != Kind::TestAll || all)) {
            reqs_[q].tested = true;
            learn(r, q);
            if (a.kind == Kind::TestAny)
              break;
          }
        break;
      }
    }
  }

  /// comm_split, comm_dup, comm_create: a collective over the parent that makes the new communicator.
  void start_comm_creation(int r, Rank& k)
  {
    const Action& a = k.a;
    if (a.kind != Kind::CommCreate && !a.comm_args)
      return; // SimGrid's lines carry no arguments: no effect (as in tit-replay and the proxy)
    std::uint32_t parent = comm_of(r, a, a.comm);
    int color = a.kind == Kind::CommSplit ? a.color : 0, key = a.kind == Kind::CommSplit ? a.key : 0;
    if (a.kind == Kind::CommCreate) {
      const auto& pm = comms_[parent].members;
      int me = static_cast<int>(std::find(pm.begin(), pm.end(), r) - pm.begin());
      auto at = std::find(a.group.begin(), a.group.end(), me);
      color = at == a.group.end() ? -1 : 0;
      key = static_cast<int>(at - a.group.begin());
    }
    std::uint64_t seq = arrive(r, parent, a, std::string(a.name), 0, {r, color, key, a.new_comm}, true);
    k.waits.assign(1, new_req(make_req(Req::Type::Coll, 0, 0, 0, parent, seq, 0, false)));
  }

  /// A blocking or nonblocking collective.
  void start_collective(int r, Rank& k)
  {
    const Action& a = k.a;
    bool nb = a.kind == Kind::NonBlockingCollective;
    Kind c = nb ? a.blocking : a.kind;
    std::uint32_t comm = comm_of(r, a, a.comm);
    std::size_t n = comms_[comm].members.size(); // count vectors: one entry per member (as tit-replay checks)
    for (const auto* counts : {&a.send_counts, &a.recv_counts})
      if (!counts->empty() && counts->size() != n)
        trace::detail::fail(a, fmt::format("{} counts for a communicator of {} ranks (communicator {} of this "
                                           "rank)", counts->size(), n, a.comm));
    std::string name = std::string(trace::kind_name(c));
    int root = trace::is_rooted(c) ? a.root : 0;
    std::uint64_t seq = arrive(r, comm, a, nb ? "i" + name : name, root, {}, false, c, !nb);
    std::uint32_t q = new_req(make_req(Req::Type::Coll, trace::kAnySource, trace::kAnySource, -1, comm, seq, 0, false));
    const auto& members = comms_[comm].members;
    Req& x = reqs_[q];
    x.member = static_cast<int>(std::find(members.begin(), members.end(), r) - members.begin());
    x.root = root;
    x.handle = a.comm;
    // a member leaves early only if its messages go at once: below the threshold
    double largest = std::max(a.bytes, a.bytes2);
    for (const auto* counts : {&a.send_counts, &a.recv_counts})
      for (double b : *counts)
        largest = std::max(largest, b);
    x.needs = largest < o_.detached_thresh ? needs_of(c, x.member, root) : Needs::All;
    if (nb)
      k.pending.push_back(q);
    else
      k.waits.assign(1, q);
  }

  /// The current action's wait is satisfied: forget what it completed.
  void finish(int r, Rank& k)
  {
    const Action& a = k.a;
    if (k.temporary) {
      for (std::uint32_t q : k.waits) {
        learn(r, q);
        release(q);
      }
      return;
    }
    auto drop = [&](std::uint32_t q) {
      learn(r, q);
      k.pending.erase(std::find(k.pending.begin(), k.pending.end(), q));
      release(q);
    };
    if (a.kind == Kind::Wait && !k.waits.empty()) {
      drop(k.waits.front());
    } else if (a.kind == Kind::WaitAll) {
      for (std::uint32_t q : k.pending) {
        learn(r, q);
        release(q);
      }
      k.pending.clear();
    } else if (a.kind == Kind::WaitAny && !k.waits.empty()) {
      drop(*std::find_if(k.waits.begin(), k.waits.end(), [&](std::uint32_t q) { return complete(q); }));
    }
  }

  std::string waits_for(std::uint32_t q) const
  {
    const Req& x = reqs_[q];
    switch (x.type) {
      case Req::Type::Send:
        return fmt::format("rank {} to receive its message of {} bytes with tag {} on {}", x.dst, x.bytes, x.tag,
                           comm_name(x.comm));
      case Req::Type::Recv:
        return x.src == trace::kAnySource
                   ? fmt::format("a message from any source with tag {} on {}", x.tag, comm_name(x.comm))
                   : fmt::format("a message from rank {} with tag {} on {}", x.src, x.tag, comm_name(x.comm));
      case Req::Type::Coll: {
        const Comm& c = comms_[x.comm];
        std::vector<std::string> missing;
        for (int m : c.members) {
          auto n = c.next.find(m);
          if (n == c.next.end() || n->second <= x.seq)
            missing.push_back(ranks_[static_cast<std::size_t>(m)].finished
                                  ? fmt::format("{} (ended its trace)", m)
                                  : std::to_string(m));
        }
        return fmt::format("collective number {} on {}, which rank(s) {} have not reached", x.seq + 1,
                           comm_name(x.comm), fmt::join(missing, ", "));
      }
    }
    return {};
  }

  std::string describe_blocked(int r) const
  {
    const Rank& k = ranks_[static_cast<std::size_t>(r)];
    std::vector<std::string> what;
    for (std::uint32_t q : k.waits)
      if (!complete(q))
        what.push_back(waits_for(q));
    std::string in = k.at_end ? fmt::format("the end of its trace ({}), waiting for its pending requests",
                                            k.reader->file())
                              : where(k.a);
    return fmt::format("rank {} blocked in {}\n    waits for {}", r, in, fmt::join(what, k.wait_any ? "\n    or " : "\n    and "));
  }

  void warn_unreceived(std::ostream& warnings) const
  {
    std::map<std::tuple<std::uint32_t, int, int, int>, int> left; // (comm, src, dst, tag) -> messages
    for (const auto& [key, sent] : messages_)
      for (const Posted& m : sent)
        ++left[{key.first, m.peer, key.second, m.tag}];
    for (const auto& [key, n] : left) {
      auto [comm, src, dst, tag] = key;
      fmt::print(warnings, "tit-trace: warning: rank {} sends {} message(s) with tag {} to rank {} that it never "
                           "receives{}\n", src, n, tag, dst, comm == 0 ? "" : " (on " + comm_name(comm) + ")");
    }
  }

  /// Messages never received could have been taken by an earlier receive from any source too.
  void warn_ambiguous(std::ostream& warnings)
  {
    for (const auto& [key, sent] : messages_)
      for (const Posted& m : sent)
        races_.taken(key.first, key.second, m.tag, m.peer, m.known, ~std::uint64_t{0}, m.file, m.line);
    races_.report(warnings, [&](std::uint32_t comm) { return comm_name(comm); });
  }

  trace::TraceSet& set_;
  const CheckOptions& o_;
  CollectiveRule rule_;
  const OtherMatch* forced_;
  AnySourceRaces races_;
  std::vector<Rank> ranks_;
  std::deque<int> ready_;
  std::vector<bool> queued_;
  std::deque<Comm> comms_; ///< a deque: creating one keeps references to the others valid
  std::vector<Req> reqs_;
  std::vector<std::uint32_t> free_;
  std::vector<std::size_t> ordered_; ///< find(): the rank's requests in the proxy's order (reused)
  std::map<std::pair<std::uint32_t, int>, std::deque<Posted>> messages_; ///< (comm, dst): unreceived messages
  std::map<std::pair<std::uint32_t, int>, std::deque<Posted>> receives_; ///< (comm, dst): unmatched receives
  std::uint64_t actions_ = 0;
};

} // namespace

namespace {

/// One symbolic execution, with synchronising collectives and, if that deadlocks, with relaxed ones (see below);
/// `others` receives the other matches its receives from any source could take.
TraceFacts check_rules(const std::filesystem::path& traces, const CheckOptions& options, const OtherMatch* forced,
                       std::ostream& warnings, std::vector<OtherMatch>* others)
{
  auto run = [&](CollectiveRule rule, std::ostream& out) {
    std::unique_ptr<trace::TraceSet> set = trace::TraceSet::open(traces, std::nullopt);
    Execution e(*set, options, rule, forced);
    TraceFacts facts = e.run(out);
    if (others != nullptr)
      *others = e.races().others();
    return facts;
  };
  try {
    return run(CollectiveRule::Synchronising, warnings);
  } catch (const ProxyDeadlock& synchronising) {
    // whether the trace completes when each member waits only for the members whose data it receives
    std::ostringstream relaxed;
    TraceFacts facts;
    try {
      facts = run(CollectiveRule::DataDependency, relaxed);
    } catch (const ProxyDeadlock&) {
      throw synchronising; // it deadlocks whatever the collectives' algorithms
    }
    std::string what = synchronising.what();
    auto blocked = what.find("Blocked ranks and their action:");
    fmt::print(warnings, "tit-trace: warning: the trace completes only if a collective lets some members leave before "
                         "every member arrived (a bcast's or scatter's root, a reduce's or gather's other members: MPI "
                         "allows it and does not require it; Open MPI and tit-replay do it for small messages), so its "
                         "proxy may hang under another MPI (docs/proxy.md#collectives). With every collective "
                         "synchronising, the blocked ranks and their action:{}\n",
               blocked == std::string::npos ? "\n  " + what : what.substr(blocked + 31));
    warnings << relaxed.str();
    return facts;
  }
}

} // namespace

TraceFacts check_trace(const std::filesystem::path& traces, const CheckOptions& options, std::ostream& warnings)
{
  if (!(options.detached_thresh >= 0))
    throw trace::TraceError(fmt::format("error: --detached-thresh {}: expected a number of bytes >= 0",
                                        options.detached_thresh));
  std::vector<OtherMatch> others;
  TraceFacts facts = check_rules(traces, options, nullptr, warnings, &others);
  // the first other matches, one at a time: a deadlock there is one the proxy may meet
  std::size_t deadlocks = 0;
  for (const OtherMatch& other : others) {
    std::ostringstream ignored;
    try {
      check_rules(traces, options, &other, ignored, nullptr);
    } catch (const ProxyDeadlock& e) {
      if (deadlocks++ == 0) {
        std::string what = e.what();
        auto blocked = what.find("Blocked ranks and their action:");
        fmt::print(warnings, "tit-trace: warning: the proxy may hang: if rank {}'s receive from any source at {} takes "
                             "the message of rank {} (another run may deliver it first), no rank can progress "
                             "(docs/proxy.md#receives-from-any-source). Blocked ranks and their action:{}\n",
                   other.dst, other.at, other.src,
                   blocked == std::string::npos ? "\n  " + what : what.substr(blocked + 31));
      }
    } catch (const trace::TraceError&) { // not explorable
    }
  }
  if (!others.empty())
    fmt::print(warnings, "tit-trace: note: explored {} other match(es) of receives from any source, one at a time: {} "
                         "deadlock(s)\n", others.size(), deadlocks);
  return facts;
}

} // namespace tit::tracetool

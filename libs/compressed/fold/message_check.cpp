// The `stats` check's second reference model (docs/compressed-format.md, "The check"): the ranks' clocks advanced
// through their computations and tied by their messages and collectives, so that draws which unbalance steps that
// messages tie together (a rank late with its send makes its receivers wait) move the estimate as they move a replay.
// Nominal costs (nominal_cost), eager messages, no network: not a model of a machine, a model of the dependencies.
#include "compressed/fold/fold.hpp"

#include "trace/message_key.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

namespace tit::trace::cformat {

namespace {

/// A posted nonblocking operation: its key (as the trace names it) and when its data is there (none: not sent yet).
struct Request {
  MessageKey key;
  bool collective = false;
  std::optional<double> arrival;
  bool receive = false;
};
using RequestPtr = std::shared_ptr<Request>;

/// One communicator as every member sees it: its id (0 the world), its size (0: not known, its collectives are then
/// timed as local costs).
struct Comm {
  std::uint64_t id = 0;
  int size = 0;
};

/// The messages of one (communicator, source, destination, tag) in order, and the receives waiting for them.
struct Channel {
  std::deque<double> arrivals;
  std::deque<RequestPtr> receives;
};

/// A collective's meeting: how many members arrived, the latest of them, and the time they leave once all did.
struct Meeting {
  int arrived = 0;
  double latest = 0;
  std::optional<double> release;
};

class Model {
public:
  explicit Model(std::vector<std::unique_ptr<RankReader>> readers) : readers_(std::move(readers))
  {
    ranks_.resize(readers_.size());
    for (auto& r : ranks_)
      r.comms[0] = Comm{0, static_cast<int>(readers_.size())};
  }

  /// The latest rank's clock once every rank ended; none when a rank uses what the model does not follow (receives
  /// from any source, persistent requests) or the ranks cannot all end in it.
  std::optional<double> run()
  {
    for (bool progress = true; progress;) {
      progress = false;
      bool all_done = true;
      posted_ = false;
      for (std::size_t i = 0; i < ranks_.size(); ++i) {
        if (unsupported_)
          return std::nullopt;
        if (!ranks_[i].done)
          progress |= advance(static_cast<int>(i));
        all_done &= ranks_[i].done;
      }
      progress |= posted_; // a send posted by a rank that then waited may let a rank before it move
      if (all_done) {
        double end = 0;
        for (auto const& r : ranks_)
          end = std::max(end, r.t);
        return end;
      }
    }
    return std::nullopt; // stuck: a dependency the model does not resolve as the run did
  }

private:
  struct Rank {
    double t = 0;
    std::vector<RequestPtr> pending;
    std::map<int, Comm> comms;                 ///< by the rank's own handle
    std::map<std::uint64_t, std::uint64_t> creations, collectives; ///< per communicator id: how many so far
    bool has_action = false;                   ///< `action` is the one it is blocked in
    bool registered = false;                   ///< its action's first part done: the arrival at a collective's
                                               ///< meeting, a sendRecv's send
    Action action;
    RequestPtr blocked_receive;                ///< the receive of the blocking recv or sendRecv it is in
    std::pair<std::uint64_t, std::uint64_t> meeting; ///< the collective it is in: (communicator id, number)
    bool done = false;
  };

  /// Runs rank `r` until it blocks or ends; whether it moved.
  bool advance(int r)
  {
    Rank& k = ranks_[static_cast<std::size_t>(r)];
    bool moved = false;
    while (true) {
      if (!k.has_action) {
        if (!readers_[static_cast<std::size_t>(r)]->next(k.action)) {
          if (!wait_all(k))
            return moved;
          k.done = true;
          return true;
        }
        k.has_action = true;
        k.registered = false;
      }
      if (!step(r, k))
        return moved;
      k.has_action = false;
      moved = true;
    }
  }

  /// Waits for every pending request (a waitall; the end of the rank's trace): false while one has no arrival yet.
  bool wait_all(Rank& k)
  {
    for (auto const& q : k.pending)
      if (!q->arrival)
        return false;
    for (auto const& q : k.pending)
      k.t = std::max(k.t, *q->arrival);
    k.pending.clear();
    return true;
  }

  Comm comm_of(Rank& k, int handle)
  {
    auto it = k.comms.find(handle);
    return it == k.comms.end() ? Comm{0xffffffffULL, 0} : it->second; // an unknown handle: a communicator of its own
  }

  Channel& channel(std::uint64_t comm, int src, int dst, int tag) { return channels_[{comm, src, dst, tag}]; }

  void post_send(Rank& k, int r, const Action& a, int dst, double bytes)
  {
    Channel& c = channel(comm_of(k, a.comm).id, r, dst, a.tag);
    double arrival = k.t + nominal_cost(bytes);
    if (!c.receives.empty()) {
      c.receives.front()->arrival = arrival;
      c.receives.pop_front();
    } else {
      c.arrivals.push_back(arrival);
    }
  }

  RequestPtr post_receive(Rank& k, int r, const Action& a, int src)
  {
    auto q = std::make_shared<Request>();
    q->key = MessageKey{a.comm, src, r, a.tag};
    q->receive = true;
    Channel& c = channel(comm_of(k, a.comm).id, src, r, a.tag);
    if (!c.arrivals.empty()) {
      q->arrival = c.arrivals.front();
      c.arrivals.pop_front();
    } else {
      c.receives.push_back(q);
    }
    return q;
  }

  /// Performs the action rank `r` is at; false when it must wait (it is then tried again later).
  bool step(int r, Rank& k)
  {
    const Action& a = k.action;
    const KindTraits& tr = traits(a.kind);
    if (a.partner == kAnySource || a.partner2 == kAnySource || a.tag == kAnyTag) {
      unsupported_ = true; // which message a receive from any source takes depends on the timing
      return false;
    }
    switch (tr.group) {
      case Group::Lifecycle: return true;
      case Group::Local:
        if (a.kind == Kind::Compute)
          k.t += a.amount;
        return true;
      case Group::Persistent: unsupported_ = true; return false;
      case Group::Communicator: create(k, a); return true;
      case Group::Message:
        if (tr.sends) {
          post_send(k, r, a, a.partner, a.bytes);
          if (tr.nonblocking)
            k.pending.push_back(std::make_shared<Request>(Request{MessageKey{a.comm, r, a.partner, a.tag}, false, k.t}));
          return true;
        }
        if (tr.nonblocking) {
          k.pending.push_back(post_receive(k, r, a, a.partner));
          return true;
        }
        return receive(k, r, a, a.partner);
      case Group::SendRecv:
        if (!k.registered) { // the send once, then the receive until its message is there
          post_send(k, r, a, a.partner, a.bytes);
          k.registered = true;
          posted_ = true;
        }
        return receive(k, r, a, a.partner2);
      case Group::Completion: return complete(k, a);
      case Group::NonBlockingCollective:
        k.pending.push_back(std::make_shared<Request>(Request{MessageKey{a.comm, r, r, -1}, true, k.t}));
        return true;
      case Group::Collective: return meet(k, a);
    }
    return true;
  }

  /// A blocking receive: posted once, then waited for.
  bool receive(Rank& k, int r, const Action& a, int src)
  {
    if (!k.blocked_receive) {
      k.blocked_receive = post_receive(k, r, a, src);
    }
    if (!k.blocked_receive->arrival)
      return false;
    k.t = std::max(k.t, *k.blocked_receive->arrival);
    k.blocked_receive.reset();
    return true;
  }

  bool complete(Rank& k, const Action& a)
  {
    const KindTraits& tr = traits(a.kind);
    if (tr.polls)
      return true; // a test completes nothing here: a later wait, or the end of the rank, does
    if (a.kind == Kind::WaitAll)
      return wait_all(k);
    if (a.kind == Kind::WaitAny) {
      if (k.pending.empty())
        return true;
      auto first = k.pending.end();
      for (auto it = k.pending.begin(); it != k.pending.end(); ++it)
        if ((*it)->arrival && (first == k.pending.end() || *(*it)->arrival < *(*first)->arrival))
          first = it;
      if (first == k.pending.end())
        return false;
      k.t = std::max(k.t, *(*first)->arrival);
      k.pending.erase(first);
      return true;
    }
    // wait: the request the line names (the replay's rule), or dialect 1's most recent receive
    std::size_t i = k.pending.size();
    if (a.wait_last_irecv) {
      for (std::size_t j = k.pending.size(); j-- > 0;)
        if (k.pending[j]->receive) {
          i = j;
          break;
        }
    } else {
      i = named_request(
          k.pending, named_key(a), [](const RequestPtr& q) { return q->key; },
          [](const RequestPtr& q) { return q->collective; });
    }
    if (i >= k.pending.size())
      return true; // names nothing: returns at once, as in the replay
    if (!k.pending[i]->arrival)
      return false;
    k.t = std::max(k.t, *k.pending[i]->arrival);
    k.pending.erase(k.pending.begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  }

  /// A blocking collective: the members of a communicator of known size meet and leave together after a nominal
  /// cost; on one of unknown size, the cost alone.
  bool meet(Rank& k, const Action& a)
  {
    Comm c = comm_of(k, a.comm);
    double cost = nominal_cost(std::max(0.0, a.bytes) + std::max(0.0, a.bytes2));
    if (c.size <= 1) {
      k.t += cost;
      return true;
    }
    if (!k.registered) {
      k.meeting = {c.id, k.collectives[c.id]++};
      Meeting& m = meetings_[k.meeting];
      m.arrived++;
      m.latest = std::max(m.latest, k.t);
      if (m.arrived == c.size)
        m.release = m.latest + cost;
      k.registered = true;
    }
    auto it = meetings_.find(k.meeting);
    if (!it->second.release)
      return false;
    k.t = *it->second.release;
    if (--it->second.arrived == 0)
      meetings_.erase(it);
    return true;
  }

  /// comm_split, comm_dup, comm_create: the new handle names, on every member, the communicator made by the same
  /// creation on the same parent (with the same colour); comm_free forgets the handle.
  void create(Rank& k, const Action& a)
  {
    if (a.kind == Kind::CommFree) {
      k.comms.erase(a.comm);
      return;
    }
    Comm parent = comm_of(k, a.comm);
    std::uint64_t seq = k.creations[parent.id]++; // every member of the parent counts it, the new one's or not
    if (a.new_comm < 0)
      return;
    int size = 0;
    std::uint64_t colour = 0;
    if (a.kind == Kind::CommDup) {
      size = parent.size;
    } else if (a.kind == Kind::CommSplit) {
      size = a.new_size;
      colour = static_cast<std::uint64_t>(static_cast<std::uint32_t>(a.color));
    } else {
      size = static_cast<int>(a.group.size());
    }
    auto key = std::make_tuple(parent.id, seq, colour);
    auto [it, fresh] = comm_ids_.try_emplace(key, comm_ids_.size() + 1);
    k.comms[a.new_comm] = Comm{it->second, size};
  }

  std::vector<std::unique_ptr<RankReader>> readers_;
  std::vector<Rank> ranks_;
  std::map<std::tuple<std::uint64_t, int, int, int>, Channel> channels_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, Meeting> meetings_;
  std::map<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>, std::uint64_t> comm_ids_;
  bool unsupported_ = false;
  bool posted_ = false; ///< in this pass, a rank posted a send and then waited
};

} // namespace

std::optional<double> message_time(std::vector<std::unique_ptr<RankReader>> readers)
{
  return Model(std::move(readers)).run();
}

} // namespace tit::trace::cformat

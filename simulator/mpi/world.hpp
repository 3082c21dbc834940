// The simulated MPI library: point-to-point semantics of SimGrid 3.32's SMPI (matching in order per
// (communicator, source, destination, tag), detached / rendez-vous / eager protocols, os/or/ois overheads, MPI_Test
// and probe injected times), built on S4U mailboxes and communications.
#pragma once

#include "core/error.hpp"

#include "model/params.hpp"
#include "trace/message_key.hpp"

#include <boost/container/small_vector.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace simgrid::s4u {
class Host;
}

namespace tit::mpi {

/// An error of the replayed program (for example a wait on nothing), reported with the action's location.
class MpiError : public tit::Error {
public:
  using tit::Error::Error;
};

/// The replayed trace can never complete: every rank still running waits for a message no one will send.
class DeadlockError : public MpiError {
public:
  explicit DeadlockError(const std::string& what) : MpiError(what, ExitCode::Incomplete) {}
};

/// Where a message comes from: the replayed program's own point-to-point calls, or the internal messages of a
/// collective algorithm (blocking or not). Outputs and the analysis tell the two apart by this, never by tags.
enum class Origin : std::uint8_t { User, Collective };

/// What MPI matches a message by besides its two ranks: the matching context of its communicator (0 for
/// MPI_COMM_WORLD, else the replay's id of the communicator) and its tag. A collective algorithm names the tags
/// of the communicator it runs on; PointToPoint::match gives the pair.
struct Match {
  int context = 0;
  int tag = 0;
  bool operator==(const Match&) const = default;
};

/// One pending point-to-point operation.
struct Request {
  enum class Type : std::uint8_t { Send, Recv, Group }; ///< Group: a nonblocking collective's requests
  Type type = Type::Send;
  int src = 0;
  int dst = 0;
  Match match;                  ///< its communicator's matching context and its tag
  double bytes = 0;             ///< send: payload; recv: expected payload (negative: unknown)
  bool detached = false;        ///< send: buffered, complete once posted (and then without a comm)
  bool done = false;            ///< returned by a wait or a test (overheads paid): no longer pending for MPI
  double completion_cost = 0;   ///< send: what the wait or test completing it costs (tit/ois-wait of a buffered isend)
  double matched_at = -1;       ///< simulated time at which the partner posted; -1 while unmatched
  simgrid::s4u::CommPtr comm;   ///< the transfer as seen by the owner (null for a detached send)
  void* envelope = nullptr;     ///< recv: what the matched send carried (its payload size)
  std::uint64_t seq = 0;        ///< posting order among all requests (MPI matches the earliest posted)
  trace::MessageKey key;        ///< the request as the trace names it (set by the replay for the trace's requests)
  std::uint64_t handle = 0;     ///< the replay's number of a request the trace posted, 1 up on each rank (0: a
                                ///< collective algorithm's own); observers name requests by it
  double posted_at = -1;        ///< simulated time at which this side posted (after its overheads)
  std::uint64_t partner_seq = 0; ///< recv: the `seq` of the send it matched (0 while unmatched)
  Origin origin = Origin::User;  ///< posted by the program itself or by a collective algorithm
  std::vector<std::shared_ptr<Request>> parts; ///< Group: the point-to-point requests it is made of
};

/// A vector whose first N elements live inside the object that holds it. Used for the short lists a rank touches at
/// each of its turns: with thousands of ranks taking turns, a separate allocation per list is one more cache miss
/// per list and turn (docs/performance.md).
template <typename T, std::size_t N> using InlineVector = boost::container::small_vector<T, N>;

/// The source of a receive from any source (MPI_ANY_SOURCE as SimGrid's traces write it).
inline constexpr int kAnySource = -333;
using RequestPtr = std::shared_ptr<Request>;

class World;

/// A message between two ranks as the timeline outputs see it: posted by the sender at `time` (sent), then
/// completed by the receiver at `time` (received). `id` is the send's posting number in both events. Its
/// identity is (job, context, tag, origin): `context` is the communicator's id (0: MPI_COMM_WORLD) and `tag`
/// the tag within it, as the trace or the collective algorithm gave it.
struct MessageEvent {
  int src = 0;
  int dst = 0;
  int tag = 0;
  double bytes = 0;
  std::uint64_t id = 0;
  double time = 0;
  int job = 0;
  int context = 0;
  Origin origin = Origin::User;
  bool collective() const { return origin == Origin::Collective; } ///< a collective algorithm's internal message
};

/// Told of every message of the run, user and collective-internal ones (see MessageEvent::origin).
class MessageListener {
public:
  virtual ~MessageListener() = default;
  virtual void message_sent(const MessageEvent& e) = 0;
  virtual void message_received(const MessageEvent& e) = 0;
};

/// What blocked one MPI operation of a rank longest: the partner whose post released it, and when.
struct Blocking {
  double waiting = 0;  ///< time between the operation's start and the partner's post (0 if not blocked)
  int partner = -1;    ///< that partner's rank (-1 when nothing blocked the operation)
  double release = -1; ///< the partner's post time
  bool on_send = false; ///< the blocked request was a send waiting for its receive (late receiver)
  bool collective = false; ///< that request was a collective's internal message (Origin::Collective)
};

/// A FIFO that costs nothing while empty (a std::deque allocates on construction, and there is one
/// channel per (source, destination, tag) ever used: n^2 of them after an all-to-all).
template <typename T> class Fifo {
public:
  bool empty() const { return head_ == items_.size(); }
  const T& front() const { return items_[head_]; }
  void push_back(T item) { items_.push_back(std::move(item)); }
  void pop_front()
  {
    items_[head_++] = T();
    if (head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    }
  }

private:
  std::vector<T> items_;
  std::size_t head_ = 0;
};


/// Messages from `src` to `dst` with `tag`, matched in order.
struct Channel {
  simgrid::s4u::Mailbox* large = nullptr; ///< rendez-vous point of regular messages, while the channel is in use
  simgrid::s4u::Mailbox* small = nullptr; ///< eager messages: the receiver is permanent, transfers start at once
  Fifo<RequestPtr> sends_large, sends_small; ///< posted sends not matched yet
  Fifo<RequestPtr> recvs_large, recvs_small; ///< posted receives not matched yet
  int in_flight = 0;                         ///< posts whose put/get the kernel has not handled yet
  int src = 0;                               ///< the sending rank
  int dst = 0;                               ///< the receiving rank (owner of the eager mailbox)
  Match match;                               ///< its communicator's context and its tag
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
};

/// How the traced run ended a test (or which requests a waitany could have completed), as the rest of the
/// trace implies it: a request no later line names was complete; one a later wait or test names was not
/// (docs/mpi-semantics.md, "Traced outcomes").
enum class Traced : std::uint8_t {
  Unknown,   ///< the trace does not say: the replay's own outcome stands
  Pending,   ///< still pending after the call in the traced run
  Completed, ///< completed by the call in the traced run
};

/// MPI's send modes: standard (buffered below smpi/send-is-detached-thresh), synchronous (MPI_Ssend: never
/// buffered) and buffered (MPI_Bsend: always).
enum class SendMode : std::uint8_t { Standard, Synchronous, Buffered };

/// The point-to-point operations collective algorithms are built from. `bytes` is the payload; a
/// negative receive size means "take the sender's". Implemented by Rank, and by recorders in tests.
class PointToPoint {
public:
  virtual ~PointToPoint() = default;
  virtual int rank() const = 0;
  /// What tag `tag` of this communicator is matched by: its context and a tag (MPI_COMM_WORLD: {0, tag}).
  virtual Match match(int tag) const { return {0, tag}; }

  /// The operations with a tag of this communicator, as collective algorithms name them.
  void send(int dst, int tag, double bytes) { send(dst, match(tag), bytes); }
  RequestPtr isend(int dst, int tag, double bytes) { return isend(dst, match(tag), bytes); }
  void recv(int src, int tag, double bytes) { recv(src, match(tag), bytes); }
  RequestPtr irecv(int src, int tag, double bytes) { return irecv(src, match(tag), bytes); }
  /// MPI_Sendrecv: an isend and an irecv, then both waited (nothing at all when both partners are this rank).
  void sendrecv(int dst, double send_bytes, int src, double recv_bytes, int tag)
  {
    sendrecv(dst, send_bytes, src, recv_bytes, match(tag));
  }

  /// The same with the match given: what a communicator passes on to the one it is built on.
  virtual void send(int dst, Match m, double bytes) = 0;
  virtual RequestPtr isend(int dst, Match m, double bytes) = 0;
  virtual void recv(int src, Match m, double bytes) = 0;
  virtual RequestPtr irecv(int src, Match m, double bytes) = 0;
  virtual void sendrecv(int dst, double send_bytes, int src, double recv_bytes, Match m) = 0;
  virtual void wait(const RequestPtr& req) = 0;
  /// Waits for every request, completing them in the order they finish (SMPI's waitany loop).
  virtual void waitall(std::vector<RequestPtr>& reqs) = 0;

  /// Where rank `r` of this communicator runs (null outside a simulation: schedule recorders).
  virtual const simgrid::s4u::Host* host_of(int /*r*/) const { return nullptr; }
  /// This communicator's identity among the keys of smp_layouts() (0: MPI_COMM_WORLD).
  virtual int context() const { return 0; }
  /// The per-host layouts (a host number per communicator rank) this rank found by running SMPI's init_smp,
  /// by communicator: SMPI initialises each communicator once. Null when none are kept (recorders).
  virtual std::map<int, std::vector<int>>* smp_layouts() { return nullptr; }
};

/// The MPI state and operations of one rank. Every operation runs in that rank's actor.
class Rank final : public PointToPoint {
public:
  Rank(World& world, int rank, simgrid::s4u::Host* host);

  int rank() const override { return rank_; }
  simgrid::s4u::Host* host() const { return host_; }

  using PointToPoint::irecv;
  using PointToPoint::isend;
  using PointToPoint::recv;
  using PointToPoint::send;
  using PointToPoint::sendrecv;
  void send(int dst, Match m, double bytes) override;
  RequestPtr isend(int dst, Match m, double bytes) override;
  void send(int dst, Match m, double bytes, SendMode mode);
  RequestPtr isend(int dst, Match m, double bytes, SendMode mode);
  void recv(int src, Match m, double bytes) override;
  RequestPtr irecv(int src, Match m, double bytes) override;
  /// tit/oir: the time to post an MPI_Irecv of `bytes`, which the trace's irecvs take before irecv() (not the
  /// receives inside collectives or blocking receives: SimGrid's model charges those nothing either).
  void post_irecv_overhead(double bytes);
  void wait(const RequestPtr& req) override;
  /// MPI_Test: injects the test time, completes `req` if its transfer is over. Returns whether it did. A test
  /// the traced run completed completes `req` whatever the replay's timing: it waits for it if needed. `traced`,
  /// if given, says what the traced run's test did; it is asked only when the replay's test fails.
  bool test(const RequestPtr& req, const std::function<Traced()>& traced = nullptr);
  /// MPI_Waitany: completes the first of `reqs` to finish (the first already finished, in order); returns its
  /// index, or -1 when every request is already complete. With `traced` (one entry per request), when every
  /// request is known Pending or Completed and some are Completed, only those can be the one it completes.
  int waitany(const std::vector<RequestPtr>& reqs, const std::vector<Traced>* traced = nullptr);
  /// MPI_Testany (one injected time, then the first finished request) and MPI_Testall / MPI_Testsome (each
  /// request tested in turn, as SMPI does). Returns how many requests it completed. With `traced` (one entry
  /// per request, asked only when a test fails), the requests the traced run completed are completed (testany:
  /// the first of them to finish).
  enum class TestKind : std::uint8_t { Any, All, Some };
  using TracedAll = std::function<std::vector<Traced>()>;
  int test_many(const std::vector<RequestPtr>& reqs, TestKind kind, const TracedAll& traced = nullptr);
  void waitall(std::vector<RequestPtr>& reqs) override;
  void sendrecv(int dst, double send_bytes, int src, double recv_bytes, Match m) override;
  const simgrid::s4u::Host* host_of(int r) const override;
  std::map<int, std::vector<int>>* smp_layouts() override { return &smp_layouts_; }

  /// Time this rank spent blocked before its partners posted the operations it waited for.
  double waiting_time() const { return waiting_; }
  /// Time injected into this rank's tests (smpi/test times its counter), and how many injections.
  double polling_time() const { return polling_; }
  std::uint64_t polls() const { return polls_; }
  /// Starts a new operation for blocking(): what blocked the operations since is forgotten.
  void begin_operation() { blocking_ = Blocking{}; }
  /// What blocked the operations since the last begin_operation() longest.
  const Blocking& blocking() const { return blocking_; }

  /// The origin stamped on the requests this rank posts from now on (User unless a collective runs).
  void set_origin(Origin origin) { origin_ = origin; }
  Origin origin() const { return origin_; }
  /// Sets the origin to Collective for its lifetime (a collective algorithm's messages).
  class CollectiveScope {
  public:
    explicit CollectiveScope(Rank& rank) : rank_(rank), saved_(rank.origin()) { rank.set_origin(Origin::Collective); }
    ~CollectiveScope() { rank_.set_origin(saved_); }
    CollectiveScope(const CollectiveScope&) = delete;
    CollectiveScope& operator=(const CollectiveScope&) = delete;

  private:
    Rank& rank_;
    Origin saved_;
  };

  /// Called by the receiver of a message from this rank once its transfer is over (`transfer` is the kernel
  /// activity both sides share): if it was one of this rank's buffered sends, it can now be reaped.
  void delivered(const void* transfer);
  /// Reaps the buffered sends whose transfer is over (one wait each, answered at once: no simulated time).
  /// Each wait is a simcall, so the rank takes extra turns of the scheduler at the current date: call it only
  /// where the rank is about to block until a later date on an activity no other rank waits for (between the
  /// start and the wait of a computation), so that no other rank's order of acting changes (SMPI's order).
  void reap_delivered();
  /// At the end of the rank's trace: lets the buffered sends still travelling arrive, this actor then being
  /// a daemon (the run does not wait for it, and a message never received does not keep it alive). The rank's
  /// actor must call it last: an actor's end cancels its communications, and their receivers would fail.
  void drain_buffered();

  /// A sender binds this rank's oldest receive from any source with `tag` to its message (posted as number
  /// `send_seq`), which travels at once to this rank's any-source mailbox. Returns that mailbox, or nullptr
  /// when no such receive waits or a receive naming `src` was posted before it (it matches first).
  simgrid::s4u::Mailbox* bind_any_source(int src, Match m, std::uint64_t first_specific_recv, std::uint64_t send_seq);

private:
  /// Puts the message of `req` into `mailbox` (see the definition).
  void put(Request& req, simgrid::s4u::Mailbox* mailbox);
  /// Queues the eager message of `req` for `mailbox` (its channel's eager one) behind the earlier ones to the same
  /// destination; the pipe puts it once they are delivered, then reports the post of `channel` done.
  void pipe_put(const Request& req, simgrid::s4u::Mailbox* mailbox, Channel& channel);
  RequestPtr start_send(int dst, Match m, double bytes, bool is_isend, SendMode mode = SendMode::Standard);
  RequestPtr irecv_any_source(Match m, double bytes);
  /// Posts the receives of any-source requests that senders bound since, in binding order; then, while
  /// `req` (if given) is still unbound, sleeps until a sender binds it.
  void settle_any_source(const Request* req = nullptr);
  /// The test time of MPI_Test and its variants (shared growing counter), before looking at requests.
  void inject_test_time();
  /// Sleeps `seconds` of injected test time, counted in polling_time().
  void inject_polling(double seconds);
  /// Resets or grows the shared test counter after a test that completed something or nothing.
  void account_test(bool completed);
  double probe_size(int src, Match m);
  void complete(Request& req);
  void account_waiting(const Request& req, double wait_start);
  void note_blocking(const Request& req, double wait_start);

  World& world_;
  int rank_;
  simgrid::s4u::Host* host_;
  model::HostOverheads overheads_;
  double waiting_ = 0;
  double polling_ = 0;
  std::uint64_t polls_ = 0;
  Blocking blocking_;
  std::vector<RequestPtr> any_unbound_; ///< receives from any source no sender has bound yet, oldest first
  Fifo<RequestPtr> any_bound_;          ///< bound by a sender, whose receive is not posted yet
  simgrid::s4u::Mailbox* any_mailbox_ = nullptr; ///< permanent receiver: this rank
  bool sleeping_for_bind_ = false;
  Origin origin_ = Origin::User;
  std::map<int, std::vector<int>> smp_layouts_;
  /// Buffered sends whose transfer may still run, by kernel activity (see put()), and those delivered since
  /// the last reap_delivered(). A rank reaps only while it computes: past max_kept_ kept (a rank sending many
  /// messages between two computations), further ones are detached as SMPI does (the times are the same either
  /// way). The cost is SimGrid's: each completion this rank waits for scans its activities, kept ones
  /// included, while each completion of a detached message scans every rank's detached ones. So the bound is
  /// at least twice the ranks: a collective in which every rank sends to every other (an allgather, an
  /// alltoall) keeps its messages on their senders, where detaching them made each completion scan up to
  /// p x p messages (a 512-rank miniFE replay stalled in its first allgather).
  static constexpr std::size_t kMinKeptBuffered = 256;
  std::size_t max_kept_;
  /// They are few (one per message in flight from this rank, at most max_kept_), so a vector searched
  /// linearly costs less than a hash map, and allocates nothing per message once grown.
  struct Buffered {
    const void* transfer; ///< the kernel activity, which the receiver names in delivered()
    std::uint64_t seq;    ///< posting order: the end of the trace waits in that order
    simgrid::s4u::CommPtr comm;
  };
  InlineVector<Buffered, 4> buffered_;
  InlineVector<simgrid::s4u::CommPtr, 4> delivered_;
  /// tit/in-order-delivery: per destination, the eager messages not put yet, and an actor on this rank's host
  /// that puts them one at a time, each once the previous one is delivered.
  struct Pipe {
    struct Item {
      simgrid::s4u::Mailbox* mailbox;
      double bytes;
      Channel* channel; ///< whose post is done once the put is
    };
    std::deque<Item> items;
    simgrid::s4u::SemaphorePtr ready; ///< one token per queued item
  };
  std::unordered_map<int, std::unique_ptr<Pipe>> pipes_;
  /// Reused by waitall and waitany (one rank runs one of them at a time): no allocation per call once grown.
  std::vector<simgrid::s4u::CommPtr> wait_comms_;
  InlineVector<Request*, 4> wait_pending_;
  /// The event of a message between `src` and `dst` matched by `m`.
  MessageEvent event(int src, int dst, Match m, double bytes, std::uint64_t id, double time, Origin o) const;

  /// The channel from this rank to `dst` matched by `m`, and from `src` to this rank.
  Channel& channel_to(int dst, Match m);
  Channel& channel_from(int src, Match m);
  /// The last channels this rank used, by (partner, match) hashed: a lookup in the world's map of every channel
  /// misses the caches when thousands of ranks take turns, this rank's own slots much less (they live in the
  /// rank's state, which its turn touches anyway). A cache only: the channels themselves are the world's.
  struct ChannelSlot {
    int partner = -1;
    Match match;
    Channel* channel = nullptr;
  };
  static constexpr std::size_t kChannelSlots = 8; ///< per direction; a power of two
  std::array<ChannelSlot, kChannelSlots> sends_to_{};
  std::array<ChannelSlot, kChannelSlots> receives_from_{};
  Channel& cached_channel(std::array<ChannelSlot, kChannelSlots>& slots, int partner, Match m, int src, int dst);
};

/// Shared state of the simulated MPI library: channels between ranks and global counters.
class World {
public:
  /// The MPI world of job `job` (0 when a single trace set is replayed).
  World(model::MpiParams params, int rank_count, int job = 0);

  int job() const { return job_; }
  const model::MpiParams& params() const { return params_; }
  int rank_count() const { return rank_count_; }

  using Channel = mpi::Channel;
  /// The channel of messages of that key: (context, source, destination, tag), MPI's identity of a message.
  Channel& channel(const trace::MessageKey& key);
  /// The regular mailbox of a channel, taken from the spare ones when the channel has none.
  simgrid::s4u::Mailbox* large_mailbox(Channel& ch);
  simgrid::s4u::Mailbox* small_mailbox(Channel& ch);
  /// Called once a post's put/get is handled: a channel with nothing pending gives its mailboxes back
  /// (empty in the kernel too), so mailboxes follow the channels in use, not all channels ever used.
  void post_done(Channel& ch);

  std::uint64_t next_seq() { return ++seq_; }
  /// Each Rank registers itself, so that senders can bind its receives from any source.
  void add_rank(Rank* rank) { ranks_.push_back(rank); }
  Rank& rank(int r) { return *ranks_.at(static_cast<std::size_t>(r)); }
  simgrid::s4u::ActorPtr actor(int r) { return actors_.at(static_cast<std::size_t>(r)); }
  /// Wakes `rank` when a sender binds one of its receives from any source (spurious wake-ups are harmless).
  simgrid::s4u::Semaphore& bind_signal(int rank) { return *bind_signals_.at(static_cast<std::size_t>(rank)); }
  /// The mailbox of `rank`'s bound receives from any source (its permanent receiver is that rank).
  simgrid::s4u::Mailbox* any_source_mailbox(int rank) { return any_mailboxes_.at(static_cast<std::size_t>(rank)); }
  /// Every channel to `dst` created so far, in creation order (the any-source matching looks only at these).
  const std::vector<const Channel*>& channels_to(int dst) const;

  /// Binds the ranks to their actors and creates mailboxes ahead, from the engine's own context, before the
  /// simulation starts. Creating one later is a simcall that makes the rank yield where SMPI's would not,
  /// and the order in which ranks act at equal dates decides the shared MPI_Test counter.
  void prepare(std::vector<simgrid::s4u::ActorPtr> actors);

  /// The per-rank lock SMPI takes around posting in eager mode (smpi/async-small-thresh > 0).
  simgrid::s4u::Mutex& eager_lock(int rank) { return *eager_locks_.at(rank); }

  /// Timeline outputs; null (the default) costs nothing.
  void set_listener(MessageListener* listener) { listener_ = listener; }
  MessageListener* listener() const { return listener_; }

  int& test_counter() { return test_counter_; }
  int& probe_counter() { return probe_counter_; }
  int& testany_counter() { return testany_counter_; } ///< SMPI's MPI_Testany keeps a counter of its own

  /// Sends never received, by channel, for the end-of-run warning.
  struct Unreceived {
    trace::MessageKey key; ///< its `comm` is the communicator's context: the replay's id of the communicator
    std::uint64_t count;
  };
  std::vector<Unreceived> unreceived() const;

  /// What each rank is doing, to tell a slow partner from one that will never come (probe loops poll
  /// with simulated time, so SimGrid's own deadlock detection never fires for them).
  enum class Activity : std::uint8_t { Running, Waiting, Probing, Finished };
  /// Sets what `rank` does; while Waiting, for the requests given (kept in a list that reuses its memory: the
  /// replay calls this around every wait, without allocating).
  void set_activity(int rank, Activity a);
  void set_activity(int rank, Activity a, const Request* waited);
  template <typename Requests>
    requires requires(const Requests& r) { r.begin(); }
  void set_activity(int rank, Activity a, const Requests& waited)
  {
    auto& p = progress_.at(static_cast<std::size_t>(rank));
    p.activity = a;
    p.waited.assign(waited.begin(), waited.end());
  }
  /// Whether some rank other than `rank` may still post a message: running, or waiting for a request whose
  /// partner has posted (its transfer will end).
  bool others_can_progress(int rank) const;

private:
  model::MpiParams params_;
  int rank_count_;
  struct KeyHash {
    std::size_t operator()(const trace::MessageKey& k) const noexcept
    {
      std::uint64_t h = static_cast<std::uint32_t>(k.src);
      h = h * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint32_t>(k.dst);
      h = h * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint32_t>(k.tag);
      h = h * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint32_t>(k.comm);
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };
  std::unordered_map<trace::MessageKey, Channel, KeyHash> channels_; ///< never erased: a Channel's address is stable
  std::vector<std::vector<const Channel*>> incoming_;  ///< per receiving rank, its channels
  std::vector<simgrid::s4u::ActorPtr> actors_;
  std::vector<simgrid::s4u::Mailbox*> spare_large_;              ///< created ahead, handed to new channels
  std::vector<std::vector<simgrid::s4u::Mailbox*>> spare_small_; ///< per receiver, its permanent receiver set
  std::vector<simgrid::s4u::MutexPtr> eager_locks_;
  std::vector<simgrid::s4u::Mailbox*> any_mailboxes_;
  std::vector<simgrid::s4u::SemaphorePtr> bind_signals_;
  std::vector<Rank*> ranks_;
  std::uint64_t seq_ = 0;
  int job_ = 0;
  MessageListener* listener_ = nullptr;
  std::size_t mailbox_names_ = 0;
  simgrid::s4u::Mailbox* new_mailbox();
  int test_counter_ = 1;
  int probe_counter_ = 1;
  int testany_counter_ = 1;
  struct Progress {
    Activity activity = Activity::Running;
    InlineVector<const Request*, 4> waited;
  };
  std::vector<Progress> progress_;
};


} // namespace tit::mpi

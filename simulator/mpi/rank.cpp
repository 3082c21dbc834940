#include "mpi/world.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <algorithm>
#include <limits>
#include <fmt/core.h>
#include <cstdint>

namespace s4u = simgrid::s4u;

namespace tit::mpi {
namespace {

/// Every message carries SMPI's 16-byte envelope (tag, source, communicator).
constexpr double kEnvelopeBytes = 16;

/// What a send carries to its receiver: its payload size. Encoded in the pointer value itself (never
/// dereferenced; odd so that it is never null), which spares an allocation per message.
void* encode_envelope(double bytes)
{
  return reinterpret_cast<void*>((static_cast<std::uintptr_t>(bytes) << 1) | 1U);
}
double decode_envelope(void* envelope)
{
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(envelope) >> 1);
}

/// The put of a message of `bytes` payload into `mailbox`, not started: its envelope and its simulated size (the
/// payload and the envelope; none for a message the sender has already copied into place, which then takes the
/// route's latency alone).
s4u::CommPtr message_put(s4u::Mailbox* mailbox, double bytes, bool copied = false)
{
  return mailbox->put_init(encode_envelope(bytes), copied ? 0 : static_cast<std::uint64_t>(bytes + kEnvelopeBytes));
}

void sleep_if_positive(double seconds)
{
  if (seconds > 0)
    s4u::this_actor::sleep_for(seconds);
}

/// tit/busy-wait: while a rank waits in MPI, it holds `share` of a core of its host, as a library that polls for its
/// messages does, so that the host's other ranks compute the slower when there are fewer cores than ranks. Null when
/// the share is 0 (SimGrid's waiting rank holds none). The computation outlasts any run: release_core ends it.
s4u::ExecPtr hold_core(double share)
{
  if (share <= 0)
    return nullptr;
  const double speed = s4u::this_actor::get_host()->get_speed();
  s4u::ExecPtr exec = s4u::this_actor::exec_init(speed * 1e12);
  exec->set_bound(share * speed);
  exec->start();
  return exec;
}

void release_core(const s4u::ExecPtr& held)
{
  if (held)
    held->cancel();
}

/// Records that both sides of a channel's oldest pending pair have posted.
void mark_matched(Request& a, Request& b)
{
  double now = s4u::Engine::get_clock();
  a.matched_at = now;
  b.matched_at = now;
  Request& recv = a.type == Request::Type::Recv ? a : b;
  const Request& send = a.type == Request::Type::Recv ? b : a;
  recv.partner_seq = send.seq;
}

/// Posts `req` on one side of a channel: matches the oldest pending partner or waits in `mine`.
void post(Fifo<RequestPtr>& mine, Fifo<RequestPtr>& theirs, const RequestPtr& req)
{
  if (theirs.empty()) {
    mine.push_back(req);
    return;
  }
  mark_matched(*theirs.front(), *req);
  theirs.pop_front();
}

/// Empties a rank's reused wait lists when a wait returns, however it returns: no finished communication is
/// kept alive by them until the next wait.
template <typename Pending> class WaitLists {
public:
  WaitLists(std::vector<s4u::CommPtr>& comms, Pending& pending) : comms_(comms), pending_(pending)
  {
    comms_.clear();
    pending_.clear();
  }
  ~WaitLists()
  {
    comms_.clear();
    pending_.clear();
  }
  WaitLists(const WaitLists&) = delete;
  WaitLists& operator=(const WaitLists&) = delete;

private:
  std::vector<s4u::CommPtr>& comms_;
  Pending& pending_;
};

RequestPtr make_request(Request::Type type, int src, int dst, Match m, double bytes)
{
  auto req = std::make_shared<Request>();
  req->type = type;
  req->src = src;
  req->dst = dst;
  req->match = m;
  req->bytes = bytes;
  return req;
}

} // namespace

Rank::Rank(World& world, int rank, s4u::Host* host)
    : world_(world), rank_(rank), host_(host), overheads_(world.params().overheads_of(*host)),
      max_kept_(std::max(kMinKeptBuffered, 2 * static_cast<std::size_t>(world.rank_count())))
{
  world.add_rank(this);
}

/// Puts the message of `req` into `mailbox`: a buffered one is complete at once (though pending for MPI until a
/// wait or test returns it), another one leaves a transfer to wait for.
///
/// A buffered message is not detached, unlike SMPI's: SimGrid 3.32 files every detached communication in one
/// list of the engine, which each completion scans (CommImpl::finish), so a message would cost O(ranks). This
/// rank keeps the communication instead, and reaps it once its receiver reports it delivered. The transfer
/// (its start, its network action) is the same either way.
void Rank::put(Request& req, s4u::Mailbox* mailbox)
{
  // With tit/os-self, a message to the rank itself was copied within the send (its cost): no bytes cross the loopback.
  auto comm = message_put(mailbox, req.bytes, req.dst == rank_ && overheads_.copies_to_self());
  if (req.detached && buffered_.size() + delivered_.size() >= max_kept_) {
    comm->detach(); // SMPI's way, for a rank that sends many messages between computations (see the header)
    return;
  }
  comm->start();
  if (req.detached) {
    const void* transfer = comm->get_impl();
    buffered_.push_back(Buffered{transfer, req.seq, std::move(comm)});
  } else {
    req.comm = std::move(comm);
  }
}

void Rank::delivered(const void* transfer)
{
  auto it = std::find_if(buffered_.begin(), buffered_.end(),
                         [transfer](const Buffered& b) { return b.transfer == transfer; });
  if (it == buffered_.end())
    return; // not a buffered send: its sender waits for it anyway
  delivered_.push_back(std::move(it->comm));
  *it = std::move(buffered_.back()); // the order does not matter until drain_buffered, which sorts
  buffered_.pop_back();
}

void Rank::reap_delivered()
{
  // Over in the kernel: each wait returns at once and drops the transfer from this actor's activities (each
  // is a simcall, hence a turn of the scheduler: see the header for where that changes nothing).
  while (not delivered_.empty()) {
    s4u::CommPtr comm = std::move(delivered_.back());
    delivered_.pop_back();
    comm->wait();
  }
}

void Rank::drain_buffered()
{
  if (buffered_.empty() && delivered_.empty())
    return;
  // An actor's end cancels its communications: a message its receiver has not taken yet would be lost.
  s4u::Actor::self()->daemonize();
  reap_delivered();
  std::vector<Buffered> travelling(std::make_move_iterator(buffered_.begin()), std::make_move_iterator(buffered_.end()));
  buffered_.clear();
  std::sort(travelling.begin(), travelling.end(),
            [](const Buffered& a, const Buffered& b) { return a.seq < b.seq; });
  for (auto& b : travelling)
    b.comm->wait();
}

RequestPtr Rank::start_send(int dst, Match m, double bytes, bool is_isend, SendMode mode)
{
  auto const& params = world_.params();
  auto req = make_request(Request::Type::Send, rank_, dst, m, bytes);
  req->origin = origin_;
  req->detached = mode == SendMode::Buffered || (mode == SendMode::Standard && bytes < params.detached_thresh);

  // The library's software overhead before the message leaves: ois for every isend, os for a buffered or
  // synchronous blocking send (as SMPI); a message to the rank itself costs tit/os-self instead, when set.
  if (dst == rank_ && overheads_.copies_to_self())
    sleep_if_positive(overheads_.os_self(bytes));
  else if (is_isend) {
    sleep_if_positive(overheads_.ois(bytes));
    if (req->detached)
      req->completion_cost = overheads_.ois_wait(bytes);
  }
  else if (req->detached || mode == SendMode::Synchronous)
    sleep_if_positive(overheads_.os(bytes));

  settle_any_source();
  req->seq = world_.next_seq();
  req->posted_at = s4u::Engine::get_clock();
  if (auto* listener = world_.listener())
    listener->message_sent(event(rank_, dst, m, bytes, req->seq, req->posted_at, req->origin));
  auto& ch = channel_to(dst, m);
  ch.sent++;
  // A receive from any source posted before any receive naming this rank takes the message (MPI's
  // matching order): it travels at once to the receiver's any-source mailbox.
  std::uint64_t first_specific = std::numeric_limits<std::uint64_t>::max();
  for (auto* q : {&ch.recvs_large, &ch.recvs_small})
    if (not q->empty())
      first_specific = std::min(first_specific, q->front()->seq);
  if (auto* any = world_.rank(dst).bind_any_source(rank_, m, first_specific, req->seq)) {
    ch.received++;
    req->matched_at = s4u::Engine::get_clock();
    put(*req, any);
    return req;
  }
  bool eager_mode = params.async_small_thresh > 0;
  bool eager = eager_mode && mode != SendMode::Synchronous && bytes < params.async_small_thresh;
  // In eager mode SMPI posts under the receiver's lock, after probing for a posted receive: the same
  // simcalls here keep the order in which ranks act at equal dates.
  if (eager_mode)
    world_.eager_lock(dst).lock();
  if (eager)
    s4u::this_actor::yield();
  // An eager message goes to the receiver's permanent mailbox (its transfer starts at once), unless a
  // matching receive is already posted on the regular one.
  bool use_small = eager && ch.recvs_large.empty();
  if (use_small)
    post(ch.sends_small, ch.recvs_small, req);
  else
    post(ch.sends_large, ch.recvs_large, req);
  ch.in_flight++;
  s4u::Mailbox* mailbox = use_small ? world_.small_mailbox(ch) : world_.large_mailbox(ch);

  // tit/in-order-delivery pipes an eager message to another rank's eager mailbox: its transfer needs nothing of the
  // receiver, so queueing it cannot block anything, and every message of that mailbox is piped, so the kernel sees its
  // puts in the order of the channel (a message to the any-source mailbox, or to the regular one, which other
  // messages of the channel share unpiped, is put at once).
  if (use_small && params.in_order_delivery && dst != rank_) {
    pipe_put(*req, mailbox, ch); // the pipe reports the post done once it has put the message
  } else {
    put(*req, mailbox);
    world_.post_done(ch);
  }
  if (eager_mode)
    world_.eager_lock(dst).unlock();
  return req;
}

void Rank::pipe_put(const Request& req, s4u::Mailbox* mailbox, Channel& channel)
{
  auto& slot = pipes_[req.dst];
  if (not slot) {
    slot = std::make_unique<Pipe>();
    slot->ready = s4u::Semaphore::create(0);
    Pipe* pipe = slot.get();
    World* world = &world_;
    // A daemon: the run ends with the ranks, whatever is still queued for a receiver that never takes it.
    s4u::Actor::create(fmt::format("pipe-{}-{}", rank_, req.dst), host_, [pipe, world] {
      while (true) {
        pipe->ready->acquire();
        Pipe::Item item = pipe->items.front();
        pipe->items.pop_front();
        auto comm = message_put(item.mailbox, item.bytes);
        comm->start();
        world->post_done(*item.channel);
        comm->wait(); // delivered: the next message of the pair may go
      }
    })->daemonize();
  }
  slot->items.push_back(Pipe::Item{mailbox, req.bytes, &channel});
  slot->ready->release();
}

void Rank::send(int dst, Match m, double bytes)
{
  send(dst, m, bytes, SendMode::Standard);
}

RequestPtr Rank::isend(int dst, Match m, double bytes)
{
  return start_send(dst, m, bytes, true);
}

void Rank::send(int dst, Match m, double bytes, SendMode mode)
{
  auto req = start_send(dst, m, bytes, false, mode);
  wait(req);
}

RequestPtr Rank::isend(int dst, Match m, double bytes, SendMode mode)
{
  return start_send(dst, m, bytes, true, mode);
}

double Rank::probe_size(int src, Match m)
{
  // SMPI probes in a loop, each probe computing for a growing multiple of smpi/iprobe seconds.
  auto const& params = world_.params();
  auto& counter = world_.probe_counter();
  double speed = host_->get_speed();
  world_.set_activity(rank_, World::Activity::Probing);
  struct Running { // back to running however the loop ends
    World& w;
    int r;
    ~Running() { w.set_activity(r, World::Activity::Running); }
  } running{world_, rank_};
  while (true) {
    if (params.iprobe_sleep > 0)
      s4u::this_actor::exec_init(counter * params.iprobe_sleep * speed * params.iprobe_cpu_usage)
          ->set_bound(params.iprobe_cpu_usage * speed)
          ->start()
          ->wait();
    auto& ch = channel_from(src, m);
    const auto* pending = not ch.sends_small.empty() ? &ch.sends_small : &ch.sends_large;
    if (not pending->empty()) {
      counter = 1;
      return pending->front()->bytes;
    }
    if (not world_.others_can_progress(rank_))
      throw DeadlockError(fmt::format("receive of unknown size from rank {} with tag {}: no rank can send it", src,
                                      m.tag));
    if (params.grow_injected_times)
      counter++;
  }
}

RequestPtr Rank::irecv(int src, Match m, double bytes)
{
  settle_any_source();
  if (src == kAnySource)
    return irecv_any_source(m, bytes);
  if (bytes < 0)
    bytes = probe_size(src, m);
  auto const& params = world_.params();
  auto req = make_request(Request::Type::Recv, src, rank_, m, bytes);
  req->origin = origin_;
  req->seq = world_.next_seq();
  req->posted_at = s4u::Engine::get_clock();

  auto& ch = channel_from(src, m);
  ch.received++;
  bool eager_mode = params.async_small_thresh > 0;
  bool use_small = false;
  if (eager_mode) {
    // SMPI, under this rank's lock, probes the eager mailbox first, then (for a small receive) the regular
    // one; a small receive that finds nothing waits on the eager mailbox, a large one on the regular one.
    world_.eager_lock(rank_).lock();
    s4u::this_actor::yield();
    if (not ch.sends_small.empty()) {
      use_small = true;
    } else if (bytes < params.async_small_thresh) {
      s4u::this_actor::yield();
      use_small = ch.sends_large.empty();
    }
  }
  if (use_small)
    post(ch.recvs_small, ch.sends_small, req);
  else
    post(ch.recvs_large, ch.sends_large, req);
  ch.in_flight++;
  s4u::Mailbox* mailbox = use_small ? world_.small_mailbox(ch) : world_.large_mailbox(ch);
  req->comm = mailbox->get_async<void>(&req->envelope);
  world_.post_done(ch);
  if (eager_mode)
    world_.eager_lock(rank_).unlock();
  return req;
}

void Rank::post_irecv_overhead(double bytes)
{
  sleep_if_positive(overheads_.oir(std::max(0.0, bytes)));
}

RequestPtr Rank::irecv_any_source(Match m, double bytes)
{
  if (bytes < 0)
    throw MpiError("a receive from any source must give its size (a negative count is not supported there)");
  // The earliest posted message with this tag waiting for this rank, from whichever source (posting numbers are
  // unique: the order in which the channels are looked at does not matter). Only the channels to this rank are
  // looked at, not one per rank of the run.
  int best = -1;
  std::uint64_t best_seq = std::numeric_limits<std::uint64_t>::max();
  for (const Channel* ch : world_.channels_to(rank_))
    if (ch->match == m)
      for (auto* q : {&ch->sends_large, &ch->sends_small})
        if (not q->empty() && q->front()->seq < best_seq) {
          best_seq = q->front()->seq;
          best = ch->src;
        }
  if (best >= 0)
    return irecv(best, m, bytes);
  auto req = make_request(Request::Type::Recv, kAnySource, rank_, m, bytes);
  req->origin = origin_;
  req->seq = world_.next_seq();
  req->posted_at = s4u::Engine::get_clock();
  any_unbound_.push_back(req);
  return req;
}

s4u::Mailbox* Rank::bind_any_source(int src, Match m, std::uint64_t first_specific_recv, std::uint64_t send_seq)
{
  auto it = std::find_if(any_unbound_.begin(), any_unbound_.end(),
                         [m](const RequestPtr& r) { return r->match == m; });
  if (it == any_unbound_.end() || (*it)->seq > first_specific_recv)
    return nullptr;
  RequestPtr req = *it;
  any_unbound_.erase(it);
  req->src = src;
  req->matched_at = s4u::Engine::get_clock();
  req->partner_seq = send_seq;
  any_bound_.push_back(std::move(req));
  if (sleeping_for_bind_)
    world_.bind_signal(rank_).release();
  return world_.any_source_mailbox(rank_);
}

void Rank::settle_any_source(const Request* req)
{
  while (true) {
    // Gets are posted in binding order, the order the messages entered the FIFO any-source mailbox.
    while (not any_bound_.empty()) {
      RequestPtr bound = any_bound_.front();
      any_bound_.pop_front();
      bound->comm = world_.any_source_mailbox(rank_)->get_async<void>(&bound->envelope);
    }
    if (req == nullptr || req->comm || req->done)
      return;
    // Sleep until a sender binds a request (Actor::suspend would also freeze this rank's transfers).
    sleeping_for_bind_ = true;
    auto held = hold_core(world_.params().busy_wait);
    world_.bind_signal(rank_).acquire();
    release_core(held);
    sleeping_for_bind_ = false;
  }
}

MessageEvent Rank::event(int src, int dst, Match m, double bytes, std::uint64_t id, double time, Origin o) const
{
  return {src, dst, m.tag, bytes, id, time, world_.job(), m.context, o};
}

Channel& Rank::cached_channel(std::array<ChannelSlot, kChannelSlots>& slots, int partner, Match m, int src, int dst)
{
  auto h = static_cast<std::uint32_t>(partner) * 0x9E3779B1U ^ static_cast<std::uint32_t>(m.tag) * 0x85EBCA77U ^
           static_cast<std::uint32_t>(m.context) * 0xC2B2AE3DU;
  ChannelSlot& slot = slots[(h ^ (h >> 16)) & (kChannelSlots - 1)];
  if (slot.channel == nullptr || slot.partner != partner || slot.match != m)
    slot = ChannelSlot{partner, m, &world_.channel({m.context, src, dst, m.tag})};
  return *slot.channel;
}

Channel& Rank::channel_to(int dst, Match m)
{
  return cached_channel(sends_to_, dst, m, rank_, dst);
}

Channel& Rank::channel_from(int src, Match m)
{
  return cached_channel(receives_from_, src, m, src, rank_);
}

const s4u::Host* Rank::host_of(int r) const
{
  return world_.rank(r).host();
}

void Rank::recv(int src, Match m, double bytes)
{
  auto req = irecv(src, m, bytes);
  wait(req);
}

void Rank::complete(Request& req)
{
  req.done = true;
  if (req.type != Request::Type::Recv) { // a buffered isend pays tit/ois-wait here
    sleep_if_positive(req.completion_cost);
    return;
  }
  double sent = decode_envelope(req.envelope);
  world_.rank(req.src).delivered(req.comm->get_impl());
  if (auto* listener = world_.listener())
    listener->message_received(
        event(req.src, rank_, req.match, sent, req.partner_seq, s4u::Engine::get_clock(), req.origin));
  // A buffered message costs the receiver smpi/or once it has arrived; one of the rank to itself, when tit/os-self
  // is set, cost its whole copy in the send.
  bool copied = req.src == rank_ && overheads_.copies_to_self();
  if (sent < world_.params().detached_thresh && not copied)
    sleep_if_positive(overheads_.orecv(std::min(req.bytes, sent)));
}

void Rank::account_waiting(const Request& req, double wait_start)
{
  if (req.matched_at > wait_start)
    waiting_ += req.matched_at - wait_start;
  note_blocking(req, wait_start);
}

void Rank::note_blocking(const Request& req, double wait_start)
{
  double waited = req.matched_at - wait_start;
  if (waited <= 0 || req.matched_at <= blocking_.release)
    return;
  blocking_.waiting += waited - std::max(0.0, blocking_.release - wait_start);
  blocking_.release = req.matched_at;
  blocking_.on_send = req.type == Request::Type::Send;
  blocking_.collective = req.origin == Origin::Collective;
  blocking_.partner = blocking_.on_send ? req.dst : req.src;
}

void Rank::wait(const RequestPtr& req)
{
  if (req->done)
    return;
  if (req->type == Request::Type::Group) {
    std::vector<RequestPtr> parts = req->parts;
    waitall(parts);
    req->done = true;
    return;
  }
  if (req->type == Request::Type::Send && not req->comm) { // a buffered send: nothing to wait for
    complete(*req);
    return;
  }
  double start = s4u::Engine::get_clock();
  if (not req->comm) {
    world_.set_activity(rank_, World::Activity::Waiting, req.get());
    settle_any_source(req.get());
  }
  world_.set_activity(rank_, World::Activity::Waiting, req.get());
  auto held = hold_core(world_.params().busy_wait);
  req->comm->wait();
  release_core(held);
  world_.set_activity(rank_, World::Activity::Running);
  account_waiting(*req, start);
  complete(*req);
}

void Rank::inject_polling(double seconds)
{
  s4u::this_actor::sleep_for(seconds);
  polling_ += seconds;
  polls_++;
}

void Rank::inject_test_time()
{
  auto const& params = world_.params();
  if (params.test_sleep > 0)
    inject_polling(world_.test_counter() * params.test_sleep);
}

void Rank::account_test(bool completed)
{
  auto& counter = world_.test_counter();
  if (completed)
    counter = 1;
  else if (world_.params().grow_injected_times)
    counter++;
}

bool Rank::test(const RequestPtr& req, const std::function<Traced()>& traced)
{
  if (req->type == Request::Type::Group) { // complete when all its parts are (MPI_Test on the collective)
    test_many(req->parts, TestKind::All);
    req->done = std::all_of(req->parts.begin(), req->parts.end(), [](const RequestPtr& r) { return r->done; });
    return req->done;
  }
  inject_test_time();
  settle_any_source();
  bool flag = req->done || (req->type == Request::Type::Send && not req->comm) || (req->comm && req->comm->test());
  if (flag && not req->done)
    complete(*req);
  if (not flag && traced && traced() == Traced::Completed) { // the traced run's test succeeded: so does this one, later
    wait(req);
    flag = true;
  }
  account_test(flag);
  return flag;
}

namespace {
/// The requests of `reqs` whose traced outcome is Completed, or none when the trace leaves some undecided.
std::vector<RequestPtr> traced_completed(const std::vector<RequestPtr>& reqs, const std::vector<Traced>& traced)
{
  std::vector<RequestPtr> completed;
  for (std::size_t i = 0; i < reqs.size() && i < traced.size(); ++i) {
    if (traced[i] == Traced::Unknown)
      return {};
    if (traced[i] == Traced::Completed)
      completed.push_back(reqs[i]);
  }
  return completed;
}
} // namespace

int Rank::waitany(const std::vector<RequestPtr>& reqs, const std::vector<Traced>* traced)
{
  if (traced != nullptr && traced->size() == reqs.size()) {
    // The traced waitany completed one of the requests no later line names: the replay's picks among those.
    auto completed = traced_completed(reqs, *traced);
    bool narrower = not completed.empty() && completed.size() < reqs.size() &&
                    std::none_of(completed.begin(), completed.end(), [](const RequestPtr& r) { return r->done; });
    if (narrower) {
      int index = waitany(completed);
      if (index < 0)
        return -1;
      auto it = std::find(reqs.begin(), reqs.end(), completed[static_cast<std::size_t>(index)]);
      return static_cast<int>(it - reqs.begin());
    }
  }
  settle_any_source();
  bool any_bound = std::any_of(reqs.begin(), reqs.end(), [](const RequestPtr& r) {
    return r->done || r->comm || r->type == Request::Type::Send;
  });
  if (not any_bound && not reqs.empty()) { // only unbound receives from any source: wait for the first bind
    world_.set_activity(rank_, World::Activity::Waiting, reqs.front().get());
    settle_any_source(reqs.front().get());
  }
  WaitLists lists(wait_comms_, wait_pending_);
  auto& comms = wait_comms_;
  auto& pending = wait_pending_;
  for (auto const& r : reqs) {
    if (r->done)
      continue;
    if (not r->comm) {
      if (r->type == Request::Type::Recv)
        continue; // a receive from any source no sender has bound yet
      complete(*r); // a buffered send is complete as soon as posted
      return static_cast<int>(&r - reqs.data());
    }
    comms.push_back(r->comm);
    pending.push_back(r.get());
  }
  if (comms.empty())
    return -1;
  double start = s4u::Engine::get_clock();
  world_.set_activity(rank_, World::Activity::Waiting, pending);
  auto held = hold_core(world_.params().busy_wait);
  ssize_t index = s4u::Comm::wait_any(comms);
  release_core(held);
  world_.set_activity(rank_, World::Activity::Running);
  Request& done = *pending.at(static_cast<std::size_t>(index));
  account_waiting(done, start);
  complete(done);
  for (std::size_t i = 0; i < reqs.size(); ++i)
    if (reqs[i].get() == &done)
      return static_cast<int>(i);
  return -1;
}

int Rank::test_many(const std::vector<RequestPtr>& reqs, TestKind kind, const TracedAll& traced)
{
  settle_any_source();
  int completed = 0;
  if (kind != TestKind::Any) {
    // As SMPI: MPI_Testall and MPI_Testsome test each request in turn, each test with its own injected time.
    std::vector<Traced> outcomes; // asked once, at the first failed test
    bool asked = false;
    for (std::size_t i = 0; i < reqs.size(); ++i) {
      if (reqs[i]->done)
        continue;
      auto outcome = [&] {
        if (not asked) {
          outcomes = traced();
          asked = true;
        }
        return i < outcomes.size() ? outcomes[i] : Traced::Unknown;
      };
      if (test(reqs[i], traced ? std::function<Traced()>(outcome) : nullptr))
        ++completed;
    }
    return completed;
  }
  if (traced) {
    // The traced testany completed one of the requests no later line names: if the replay's completes none,
    // it waits for the first of those to finish.
    int done = test_many(reqs, TestKind::Any);
    if (done > 0)
      return done;
    auto expected = traced_completed(reqs, traced());
    if (expected.empty() || std::any_of(expected.begin(), expected.end(), [](const RequestPtr& r) { return r->done; }))
      return 0;
    waitany(expected);
    world_.testany_counter() = 1;
    return 1;
  }
  // MPI_Testany: one injected time, from its own counter, if any request has a transfer; then the first
  // finished one in order.
  std::vector<Request*> candidates;
  for (auto const& r : reqs)
    if (not r->done && r->comm)
      candidates.push_back(r.get());
  if (candidates.empty())
    return 0;
  auto const& params = world_.params();
  auto& counter = world_.testany_counter();
  if (params.test_sleep > 0)
    inject_polling(counter * params.test_sleep);
  for (Request* r : candidates)
    if (r->comm->test()) {
      complete(*r);
      counter = 1;
      return 1;
    }
  if (params.grow_injected_times)
    counter++;
  return 0;
}

void Rank::waitall(std::vector<RequestPtr>& reqs)
{
  if (std::any_of(reqs.begin(), reqs.end(), [](const RequestPtr& r) { return r->type == Request::Type::Group; })) {
    std::vector<RequestPtr> flat; // a nonblocking collective completes with its last part
    for (auto const& r : reqs) {
      if (r->type == Request::Type::Group) {
        flat.insert(flat.end(), r->parts.begin(), r->parts.end());
        r->done = true;
      } else {
        flat.push_back(r);
      }
    }
    waitall(flat);
    return;
  }
  double start = s4u::Engine::get_clock();
  // Receives from any source not bound yet: wait until a sender binds each (then it is a regular request).
  for (auto const& r : reqs)
    if (r->type == Request::Type::Recv && not r->done && not r->comm) {
      world_.set_activity(rank_, World::Activity::Waiting, r.get());
      settle_any_source(r.get());
    }
  settle_any_source();
  double last_match = start;
  const Request* last_matched = nullptr;
  WaitLists lists(wait_comms_, wait_pending_);
  auto& comms = wait_comms_;
  auto& pending = wait_pending_;
  while (true) {
    // Like SMPI's waitany: a completed buffered send is taken first, otherwise the first transfer of the
    // list to be over (or already over), which pays its receive overhead before the next round.
    comms.clear();
    pending.clear();
    Request* ready = nullptr;
    for (auto const& r : reqs) {
      if (r->done)
        continue;
      if (not r->comm) {
        ready = r.get();
        break;
      }
      comms.push_back(r->comm);
      pending.push_back(r.get());
    }
    if (ready != nullptr) {
      complete(*ready);
      continue;
    }
    if (comms.empty())
      break;
    world_.set_activity(rank_, World::Activity::Waiting, pending);
    auto held = hold_core(world_.params().busy_wait);
    ssize_t index = s4u::Comm::wait_any(comms);
    release_core(held);
    world_.set_activity(rank_, World::Activity::Running);
    Request& done = *pending.at(static_cast<std::size_t>(index));
    if (done.matched_at > last_match) {
      last_match = done.matched_at;
      last_matched = &done;
    }
    complete(done);
  }
  if (last_match > start)
    waiting_ += last_match - start;
  if (last_matched != nullptr)
    note_blocking(*last_matched, start);
}

void Rank::sendrecv(int dst, double send_bytes, int src, double recv_bytes, Match m)
{
  if (dst == rank_ && src == rank_) { // a local copy: free as in SimGrid, unless tit/local-copy-bw is set
    sleep_if_positive(world_.params().local_copy_time(recv_bytes < 0 ? send_bytes : std::min(send_bytes, recv_bytes)));
    return;
  }
  std::vector<RequestPtr> reqs{start_send(dst, m, send_bytes, true), irecv(src, m, recv_bytes)};
  waitall(reqs);
}

} // namespace tit::mpi

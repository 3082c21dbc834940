#include "replay/rank_actor.hpp"

#include "colls/collectives.hpp"
#include "colls/colls.hpp"
#include "trace/writer.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

#include <algorithm>
#include <optional>

namespace s4u = simgrid::s4u;
using tit::trace::Action;
using tit::trace::Kind;

namespace tit::replay {

std::string RunState::deadlock_report() const
{
  std::string report = "error: the trace deadlocks: no rank can progress. Blocked ranks and their action:";
  for (std::size_t r = 0; r < actors.size(); ++r)
    if (not actors[r]->finished())
      report += fmt::format("\n  rank {} blocked in {}", r, actors[r]->where());
  // A collective some member never reaches: say which ranks ended their trace before it.
  for (auto const& [id, seq] : sequences_) {
    std::size_t furthest = 0;
    for (auto n : seq.next)
      furthest = std::max(furthest, n);
    auto const& members = communicators->get(id).members;
    for (std::size_t i = 0; i < seq.next.size(); ++i) {
      auto r = static_cast<std::size_t>(members[i]);
      if (actors[r]->finished() && seq.next[i] < furthest)
        report += fmt::format("\n  rank {} ended its trace after {} collective(s){}, before collective number {}", r,
                              seq.next[i], id == 0 ? "" : fmt::format(" on communicator {}", id), seq.next[i] + 1);
    }
  }
  if (communicators != nullptr)
    report += communicators->pending();
  // Which outcome the tests took decides which request each later wait takes: say which rule was used.
  if (polled && world != nullptr)
    report += world->params().traced_tests
                  ? "\n  the trace polls (tests or waitAny): they took their traced outcome (tit/traced-tests, the "
                    "default); --cfg=tit/traced-tests:no replays them with the replay's own outcome, as SimGrid's "
                    "replayer"
                  : "\n  the trace polls (tests or waitAny) and --cfg=tit/traced-tests:no gave them the replay's own "
                    "outcome, as SimGrid's replayer: a test that succeeded in the traced run may have failed here and "
                    "left its request to a later wait; the default (tit/traced-tests:yes) takes the traced outcome";
  return report;
}

std::size_t RunState::check_collective(const Communicator& comm, int rank, const Action& a, std::string where)
{
  Kind kind = a.kind;
  int root = a.root;
  auto& seq = sequences_[comm.id];
  if (seq.next.empty())
    seq.next.resize(comm.members.size());
  std::size_t position = seq.next[static_cast<std::size_t>(comm.local_rank(rank))]++;
  bool nonblocking = kind == Kind::NonBlockingCollective;
  bool rooted = trace::is_rooted(nonblocking ? a.blocking : kind);
  std::string name = nonblocking ? "i" + std::string(trace::kind_name(a.blocking)) : std::string(trace::kind_name(kind));
  if (position >= seq.first + seq.calls.size()) {
    seq.calls.push_back({std::move(name), rooted ? root : 0, rooted, rank, std::move(where), 1});
  } else {
    auto& call = seq.calls[position - seq.first];
    if (call.name != name || call.root != (rooted ? root : 0)) {
      auto describe = [](const std::string& n, bool has_root, int r) {
        return has_root ? fmt::format("{} (root {})", n, r) : n;
      };
      throw mpi::MpiError(fmt::format("ranks disagree on their collective number {}{}: rank {} calls {} at {}, rank {} "
                                      "calls {} here",
                                      position + 1, comm.id == 0 ? "" : fmt::format(" on communicator {}", comm.id),
                                      call.rank, describe(call.name, call.rooted, call.root), call.where, rank,
                                      describe(name, rooted, root)));
    }
    call.arrived++;
  }
  while (not seq.calls.empty() && seq.calls.front().arrived == static_cast<int>(comm.members.size())) {
    seq.calls.pop_front();
    seq.first++;
  }
  return position;
}

void RunState::fail(int code, std::string message)
{
  if (exit_code != 0)
    return; // the first error is the one to report
  exit_code = code;
  error = std::move(message);
  s4u::Actor::kill_all();
}

RankActor::RankActor(RunState& run, int rank, s4u::Host* host, std::unique_ptr<trace::RankReader> reader)
    : run_(run), mpi_(*run.world, rank, host), reader_(std::move(reader))
{
  stats_.host = host->get_name();
  handles_[0] = &run.communicators->world();
}

const Communicator& RankActor::comm_of(const Action& a) const
{
  if (a.comm == 0) // nearly every line: no lookup
    return run_.communicators->world();
  auto it = handles_.find(a.comm);
  if (it == handles_.end())
    throw mpi::MpiError(fmt::format("communicator {} is not one of this rank's (never created, or freed)", a.comm));
  return *it->second;
}

int RankActor::p2p_tag(const Action& a)
{
  if (a.comm == 0)
    return a.tag;
  return run_.world->context_tag(comm_of(a).id, a.tag);
}

void RankActor::execute_comm_creation(const Action& a)
{
  if (a.kind == Kind::CommFree) {
    comm_of(a);
    handles_.erase(a.comm);
    return;
  }
  if (not a.comm_args)
    return; // SimGrid's comm_split / comm_dup: no information, no effect (as its replay)
  const Communicator& parent = comm_of(a);
  const Communicator* created = nullptr;
  if (a.kind == Kind::CommCreate) {
    int nth = creates_[{parent.id, a.group}]++;
    bool member = std::find(a.group.begin(), a.group.end(), parent.local_rank(mpi_.rank())) != a.group.end();
    if (member != (a.new_comm != -1))
      throw mpi::MpiError(fmt::format("rank {} is {}in the group it creates, but its new communicator is {}",
                                      mpi_.rank(), member ? "" : "not ", a.new_comm));
    if (member)
      created = run_.communicators->create(parent, a.group, nth);
  } else {
    // comm_dup is a split where every member has the same color, in the parent's order.
    int seq = splits_[parent.id]++;
    bool dup = a.kind == Kind::CommDup;
    current_text_ = fmt::format("{} (waiting for every member of communicator {} to call it)", a.text, a.comm);
    created = run_.communicators->split(parent, seq, mpi_.rank(), dup ? 0 : a.color,
                                        dup ? parent.local_rank(mpi_.rank()) : a.key);
    current_text_.assign(a.text);
  }
  if (created != nullptr)
    handles_[a.new_comm] = created;
}

std::string RankActor::where() const
{
  if (current_file_ == nullptr)
    return fmt::format("{}: before its first action", reader_.file());
  return fmt::format("{}:{}: {}", *current_file_, current_line_, current_text_);
}

void RankActor::remember(const Action& a)
{
  current_text_.assign(a.text);
  current_file_ = a.file;
  current_line_ = a.line;
}

void RankActor::operator()()
{
  try {
    // Like SMPI's replay start: let every rank start, then inject smpi/init (before `init` starts the clock).
    s4u::this_actor::yield();
    if (run_.world->params().init_sleep > 0)
      s4u::this_actor::sleep_for(run_.world->params().init_sleep);
    Action a;
    double pending_flops = 0;
    // Merging consecutive computations saves activities, but rounds differently (about 1e-12), and some
    // traces amplify that: only on request, and never with a per-action log.
    bool merge = run_.merge_computations && run_.actions_log == nullptr && run_.observer == nullptr;
    bool have_pending = false;
    while (reader_.next(a)) {
      remember(a);
      stats_.actions++;
      if (merge && a.kind == Kind::Compute) {
        pending_flops += a.amount;
        have_pending = true;
        continue;
      }
      if (have_pending) {
        compute(pending_flops);
        pending_flops = 0;
        have_pending = false;
      }
      execute(a);
    }
    if (have_pending)
      compute(pending_flops);
    finish_pending();
    stats_.end = s4u::Engine::get_clock();
    stats_.waiting = mpi_.waiting_time();
    finished_ = true;
    run_.world->set_activity(mpi_.rank(), mpi::World::Activity::Finished);
    mpi_.drain_buffered();
  } catch (const trace::TraceError& e) {
    run_.fail(2, e.what());
  } catch (const mpi::DeadlockError& e) {
    run_.fail(3, fmt::format("{}\n  (rank {}: {})", run_.deadlock_report(), mpi_.rank(), e.what()));
  } catch (const mpi::MpiError& e) {
    run_.fail(2, fmt::format("{}:{}: error: {}\n  {}", current_file_ ? *current_file_ : reader_.file(), current_line_,
                             e.what(), current_text_));
  }
}

void RankActor::compute(double flops)
{
  if (not run_.world->params().simulate_computation)
    return;
  double start = s4u::Engine::get_clock();
  // The same activity calls as SMPI (this_actor::execute would add a priority simcall): the order in which
  // ranks act at equal dates must stay SMPI's (see World::prepare).
  s4u::ExecPtr exec = s4u::this_actor::exec_init(flops);
  exec->start();
  if (flops > 0) // this rank is now busy until a later date: its buffered sends are reaped unseen by the others
    mpi_.reap_delivered();
  exec->wait();
  stats_.compute += s4u::Engine::get_clock() - start;
}

void RankActor::execute(const Action& a)
{
  double start = s4u::Engine::get_clock();
  bool is_mpi = true;
  auto* observer = run_.observer;
  if (observer != nullptr) {
    observer->action_begin(mpi_.rank(), a, start);
    mpi_.begin_operation();
    reduction_compute_ = 0;
  }
  bool collective = a.kind == Kind::NonBlockingCollective || trace::is_collective(a.kind);
  switch (a.kind) {
    case Kind::Init:
      stats_.start = start;
      break;
    case Kind::Finalize:
    case Kind::CommSize:
    case Kind::Location:
      break;
    case Kind::CommSplit:
    case Kind::CommDup:
    case Kind::CommCreate:
    case Kind::CommFree:
      execute_comm_creation(a);
      break;
    case Kind::Compute:
      is_mpi = false;
      compute(a.amount);
      break;
    case Kind::Sleep:
      is_mpi = false;
      s4u::this_actor::sleep_for(a.amount);
      stats_.compute += s4u::Engine::get_clock() - start;
      break;
    case Kind::Send:
    case Kind::Isend:
    case Kind::Recv:
    case Kind::Irecv:
    case Kind::SendRecv:
    case Kind::Ssend:
    case Kind::Issend:
    case Kind::Bsend:
    case Kind::Ibsend:
      execute_p2p(a);
      break;
    case Kind::WaitAny:
    case Kind::TestAny:
    case Kind::TestAll:
    case Kind::TestSome:
      execute_any(a);
      break;
    case Kind::NonBlockingCollective:
      execute_nonblocking_collective(a);
      break;
    case Kind::Wait:
      execute_wait(a);
      break;
    case Kind::Test:
      execute_test(a);
      break;
    case Kind::WaitAll: {
      waitall_.clear();
      for (auto& r : pending_)
        if (not r->done)
          waitall_.push_back(r);
      mpi_.waitall(waitall_);
      pending_.clear();
      waitall_.clear();
      break;
    }
    default:
      if (colls::collective_of(a.kind) != nullptr) {
        execute_collective(a);
        break;
      }
      throw mpi::MpiError(fmt::format("action '{}' is recognised but not supported yet (SimGrid's replayer rejects it "
                                      "too; replaying it is planned)",
                                      a.name));
  }
  double end = s4u::Engine::get_clock();
  if (is_mpi)
    stats_.mpi += end - start;
  if (observer != nullptr)
    report(a, start, end, collective);
  if (run_.actions_log != nullptr)
    fmt::print(*run_.actions_log, "{}\t{:.12f}\t{:.12f}\t{}\n", mpi_.rank(), start, end,
               trace::format_action(a, a.dialect)); // from the typed fields, as the trace writer writes it
}

void RankActor::report(const Action& a, double start, double end, bool collective)
{
  timeline::ActionRecord r;
  r.rank = mpi_.rank();
  r.action = &a;
  r.index = records_++;
  r.start = start;
  r.end = end;
  if (collective) {
    r.collective = collective_position_;
    r.comm = collective_comm_;
    Kind k = a.kind == Kind::NonBlockingCollective ? a.blocking : a.kind;
    bool rooted = trace::is_rooted(k);
    auto const& members = run_.communicators->get(collective_comm_).members;
    r.peer = rooted && a.root < static_cast<int>(members.size()) ? members[static_cast<std::size_t>(a.root)] : -1;
    r.bytes = a.bytes;
    r.compute = reduction_compute_;
  } else {
    r.blocking = mpi_.blocking();
    switch (a.kind) {
      case Kind::Send: case Kind::Isend: case Kind::Recv: case Kind::Irecv: case Kind::Ssend: case Kind::Issend:
      case Kind::Bsend: case Kind::Ibsend: case Kind::SendRecv:
        r.peer = a.partner;
        r.bytes = a.bytes;
        break;
      default:
        break;
    }
  }
  run_.observer->action_end(r);
}

colls::Call RankActor::call_of(const Action& a) const
{
  colls::Call call;
  call.size = static_cast<int>(comm_of(a).members.size());
  call.root = a.root;
  call.bytes = a.bytes;
  call.bytes2 = a.bytes2;
  call.send_counts = &a.send_counts;
  call.recv_counts = &a.recv_counts;
  call.datatype_size = a.datatype_size;
  call.selector = &run_.selector;
  return call;
}

void RankActor::execute_nonblocking_collective(const Action& a)
{
  const Communicator& comm = comm_of(a);
  check_counts(a, comm);
  collective_comm_ = comm.id;
  collective_position_ =
      static_cast<std::int64_t>(run_.check_collective(comm, mpi_.rank(), a, fmt::format("{}:{}", *a.file, a.line)));
  auto group = std::make_shared<mpi::Request>();
  group->type = mpi::Request::Type::Group;
  group->tag = colls::kTagNonBlocking - static_cast<int>(a.blocking);
  group->src = group->dst = group->key_src = mpi_.rank();
  group->origin = mpi::Origin::Collective;
  mpi::Rank::CollectiveScope scope(mpi_);
  if (comm.id == 0) {
    group->parts = colls::post_nonblocking(mpi_, static_cast<int>(a.blocking), call_of(a));
  } else {
    colls::SubComm view = view_of(mpi_, *run_.world, comm);
    group->parts = colls::post_nonblocking(view, static_cast<int>(a.blocking), call_of(a));
  }
  pending_.push_back(std::move(group));
}

void RankActor::check_counts(const Action& a, const Communicator& comm) const
{
  auto n = comm.members.size();
  for (auto const* counts : {&a.send_counts, &a.recv_counts})
    if (not counts->empty() && counts->size() != n)
      throw mpi::MpiError(fmt::format("{} counts for a communicator of {} ranks (communicator {} of this rank)",
                                      counts->size(), n, a.comm));
}

void RankActor::execute_collective(const Action& a)
{
  const Communicator& comm = comm_of(a);
  check_counts(a, comm);
  collective_comm_ = comm.id;
  collective_position_ =
      static_cast<std::int64_t>(run_.check_collective(comm, mpi_.rank(), a, fmt::format("{}:{}", *a.file, a.line)));
  auto const& selector = run_.selector;
  colls::Call call = call_of(a);
  const colls::Collective* collective = colls::collective_of(a.kind);
  if (collective == nullptr)
    return;
  colls::Algorithm algorithm = selector.*(collective->slot);
  {
    mpi::Rank::CollectiveScope scope(mpi_);
    if (comm.id == 0) {
      algorithm(mpi_, call);
    } else {
      colls::SubComm view = view_of(mpi_, *run_.world, comm);
      algorithm(view, call);
    }
  }
  // The reduction's own computation runs once the communication is over (as SMPI's replay), always.
  if (collective->reduction && a.amount != 0) {
    double start = s4u::Engine::get_clock();
    s4u::this_actor::exec_init(a.amount)->start()->wait();
    reduction_compute_ = s4u::Engine::get_clock() - start;
    stats_.compute += reduction_compute_;
    stats_.mpi -= reduction_compute_; // counted as computing, not as MPI time
  }
}

void RankActor::execute_p2p(const Action& a)
{
  int n = run_.world->rank_count();
  const Communicator& comm = comm_of(a);
  int tag = p2p_tag(a);
  auto check_rank = [&](int r, const char* what) {
    if (r == trace::kAnySource && std::string_view(what) == "source")
      return;
    if (r < 0 || r >= n)
      throw mpi::MpiError(fmt::format("{} {} is not a rank of this run (0..{})", what, r, n - 1));
    if (comm.id != 0 && comm.local_rank(r) < 0)
      throw mpi::MpiError(fmt::format("{} {} is not a member of communicator {}", what, r, a.comm));
  };
  switch (a.kind) {
    case Kind::Send:
      check_rank(a.partner, "destination");
      mpi_.send(a.partner, tag, a.bytes);
      break;
    case Kind::Isend:
      check_rank(a.partner, "destination");
      pending_.push_back(mpi_.isend(a.partner, tag, a.bytes));
      break;
    case Kind::Recv:
      check_rank(a.partner, "source");
      mpi_.recv(a.partner, tag, a.bytes);
      break;
    case Kind::Irecv:
      check_rank(a.partner, "source");
      pending_.push_back(mpi_.irecv(a.partner, tag, a.bytes));
      break;
    case Kind::Ssend:
    case Kind::Bsend:
      check_rank(a.partner, "destination");
      mpi_.send(a.partner, tag, a.bytes,
                a.kind == Kind::Ssend ? mpi::SendMode::Synchronous : mpi::SendMode::Buffered);
      break;
    case Kind::Issend:
    case Kind::Ibsend:
      check_rank(a.partner, "destination");
      pending_.push_back(mpi_.isend(a.partner, tag, a.bytes,
                                    a.kind == Kind::Issend ? mpi::SendMode::Synchronous : mpi::SendMode::Buffered));
      break;
    case Kind::SendRecv:
      check_rank(a.partner, "destination");
      check_rank(a.partner2, "source");
      mpi_.sendrecv(a.partner, a.bytes, a.partner2, a.bytes2, p2p_tag(a));
      break;
    default:
      break;
  }
}

std::vector<mpi::RequestPtr>::iterator RankActor::find_request(int src, int dst, int tag)
{
  return std::find_if(pending_.begin(), pending_.end(), [&](const mpi::RequestPtr& r) {
    return r->key_src == src && r->dst == dst && r->tag == tag;
  });
}

// A wait or test names its request by (src, dst, tag) on the communicator of the line. Traces of our
// tracer before it wrote `comm=` on these lines (and SimGrid's) name no communicator for a request
// posted on another one: such a line that matches no request of MPI_COMM_WORLD takes the oldest
// pending one with that key on any communicator of the rank. So does a line naming a communicator
// freed since the request was posted (MPI lets a program free it first).
std::vector<mpi::RequestPtr>::iterator RankActor::find_request(const Action& a)
{
  bool named = a.comm == 0 || handles_.contains(a.comm);
  if (named) {
    auto it = find_request(a.src, a.dst, p2p_tag(a));
    if (it != pending_.end() || a.comm != 0)
      return it;
  }
  std::vector<int> tags;
  auto const& all = *run_.communicators;
  for (std::size_t id = 1; id < all.count(); ++id)
    if (all.get(static_cast<int>(id)).local_rank(mpi_.rank()) >= 0)
      tags.push_back(run_.world->context_tag(static_cast<int>(id), a.tag));
  return std::find_if(pending_.begin(), pending_.end(), [&](const mpi::RequestPtr& r) {
    return r->key_src == a.src && r->dst == a.dst && std::find(tags.begin(), tags.end(), r->tag) != tags.end();
  });
}

void RankActor::execute_wait(const Action& a)
{
  mpi::RequestPtr req;
  if (a.wait_last_irecv) {
    // Dialect 1: the most recent Irecv still pending.
    auto it = std::find_if(pending_.rbegin(), pending_.rend(), [](const mpi::RequestPtr& r) {
      return r->type == mpi::Request::Type::Recv && not r->done;
    });
    if (it != pending_.rend()) {
      req = *it;
      pending_.erase(std::next(it).base());
    }
  } else if (auto it = find_request(a); it != pending_.end()) {
    req = *it;
    pending_.erase(it);
  } else if (auto group = oldest_group(a.tag); group != pending_.end()) {
    req = *group;
    pending_.erase(group);
  }
  if (not req) {
    std::string key = fmt::format("wait-unposted {}", mpi_.rank());
    if (not run_.warnings.repeat(key))
      run_.warnings.add(key, fmt::format("{}:{}: warning: rank {} waits for a request it never posted (ignored)\n  {}",
                                         *a.file, a.line, mpi_.rank(), a.text));
    return;
  }
  mpi_.wait(req);
}

// The trace names no request for these: they apply to every request of the rank still pending.
void RankActor::execute_any(const Action& a)
{
  run_.polled = true;
  std::vector<mpi::RequestPtr> reqs;
  for (auto const& r : pending_) {
    if (r->done)
      continue;
    if (r->type == mpi::Request::Type::Group) // waitany/testany see the collective's own requests
      reqs.insert(reqs.end(), r->parts.begin(), r->parts.end());
    else
      reqs.push_back(r);
  }
  switch (a.kind) {
    case Kind::WaitAny:
      if (reqs.empty()) {
        std::string key = fmt::format("waitany-none {}", mpi_.rank());
        if (not run_.warnings.repeat(key))
          run_.warnings.add(key, fmt::format("{}:{}: warning: rank {} waits for any of no pending request (ignored)\n  {}",
                                             *a.file, a.line, mpi_.rank(), a.text));
      }
      break;
    default:
      break;
  }
  bool traced_tests = run_.world->params().traced_tests;
  mpi::Rank::TracedAll traced = nullptr;
  std::vector<mpi::Traced> outcomes; // asked at most once, while the requests are still pending
  if (traced_tests)
    traced = [&] {
      if (outcomes.empty())
        outcomes = traced_outcomes(a, reqs);
      return outcomes;
    };
  switch (a.kind) {
    case Kind::WaitAny:
      if (traced_tests && reqs.size() > 1) {
        traced();
        mpi_.waitany(reqs, &outcomes);
      } else {
        mpi_.waitany(reqs);
      }
      break;
    case Kind::TestAny:
      mpi_.test_many(reqs, mpi::Rank::TestKind::Any, traced);
      break;
    case Kind::TestAll:
      mpi_.test_many(reqs, mpi::Rank::TestKind::All, traced);
      break;
    default:
      mpi_.test_many(reqs, mpi::Rank::TestKind::Some, traced);
      break;
  }
  // A request completed here that no later line names leaves no placeholder (see execute_test).
  if (traced_tests && std::any_of(reqs.begin(), reqs.end(), [](const mpi::RequestPtr& r) { return r->done; })) {
    traced();
    for (std::size_t i = 0; i < reqs.size(); ++i)
      if (reqs[i]->done && outcomes[i] == mpi::Traced::Completed)
        std::erase(pending_, reqs[i]);
  }
  for (auto const& r : pending_)
    if (r->type == mpi::Request::Type::Group)
      r->done = std::all_of(r->parts.begin(), r->parts.end(), [](const mpi::RequestPtr& p) { return p->done; });
}

// SimGrid's tracer names a nonblocking collective's request oddly (its source and destination are
// communicator ranks taken as process ids), but always with a negative tag: such a wait or test that
// matches no key takes the oldest pending nonblocking collective.
std::vector<mpi::RequestPtr>::iterator RankActor::oldest_group(int tag)
{
  if (tag >= 0)
    return pending_.end();
  return std::find_if(pending_.begin(), pending_.end(),
                      [](const mpi::RequestPtr& r) { return r->type == mpi::Request::Type::Group; });
}

void RankActor::execute_test(const Action& a)
{
  run_.polled = true;
  auto it = find_request(a);
  if (it == pending_.end())
    it = oldest_group(a.tag);
  if (it == pending_.end())
    return;
  mpi::RequestPtr req = *it;
  if (req->done) {
    // Completed by an earlier test: SMPI ignores the extra calls. The completed request stays for a later wait
    // or test that names it (the traced run's test failed; the replay's succeeded): no "never posted" warning.
    if (traced_outcomes(a, {req}).front() != mpi::Traced::Pending)
      pending_.erase(it);
    return;
  }
  if (run_.world->params().traced_tests) {
    // The traced outcome is asked (if the test fails) while the request is still among the pending ones.
    std::optional<mpi::Traced> traced;
    auto outcome = [&] {
      if (not traced)
        traced = traced_outcomes(a, {req}).front();
      return *traced;
    };
    bool completed = mpi_.test(req, outcome);
    pending_.erase(std::find(pending_.begin(), pending_.end(), req));
    if (completed && outcome() == mpi::Traced::Completed)
      return; // no later line names it: no placeholder, which a wait for the key's next request would take
    pending_.push_back(std::move(req));
    return;
  }
  mpi_.test(req);
  pending_.erase(std::find(pending_.begin(), pending_.end(), req));
  // Like SMPI, the request (or its completed placeholder) goes back behind the others of its key.
  pending_.push_back(std::move(req));
}

// A test (or waitany) completed in the traced run the requests that no later line of the trace names before
// their key is posted again or the trace ends; a request a later wait or test names was still pending. Several
// pending requests of one key, a waitall or test/wait of several requests coming first, or no decision within
// the look-ahead window leave the outcome Unknown: the replay's own outcome then stands.
std::vector<mpi::Traced> RankActor::traced_outcomes(const Action& a, const std::vector<mpi::RequestPtr>& reqs)
{
  std::vector<mpi::Traced> traced(reqs.size(), mpi::Traced::Unknown);
  std::vector<TraceKey> keys;
  std::vector<std::size_t> asked;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const mpi::Request& r = *reqs[i];
    if (r.type == mpi::Request::Type::Group || r.origin != mpi::Origin::User)
      continue;
    auto same_key = [&](const mpi::RequestPtr& p) {
      return p->key_src == r.key_src && p->dst == r.dst && p->tag == r.tag;
    };
    if (std::count_if(pending_.begin(), pending_.end(), same_key) > 1)
      continue;
    keys.push_back({r.key_src, r.dst, run_.world->context_of(r.tag).second});
    asked.push_back(i);
  }
  if (keys.empty())
    return traced;
  std::vector<Fate> fates = reader_.fates(mpi_.rank(), keys);
  for (std::size_t k = 0; k < keys.size(); ++k)
    traced[asked[k]] = fates[k] == Fate::Named       ? mpi::Traced::Pending
                       : fates[k] == Fate::Forgotten ? mpi::Traced::Completed
                                                     : mpi::Traced::Unknown;
  // Only with tit/traced-tests does an unknown outcome change anything (by default it is SimGrid's rule).
  if (reader_.window_exhausted() && run_.world->params().traced_tests) {
    std::string key = fmt::format("lookahead {}", mpi_.rank());
    if (not run_.warnings.repeat(key))
      run_.warnings.add(key, fmt::format("{}:{}: warning: rank {}: the next {} actions neither name nor post again "
                                         "a request this line tests or waits for: its traced outcome is unknown, "
                                         "the replay's own stands\n  {}",
                                         *a.file, a.line, mpi_.rank(), reader_.window(), a.text));
  }
  return traced;
}

void RankActor::finish_pending()
{
  std::vector<mpi::RequestPtr> reqs;
  for (auto& r : pending_)
    if (not r->done)
      reqs.push_back(r);
  bool barrier = run_.world->params().finalization_barrier;
  if (reqs.empty() && not barrier) {
    pending_.clear();
    return;
  }
  // Reported as one more action, so that every rank's records cover its whole run.
  Action pseudo;
  pseudo.kind = Kind::WaitAll;
  pseudo.name = "end_of_trace";
  pseudo.text = "end_of_trace (waits for the requests still pending, then the finalization barrier if any)";
  pseudo.file = current_file_;
  pseudo.line = current_line_;
  double start = s4u::Engine::get_clock();
  if (run_.observer != nullptr) {
    run_.observer->action_begin(mpi_.rank(), pseudo, start);
    mpi_.begin_operation();
  }
  if (not reqs.empty()) {
    current_text_ = fmt::format("(end of its trace, waiting for {} request(s) it never waited for)", reqs.size());
    mpi_.waitall(reqs);
  }
  pending_.clear();
  if (barrier) {
    current_text_ = "(end of its trace, in the smpi/finalization-barrier)";
    mpi::Rank::CollectiveScope scope(mpi_);
    run_.selector.barrier(mpi_, colls::Call{.size = run_.world->rank_count()}); // SimGrid uses the selected barrier
  }
  if (run_.observer != nullptr) {
    timeline::ActionRecord r;
    r.rank = mpi_.rank();
    r.action = &pseudo;
    r.index = records_++;
    r.start = start;
    r.end = s4u::Engine::get_clock();
    r.blocking = mpi_.blocking();
    r.end_of_trace = true;
    run_.observer->action_end(r);
  }
}

} // namespace tit::replay

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
namespace {

/// The MPI layer's send mode of a kind's trait.
mpi::SendMode send_mode(trace::SendMode mode)
{
  switch (mode) {
    case trace::SendMode::Synchronous:
      return mpi::SendMode::Synchronous;
    case trace::SendMode::Buffered:
      return mpi::SendMode::Buffered;
    default:
      return mpi::SendMode::Standard;
  }
}

} // namespace

RankActor::RankActor(RunState& run, int rank, s4u::Host* host, std::unique_ptr<trace::RankReader> reader)
    : run_(run), mpi_(*run.world, rank, host), reader_(std::move(reader))
{
  stats_.host = host->get_name();
  handles_[0] = &run.communicators->world();
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
    // tit/rank-start: this rank left MPI_Init later than the first one did in the run the trace comes from (a time
    // below SimGrid's precision is none: SimGrid cannot sleep for less, and logs each attempt)
    if (double start = run_.world->params().start_of(mpi_.rank()); start >= run_.world->params().time_precision)
      s4u::this_actor::sleep_for(start);
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
    stats_.polling = mpi_.polling_time();
    stats_.polls = mpi_.polls();
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

// ---- dispatch: one handler per kind, chosen from the trace model's kind traits --------------------------

constexpr RankActor::DispatchTable RankActor::dispatch_table()
{
  DispatchTable table{};
  for (std::size_t i = 0; i < trace::kKindCount; ++i) {
    auto kind = static_cast<Kind>(i);
    switch (trace::traits(kind).group) {
      case trace::Group::Lifecycle:
        table[i] = kind == Kind::Init ? &RankActor::execute_init : &RankActor::execute_nothing;
        break;
      case trace::Group::Communicator:
        table[i] = &RankActor::execute_comm_creation;
        break;
      case trace::Group::Local:
        table[i] = kind == Kind::Compute ? &RankActor::execute_compute : &RankActor::execute_sleep;
        break;
      case trace::Group::Message:
      case trace::Group::SendRecv:
        table[i] = &RankActor::execute_p2p;
        break;
      case trace::Group::Completion:
        table[i] = kind == Kind::Wait      ? &RankActor::execute_wait
                   : kind == Kind::Test    ? &RankActor::execute_test
                   : kind == Kind::WaitAll ? &RankActor::execute_waitall
                                           : &RankActor::execute_any;
        break;
      case trace::Group::Collective:
        table[i] = &RankActor::execute_collective;
        break;
      case trace::Group::NonBlockingCollective:
        table[i] = &RankActor::execute_nonblocking_collective;
        break;
      case trace::Group::Persistent:
        table[i] = &RankActor::execute_unsupported;
        break;
    }
  }
  return table;
}

const RankActor::DispatchTable RankActor::kDispatch = RankActor::dispatch_table();

void RankActor::execute_init(const Action&)
{
  stats_.start = s4u::Engine::get_clock();
}

void RankActor::execute_nothing(const Action&) {}

void RankActor::execute_compute(const Action& a)
{
  compute(a.amount);
}

void RankActor::execute_sleep(const Action& a)
{
  double start = s4u::Engine::get_clock();
  s4u::this_actor::sleep_for(a.amount);
  stats_.compute += s4u::Engine::get_clock() - start;
}

void RankActor::execute_waitall(const Action&)
{
  waitall_.clear();
  for (auto& r : pending_)
    if (not r->done)
      waitall_.push_back(r);
  mpi_.waitall(waitall_);
  pending_.clear();
  waitall_.clear();
}

void RankActor::execute_unsupported(const Action& a)
{
  throw mpi::MpiError(fmt::format("action '{}' is recognised but not supported yet (SimGrid's replayer rejects it "
                                  "too; replaying it is planned)",
                                  a.name));
}

void RankActor::execute(const Action& a)
{
  double start = s4u::Engine::get_clock();
  auto* observer = run_.observer;
  if (observer != nullptr) {
    observer->action_begin(mpi_.rank(), a, start);
    mpi_.begin_operation();
    reduction_compute_ = 0;
  }
  auto const& traits = trace::traits(a.kind);
  bool collective = traits.group == trace::Group::Collective || traits.group == trace::Group::NonBlockingCollective;
  bool is_mpi = traits.group != trace::Group::Local;
  if (observer != nullptr) {
    posted_ = 0;
    if (traits.group == trace::Group::Completion)
      watch(a);
  }
  (this->*kDispatch[static_cast<std::size_t>(a.kind)])(a);
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
    auto group = trace::traits(a.kind).group;
    if (group == trace::Group::Message || group == trace::Group::SendRecv) {
      r.peer = a.partner;
      r.bytes = a.bytes;
    }
    if (group == trace::Group::Completion) {
      auto k = a.kind;
      r.requests = outcomes(k == Kind::Test || k == Kind::TestAny || k == Kind::TestAll || k == Kind::TestSome);
    }
  }
  r.posted = posted_;
  run_.observer->action_end(r);
}

void RankActor::execute_p2p(const Action& a)
{
  int n = run_.world->rank_count();
  const Communicator& comm = comm_of(a);
  mpi::Match match = p2p_match(a);
  auto check_rank = [&](int r, const char* what) {
    if (r == trace::kAnySource && std::string_view(what) == "source")
      return;
    if (r < 0 || r >= n)
      throw mpi::MpiError(fmt::format("{} {} is not a rank of this run (0..{})", what, r, n - 1));
    if (comm.id != 0 && comm.local_rank(r) < 0)
      throw mpi::MpiError(fmt::format("{} {} is not a member of communicator {}", what, r, a.comm));
  };
  if (a.kind == Kind::SendRecv) {
    check_rank(a.partner, "destination");
    check_rank(a.partner2, "source");
    mpi_.sendrecv(a.partner, a.bytes, a.partner2, a.bytes2, match);
    return;
  }
  auto const& t = trace::traits(a.kind); // one message: send, recv and their variants
  check_rank(a.partner, t.sends ? "destination" : "source");
  if (t.sends) {
    auto mode = send_mode(t.mode);
    if (t.nonblocking)
      post(a, mpi_.isend(a.partner, match, a.bytes, mode));
    else
      mpi_.send(a.partner, match, a.bytes, mode);
  } else if (t.nonblocking) {
    mpi_.post_irecv_overhead(a.bytes);
    post(a, mpi_.irecv(a.partner, match, a.bytes));
  } else {
    mpi_.recv(a.partner, match, a.bytes);
  }
}

// A request of the trace joins the rank's pending ones under the key its line gives it.
void RankActor::post(const Action& a, mpi::RequestPtr req)
{
  req->key = trace::posted_key(a, mpi_.rank());
  req->handle = posted_ = ++handles_posted_;
  pending_.push_back(std::move(req));
}

} // namespace tit::replay

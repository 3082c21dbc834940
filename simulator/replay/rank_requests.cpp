// A rank's requests: which request a wait or test line names, and wait, test, waitany and the test variants on
// them; the requests still pending at the end of the trace.
#include "replay/rank_actor.hpp"

#include <fmt/format.h>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>

namespace s4u = simgrid::s4u;
using tit::trace::Action;
using tit::trace::Kind;

namespace tit::replay {

// A wait or test names its request by its key (trace::named_request, the rule tit-trace proxy's checker and
// runtime follow too), among the pending ones in SMPI's order: posting order, a tested request put back behind
// the others (execute_test).
std::vector<mpi::RequestPtr>::iterator RankActor::find_request(const Action& a)
{
  auto i = trace::named_request(
      pending_, trace::named_key(a), [](const mpi::RequestPtr& r) -> const trace::MessageKey& { return r->key; },
      [](const mpi::RequestPtr& r) { return r->type == mpi::Request::Type::Group; });
  return pending_.begin() + static_cast<std::ptrdiff_t>(i);
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

void RankActor::execute_test(const Action& a)
{
  run_.polled = true;
  auto it = find_request(a);
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

void RankActor::watch(const Action& a)
{
  watched_.clear();
  if (a.kind == Kind::Test) { // the one it names (a wait names one too, but completes only that one: see outcomes)
    if (auto it = find_request(a); it != pending_.end() && not(*it)->done)
      watched_.push_back(*it);
    return;
  }
  for (auto const& r : pending_)
    if (not r->done)
      watched_.push_back(r);
}

std::span<const timeline::RequestOutcome> RankActor::outcomes(bool is_test)
{
  outcomes_.clear();
  for (auto const& r : watched_)
    if (r->done || is_test)
      outcomes_.push_back({r->handle, r->done});
  watched_.clear();
  return outcomes_;
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
    watched_ = reqs;
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
    r.requests = outcomes(false);
    run_.observer->action_end(r);
  }
}

} // namespace tit::replay

// A rank's collectives, blocking and nonblocking: the call handed to the algorithm of the run's selector.
#include "replay/rank_actor.hpp"
#include "colls/collectives.hpp"
#include "colls/colls.hpp"

#include <fmt/format.h>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>

#include <algorithm>

namespace s4u = simgrid::s4u;
using tit::trace::Action;
using tit::trace::Kind;

namespace tit::replay {

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
  group->match.tag = colls::kTagNonBlocking - static_cast<int>(a.blocking);
  group->src = group->dst = mpi_.rank();
  group->key = {a.comm, mpi_.rank(), mpi_.rank(), group->match.tag};
  group->origin = mpi::Origin::Collective;
  group->handle = posted_ = ++handles_posted_;
  mpi::Rank::CollectiveScope scope(mpi_);
  if (comm.id == 0) {
    group->parts = colls::post_nonblocking(mpi_, static_cast<int>(a.blocking), call_of(a));
  } else {
    colls::SubComm view = view_of(mpi_, comm);
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
  if (colls::collective_of(a.kind) == nullptr)
    execute_unsupported(a);
  const Communicator& comm = comm_of(a);
  check_counts(a, comm);
  collective_comm_ = comm.id;
  collective_position_ =
      static_cast<std::int64_t>(run_.check_collective(comm, mpi_.rank(), a, fmt::format("{}:{}", *a.file, a.line)));
  auto const& selector = run_.selector;
  colls::Call call = call_of(a);
  const colls::Collective* collective = colls::collective_of(a.kind);
  colls::Algorithm algorithm = selector.*(collective->slot);
  {
    mpi::Rank::CollectiveScope scope(mpi_);
    if (comm.id == 0) {
      algorithm(mpi_, call);
    } else {
      colls::SubComm view = view_of(mpi_, comm);
      algorithm(view, call);
    }
  }
  // tit/coll-overhead: the library's own time in the call beyond the algorithm's messages.
  if (double extra = run_.world->params().coll_overhead(trace::kind_name(a.kind), a.bytes); extra > 0)
    s4u::this_actor::sleep_for(extra);
  // The reduction's own computation runs once the communication is over (as SMPI's replay), always.
  if (collective->reduction && a.amount != 0) {
    double start = s4u::Engine::get_clock();
    s4u::this_actor::exec_init(a.amount)->start()->wait();
    reduction_compute_ = s4u::Engine::get_clock() - start;
    stats_.compute += reduction_compute_;
    stats_.mpi -= reduction_compute_; // counted as computing, not as MPI time
  }
}

} // namespace tit::replay

// A rank's communicators: the communicator a line acts on, the matching context of its point-to-point tags,
// and comm_split / comm_dup / comm_create / comm_free.
#include "replay/rank_actor.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace s4u = simgrid::s4u;
using tit::trace::Action;
using tit::trace::Kind;

namespace tit::replay {

const Communicator& RankActor::comm_of(const Action& a) const
{
  if (a.comm == 0) // nearly every line: no lookup
    return run_.communicators->world();
  auto it = handles_.find(a.comm);
  if (it == handles_.end())
    throw mpi::MpiError(fmt::format("communicator {} is not one of this rank's (never created, or freed)", a.comm));
  return *it->second;
}

mpi::Match RankActor::p2p_match(const Action& a) const
{
  return {comm_of(a).id, a.tag};
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

} // namespace tit::replay

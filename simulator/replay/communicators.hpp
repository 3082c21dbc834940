// Communicators of the replay: MPI_COMM_WORLD and those the traces create (tit-replay's tracer extension:
// comm_split, comm_dup, comm_create with their arguments), and a view that runs collective algorithms on one.
#pragma once

#include "colls/subcomm.hpp"
#include "mpi/world.hpp"

#include <simgrid/s4u/Semaphore.hpp>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace tit::replay {

struct Communicator {
  int id = 0;               ///< 0 = MPI_COMM_WORLD; the same on every member
  std::vector<int> members; ///< world ranks, in communicator rank order
  /// The communicator rank of world rank `r`, or -1 when it is not a member. Every collective asks it once per
  /// rank: constant time on MPI_COMM_WORLD, logarithmic on others (a scan of the members made it O(ranks)).
  int local_rank(int r) const;
  /// Builds what local_rank looks in; called once `members` is set.
  void index();

private:
  bool identity_ = false;                        ///< members[i] == i for every i (MPI_COMM_WORLD)
  std::vector<std::pair<int, int>> by_world_;    ///< otherwise (world rank, communicator rank), sorted
};

/// Every communicator of a run. Creations are collective: comm_split and comm_dup wait until every member of
/// the parent has called them (as MPI), then each gets the group of its color; creating takes no simulated time
/// otherwise (SimGrid 3.32's replay gives these calls no cost either).
class Communicators {
public:
  explicit Communicators(int world_size);
  const Communicator& world() const { return *all_.front(); }
  const Communicator& get(int id) const { return *all_.at(static_cast<std::size_t>(id)); }
  std::size_t count() const { return all_.size(); }

  /// `rank` (world) splits `parent` as its `seq`-th creation on it; blocks until every member did. Returns the
  /// new communicator, or nullptr for color -1 (MPI_UNDEFINED).
  const Communicator* split(const Communicator& parent, int seq, int rank, int color, int key);
  /// comm_create / comm_create_group: the group is given (parent ranks, in order); no rendez-vous needed. `nth`
  /// tells apart the repeated creations of the same group on the same parent.
  const Communicator* create(const Communicator& parent, const std::vector<int>& group, int nth);

  /// The ranks blocked in a creation, with what they wait for (deadlock reports).
  std::string pending() const;

private:
  struct Split {
    std::vector<std::tuple<int, int, int>> entries; ///< (color, key, parent rank) of the members arrived
    std::map<int, const Communicator*> result;      ///< per color, once every member arrived
    bool resolved = false;
    int waiting = 0;                     ///< members blocked until the last one arrives
    simgrid::s4u::SemaphorePtr arrived;  ///< released once per waiting member by the last one
  };
  const Communicator* add(std::vector<int> members);
  std::vector<std::unique_ptr<Communicator>> all_;
  std::map<std::pair<int, int>, Split> splits_; ///< (parent id, creation number) -> state
  std::map<std::tuple<int, std::vector<int>, int>, const Communicator*> created_;
};

/// One rank's view of a communicator: communicator ranks become world ranks and its tags are matched in the
/// communicator's own context (mpi::Match{id, tag}), so its messages never match another's.
colls::SubComm view_of(mpi::Rank& rank, const Communicator& comm);

} // namespace tit::replay

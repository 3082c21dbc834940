// Wait-state analysis of a simulated run: Scalasca's patterns computed on the simulated timeline, the
// critical path, and the delay costs (root causes) of the waiting time.
#pragma once

#include "trace/action.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tit::analysis {

/// Where a waiting time comes from (Scalasca's names). Collective patterns are computed on collective
/// instances (who entered when), never on the internal messages of their algorithms.
enum class Pattern : std::uint8_t {
  None,
  LateSender,            ///< a receive (or its wait) started before the matching send was posted
  LateReceiver,          ///< a rendez-vous send (or its wait) started before the matching receive was posted
  WaitAtNxN,             ///< allreduce, allgather(v), alltoall(v), reducescatter: until the last rank enters
  WaitAtBarrier,         ///< barrier: until the last rank enters
  LateBroadcast,         ///< bcast, scatter(v) on a non-root: until the root enters
  EarlyReduce,           ///< reduce, gather(v) on the root: until the first other rank enters
  EarlyScan,             ///< scan, exscan: until the last lower rank enters
  NonBlockingCollective, ///< a wait on a nonblocking collective: until the partner of its last message posted
  Count
};
std::string_view pattern_name(Pattern p);

/// One action of one rank, as the analysis keeps it.
struct Activity {
  double start = 0;
  double end = 0;
  double compute = 0;         ///< busy part (compute, sleep; a reduction's own computation)
  double waiting = 0;         ///< point-to-point and waits: the blocked part (collectives: computed here)
  double release = -1;        ///< when the waiting ended: the post time of the partner that released it
  int partner = -1;           ///< that partner (the cause of the waiting), -1 when none
  std::int64_t collective = -1; ///< blocking collectives: position in the sequence of collectives of `comm`
  int comm = 0;               ///< the communicator of a collective (0 = MPI_COMM_WORLD)
  int root = -1;
  trace::Kind kind = trace::Kind::Init;
  Pattern pattern = Pattern::None; ///< point-to-point: filled by the recorder; collectives: here
  std::uint32_t name = 0;     ///< index into Input::names
  std::uint64_t line = 0;
  double duration() const { return end - start; }
};

/// A user message: its sender's action and its receiver's action (synchronisation points for delay costs).
struct Message {
  int src = 0;
  int dst = 0;
  std::uint32_t src_index = 0;
  std::uint32_t dst_index = 0;
};

enum class DelayModel : std::uint8_t {
  Proportional, ///< Böhme et al.: a wait state's cost spread over every delay of the delayer in proportion
  LocalFirst,   ///< Viehhauser: the delayer's own wait states absorb the cost first, the rest proportionally
};

struct Input {
  std::vector<std::vector<Activity>> ranks;
  std::vector<std::string> names; ///< action names
  std::vector<std::string> hosts;
  std::vector<Message> messages;
  double end_time = 0;       ///< the simulated end (absolute time of the last rank's end)
  double simulated_time = 0; ///< the prediction as the replay reports it
};

struct Breakdown {
  double busy = 0;
  double communication = 0; ///< in MPI, not waiting: overheads and transfers
  double waiting = 0;
  std::map<std::string, double> by_pattern;
};

struct Cost {
  double short_term = 0;
  double long_term = 0;
  double total() const { return short_term + long_term; }
};

struct Result {
  double simulated_time = 0;
  DelayModel model = DelayModel::Proportional;
  std::vector<std::string> hosts;
  std::vector<double> elapsed;           ///< per rank: its first action's start to its last action's end
  std::vector<Breakdown> per_rank;
  std::map<std::string, Breakdown> per_action; ///< by action name
  Breakdown total;
  // critical path
  double path_length = 0;
  std::vector<double> path_by_rank;
  std::map<std::string, double> path_by_action;
  // delay costs: per rank, and per (rank, activity)
  std::vector<Cost> cost_by_rank;
  std::map<std::pair<int, std::string>, Cost> cost_by_cause;
  double total_cost = 0;
};

/// Computes everything. Fills the collective activities' waiting, pattern and cause.
Result analyse(Input& input, DelayModel model);

} // namespace tit::analysis

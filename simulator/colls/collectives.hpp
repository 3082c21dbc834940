// The collectives, one row each: what the replay, the selectors, the options and the wait-state analysis
// know of a collective. Adding a collective: its trace::Kind and the line forms that read it
// (libs/trace: action.hpp, actions_simgrid.cpp, actions_thesis.cpp), one row here with its Selector
// slot, and its algorithm files (each selector's choice included).
#pragma once

#include "colls/colls.hpp"
#include "trace/action.hpp"

#include <string_view>

namespace tit::colls {

/// Who waits for whom in a collective, as the wait-state analysis sees it.
enum class Flow : std::uint8_t {
  Barrier,  ///< nobody leaves before the last one enters
  OneToAll, ///< the root's data goes out: everyone waits for the root (late broadcast)
  AllToOne, ///< data goes to the root: the root waits for everyone (early reduce)
  Prefix,   ///< rank r waits for ranks below it (early scan)
  AllToAll, ///< everyone waits for everyone (wait at NxN)
};

struct Collective {
  trace::Kind kind;
  std::string_view name;           ///< the option coll/<name>, the algorithms' registry key
  std::string_view simgrid_option; ///< SimGrid's option of the same setting ("smpi/bcast"); empty: none
  Algorithm Selector::*slot;       ///< its algorithm in a selector
  bool reduction;                  ///< computes the trace's `comp` volume once its messages are over
  Flow flow;
};

inline constexpr Collective kCollectives[] = {
    {trace::Kind::Barrier, "barrier", "smpi/barrier", &Selector::barrier, false, Flow::Barrier},
    {trace::Kind::Bcast, "bcast", "smpi/bcast", &Selector::bcast, false, Flow::OneToAll},
    {trace::Kind::Reduce, "reduce", "smpi/reduce", &Selector::reduce, true, Flow::AllToOne},
    {trace::Kind::AllReduce, "allreduce", "smpi/allreduce", &Selector::allreduce, true, Flow::AllToAll},
    {trace::Kind::Gather, "gather", "smpi/gather", &Selector::gather, false, Flow::AllToOne},
    {trace::Kind::GatherV, "gatherv", "", &Selector::gatherv, false, Flow::AllToOne},
    {trace::Kind::Scatter, "scatter", "smpi/scatter", &Selector::scatter, false, Flow::OneToAll},
    {trace::Kind::ScatterV, "scatterv", "", &Selector::scatterv, false, Flow::OneToAll},
    {trace::Kind::AllGather, "allgather", "smpi/allgather", &Selector::allgather, false, Flow::AllToAll},
    {trace::Kind::AllGatherV, "allgatherv", "smpi/allgatherv", &Selector::allgatherv, false, Flow::AllToAll},
    {trace::Kind::AllToAll, "alltoall", "smpi/alltoall", &Selector::alltoall, false, Flow::AllToAll},
    {trace::Kind::AllToAllV, "alltoallv", "smpi/alltoallv", &Selector::alltoallv, false, Flow::AllToAll},
    {trace::Kind::ReduceScatter, "reducescatter", "smpi/reduce_scatter", &Selector::reducescatter, true,
     Flow::AllToAll},
    {trace::Kind::Scan, "scan", "", &Selector::scan, true, Flow::Prefix},
    {trace::Kind::Exscan, "exscan", "", &Selector::exscan, true, Flow::Prefix},
};

/// The row of a blocking collective kind, or nullptr for another kind.
constexpr const Collective* collective_of(trace::Kind kind)
{
  for (const Collective& c : kCollectives)
    if (c.kind == kind)
      return &c;
  return nullptr;
}

/// The row named `name` (coll/<name>), or nullptr.
constexpr const Collective* collective_named(std::string_view name)
{
  for (const Collective& c : kCollectives)
    if (c.name == name)
      return &c;
  return nullptr;
}

} // namespace tit::colls

#include "colls/registry.hpp"

#include "colls/collectives.hpp"

#include "colls/mpich_all.hpp"
#include "colls/mpich_smp.hpp"
#include "colls/ompi_all.hpp"
#include "colls/ompi_gather.hpp"
#include "colls/ompi_rooted.hpp"

#include <fmt/core.h>
#include <xbt/config.hpp>

namespace tit::colls {
namespace {

Algorithm* slot(Selector& s, const std::string& collective)
{
  const Collective* c = collective_named(collective);
  return c == nullptr ? nullptr : &(s.*(c->slot));
}

std::string names_of(const std::string& collective)
{
  std::string names;
  for (auto const& a : algorithms())
    if (collective == a.collective)
      names += (names.empty() ? "" : ", ") + std::string(a.name);
  return names;
}

/// SimGrid 3.32's default set (the smpi selector's): its algorithm for each collective (for alltoall and reducescatter,
/// a decision), and the algorithms those decisions choose among.
std::vector<AlgorithmInfo> smpi_algorithms()
{
  return {
      {"barrier", "linear", barrier_linear, "Open MPI basic linear through rank 0"},
      {"bcast", "binomial", bcast_binomial, "binomial tree, largest subtree first"},
      {"reduce", "linear", reduce_linear, "every rank sends to the root, received in rank order"},
      {"allreduce", "reduce_bcast", allreduce_reduce_bcast, "linear reduce to 0, then binomial bcast"},
      {"gather", "linear", gather_linear, "every rank sends to the root"},
      {"gatherv", "linear", gatherv_linear, "every rank sends to the root"},
      {"scatter", "linear", scatter_linear, "the root sends to every rank"},
      {"scatterv", "linear", scatterv_linear, "the root sends to every rank"},
      {"allgather", "linear", allgather_linear, "isend and irecv with every other rank"},
      {"allgatherv", "linear", allgatherv_linear, "isend and irecv with every other rank"},
      {"alltoall", "smpi", alltoall_smpi, "Open MPI 4's decision among linear, pairwise and bruck"},
      {"alltoall", "linear", alltoall_linear, "receives from rank+1 upward, sends from rank-1 downward"},
      {"alltoall", "pairwise", alltoall_pairwise, "one sendrecv per step"},
      {"alltoall", "bruck", alltoall_bruck, "log2(p) steps of packed blocks"},
      {"alltoallv", "linear", alltoallv_linear, "receives from everyone, then sends to everyone"},
      {"reducescatter", "smpi", reducescatter_smpi, "equal counts: reduce_scatterv; else MPICH's pair or rdb"},
      {"reducescatter", "reduce_scatterv", reducescatter_reduce_scatterv, "reduce to 0, then scatterv"},
      {"reducescatter", "pair", reducescatter_pair, "MPICH pairwise exchange"},
      {"reducescatter", "recursive_doubling", reducescatter_recursive_doubling, "MPICH recursive doubling"},
      {"scan", "linear", scan_linear, "receive from lower ranks, send to higher ranks"},
      {"exscan", "linear", exscan_linear, "receive from lower ranks, send to higher ranks"},
  };
}

/// Open MPI 4 (SimGrid 3.32's ompi selector): decisions, and the algorithms they choose among.
std::vector<AlgorithmInfo> ompi_algorithms()
{
  return {
      {"bcast", "ompi", bcast_ompi, "Open MPI's decision by size and ranks"},
      {"bcast", "ompi_pipeline", bcast_ompi_pipeline, "segmented chain"},
      {"bcast", "ompi_split_bintree", bcast_ompi_split_bintree, "halves down a binary tree, then exchanged"},
      {"bcast", "NTSL", bcast_ntsl, "8 KiB segments along a ring"},
      {"bcast", "NTSB", bcast_ntsb, "8 KiB segments down a binary heap"},
      {"bcast", "mvapich2_knomial_intra_node", bcast_mvapich2_knomial_intra_node, "4-nomial tree"},
      {"bcast", "scatter_rdb_allgather", bcast_scatter_rdb_allgather, "binomial scatter, recursive-doubling allgather"},
      {"reduce", "ompi", reduce_ompi, "Open MPI's decision by size and ranks"},
      {"reduce", "ompi_basic_linear", reduce_ompi_basic_linear, "blocking sends, received n-1 down to 0"},
      {"reduce", "ompi_chain", reduce_ompi_chain, "n/2 chains, 64 KiB segments"},
      {"reduce", "ompi_pipeline", reduce_ompi_pipeline, "one segmented chain"},
      {"reduce", "ompi_binary", reduce_ompi_binary, "binary tree, 32 KiB segments"},
      {"reduce", "ompi_binomial", reduce_ompi_binomial, "in-order binomial tree"},
      {"reduce", "ompi_in_order_binary", reduce_ompi_in_order_binary, "in-order binary tree"},
      {"allreduce", "ompi", allreduce_ompi, "Open MPI's decision by size and ranks"},
      {"allreduce", "lr", allreduce_lr, "ring reduce-scatter then ring allgather"},
      {"allreduce", "rdb", allreduce_rdb, "recursive doubling"},
      {"allreduce", "rab_rdb", allreduce_rab_rdb, "Rabenseifner: recursive halving then doubling"},
      {"allreduce", "ompi_ring_segmented", allreduce_ompi_ring_segmented, "pipelined ring, 1 MiB segments"},
      {"allreduce", "redbcast", allreduce_redbcast, "ompi reduce to 0, then ompi bcast"},
      {"barrier", "ompi", barrier_ompi, "Open MPI's decision by ranks"},
      {"barrier", "ompi_recursivedoubling", barrier_ompi_recursive_doubling, "recursive doubling"},
      {"barrier", "ompi_bruck", barrier_ompi_bruck, "dissemination"},
      {"barrier", "ompi_two_procs", barrier_ompi_two_procs, "one sendrecv"},
      {"barrier", "ompi_tree", barrier_ompi_tree, "hypercube fan-in then fan-out"},
      {"reducescatter", "ompi", reducescatter_ompi, "Open MPI's decision by size and ranks"},
      {"reducescatter", "ompi_basic_recursivehalving", reducescatter_ompi_recursive_halving, "recursive halving"},
      {"reducescatter", "ompi_ring", reducescatter_ompi_ring, "ring"},
      {"reducescatter", "ompi_butterfly", reducescatter_ompi_butterfly, "Traff's butterfly"},
      {"allgather", "ompi", allgather_ompi, "Open MPI's decision by size and ranks"},
      {"allgather", "bruck", allgather_bruck, "log2(p) sendrecvs of doubling blocks"},
      {"allgather", "rdb", allgather_rdb, "recursive doubling"},
      {"allgather", "ring", allgather_ring, "p-1 sendrecvs around a ring"},
      {"allgather", "ompi_neighborexchange", allgather_ompi_neighborexchange, "two blocks with each neighbour"},
      {"allgather", "pair", allgather_pair, "sendrecv with rank^i (powers of two)"},
      {"allgatherv", "ompi", allgatherv_ompi, "Open MPI's decision by size and ranks"},
      {"allgatherv", "mpich_ring", allgatherv_mpich_ring, "ring pipelined in 256 KiB pieces"},
      {"allgatherv", "ompi_bruck", allgatherv_ompi_bruck, "Bruck with packed blocks"},
      {"allgatherv", "ompi_neighborexchange", allgatherv_ompi_neighborexchange, "two blocks with each neighbour"},
      {"allgatherv", "ring", allgatherv_ring, "p-1 sendrecvs around a ring"},
      {"allgatherv", "pair", allgatherv_pair, "sendrecv with rank^i (powers of two)"},
      {"gather", "ompi", gather_ompi, "Open MPI's decision by size and ranks"},
      {"gather", "ompi_basic_linear", gather_ompi_basic_linear, "blocking sends, received in rank order"},
      {"gather", "ompi_binomial", gather_ompi_binomial, "in-order binomial tree"},
      {"gather", "ompi_linear_sync", gather_ompi_linear_sync, "root-paced, two segments each"},
      {"scatter", "ompi", scatter_ompi, "Open MPI's decision by size and ranks"},
      {"scatter", "ompi_basic_linear", scatter_ompi_basic_linear, "blocking sends in rank order"},
      {"scatter", "ompi_binomial", scatter_ompi_binomial, "in-order binomial tree"},
      {"scatter", "ompi_linear_nb", scatter_ompi_linear_nb, "isends in rank order, then wait for all"},
      {"alltoallv", "ompi", alltoallv_ompi, "Open MPI's decision by ranks"},
      {"alltoallv", "ompi_basic_linear", alltoallv_ompi_basic_linear, "all irecvs, then all isends"},
      {"alltoallv", "pair", alltoallv_pair, "sendrecv with rank^i (powers of two)"},
  };
}

/// MPICH (SimGrid 3.32's mpich selector): decisions, and the algorithms no other set has.
std::vector<AlgorithmInfo> mpich_algorithms()
{
  return {
      {"bcast", "mpich", bcast_mpich, "MPICH's decision; SMP binomial on hosts of equal rank counts"},
      {"bcast", "binomial_tree", bcast_binomial, "SimGrid's name of binomial"},
      {"bcast", "scatter_LR_allgather", bcast_scatter_lr_allgather, "binomial scatter, ring allgather"},
      {"bcast", "SMP_binomial", bcast_smp_binomial, "binomial over host leaders, then within hosts"},
      {"reduce", "mpich", reduce_mpich, "MPICH's decision: MVAPICH2's two-level reduce"},
      {"reduce", "binomial", reduce_binomial, "MPICH's binomial tree"},
      {"reduce", "scatter_gather", reduce_scatter_gather, "Rabenseifner: recursive halving, binomial gather"},
      {"reduce", "mvapich2_two_level", reduce_mvapich2_two_level, "within hosts, then among host leaders"},
      {"reduce", "mvapich2_knomial", reduce_mvapich2_knomial, "4-nomial tree"},
      {"allreduce", "mpich", allreduce_mpich, "MPICH's decision: MVAPICH2's two-level allreduce"},
      {"allreduce", "mvapich2_two_level", allreduce_mvapich2_two_level, "within hosts, among leaders, bcast"},
      {"barrier", "mpich", barrier_ompi_bruck, "MPICH's choice: dissemination (ompi_bruck)"},
      {"alltoall", "mpich", alltoall_mpich, "MPICH's decision among bruck, scatter_dest, pair and ring"},
      {"alltoall", "mvapich2_scatter_dest", alltoall_mvapich2_scatter_dest, "isend/irecv 4 peers at a time"},
      {"alltoall", "ring", alltoall_ring, "sendrecv with rank+i / rank-i"},
      {"alltoallv", "mpich", alltoallv_bruck, "MPICH's choice: bruck"},
      {"alltoallv", "bruck", alltoallv_bruck, "isend/irecv 4 peers at a time"},
      {"allgather", "mpich", allgather_mpich, "MPICH's decision among rdb, bruck and ring"},
      {"allgatherv", "mpich", allgatherv_mpich, "MPICH's decision among mpich_rdb, ompi_bruck and mpich_ring"},
      {"allgatherv", "mpich_rdb", allgatherv_mpich_rdb, "recursive doubling of variable blocks"},
      {"gather", "mpich", gather_ompi_binomial, "MPICH's choice: ompi_binomial"},
      {"scatter", "mpich", scatter_ompi_binomial, "MPICH's choice: ompi_binomial"},
      {"reducescatter", "mpich", reducescatter_mpich, "MPICH's decision: pair or recursive_doubling"},
  };
}

} // namespace

const std::vector<AlgorithmInfo>& algorithms()
{
  static const std::vector<AlgorithmInfo> all = [] {
    std::vector<AlgorithmInfo> v = smpi_algorithms();
    for (const std::vector<AlgorithmInfo>& set : {ompi_algorithms(), mpich_algorithms()})
      v.insert(v.end(), set.begin(), set.end());
    return v;
  }();
  return all;
}

std::vector<std::string> selector_names()
{
  return {"smpi", "ompi", "mpich"};
}

namespace {
/// SimGrid 3.32's ompi selector: Open MPI 4's decisions where it has one, SimGrid's default elsewhere
/// (gatherv, scatterv, scan, exscan have a single algorithm; all-to-all already follows Open MPI).
Selector ompi_selector()
{
  Selector s = smpi_selector();
  s.bcast = bcast_ompi;
  s.reduce = reduce_ompi;
  s.allreduce = allreduce_ompi;
  s.barrier = barrier_ompi;
  s.reducescatter = reducescatter_ompi;
  s.allgather = allgather_ompi;
  s.allgatherv = allgatherv_ompi;
  s.gather = gather_ompi;
  s.scatter = scatter_ompi;
  s.alltoallv = alltoallv_ompi;
  return s;
}

/// SimGrid 3.32's mpich selector (MPICH 3's decisions, with MVAPICH2's SMP-aware bcast, reduce and allreduce
/// on MPI_COMM_WORLD); gatherv, scatterv, scan and exscan keep SimGrid's default algorithms.
Selector mpich_selector()
{
  Selector s = smpi_selector();
  s.bcast = bcast_mpich;
  s.reduce = reduce_mpich;
  s.allreduce = allreduce_mpich;
  s.barrier = barrier_ompi_bruck;
  s.reducescatter = reducescatter_mpich;
  s.allgather = allgather_mpich;
  s.allgatherv = allgatherv_mpich;
  s.gather = gather_ompi_binomial;
  s.scatter = scatter_ompi_binomial;
  s.alltoall = alltoall_mpich;
  s.alltoallv = alltoallv_bruck;
  return s;
}
} // namespace

Selector make_selector(const std::string& selector, const std::map<std::string, std::string>& overrides)
{
  Selector s;
  if (selector == "smpi" || selector == "default")
    s = smpi_selector();
  else if (selector == "ompi")
    s = ompi_selector();
  else if (selector == "mpich")
    s = mpich_selector();
  else
    throw SelectionError(fmt::format("coll/selector '{}' is not available; available: smpi (SimGrid 3.32's default "
                                     "algorithms), ompi (Open MPI 4's decisions), mpich (MPICH's decisions)",
                                     selector));
  for (auto const& [collective, name] : overrides) {
    Algorithm* target = slot(s, collective);
    if (target == nullptr)
      throw SelectionError(fmt::format("unknown collective 'coll/{}'", collective));
    bool found = false;
    for (auto const& a : algorithms())
      if (collective == a.collective && name == a.name) {
        *target = a.function;
        found = true;
      }
    if (not found)
      throw SelectionError(fmt::format("coll/{}: unknown algorithm '{}'; available: {}", collective, name,
                                       names_of(collective)));
  }
  return s;
}

void declare_config_flags()
{
  static bool declared = false;
  if (declared)
    return;
  declared = true;
  simgrid::config::declare_flag<std::string>("coll/selector", "collective algorithm set (smpi, ompi, mpich)", "smpi");
  for (const Collective& c : kCollectives) {
    std::string name(c.name);
    simgrid::config::declare_flag<std::string>("coll/" + name, fmt::format("algorithm of {} ({})", name, names_of(name)),
                                               "");
  }
}

// SimGrid's own names are accepted too (smpi/coll-selector, smpi/bcast, smpi/reduce_scatter, ...), so that
// the options of an smpirun command line work unchanged; ours win when both are set.
Selector selector_from_config(const std::vector<std::string>& settings)
{
  std::map<std::string, std::string> overrides;
  for (const Collective& c : kCollectives) {
    std::string name(c.name);
    auto value = simgrid::config::get_value<std::string>("coll/" + name);
    std::string simgrid_option(c.simgrid_option);
    if (value.empty() && not simgrid_option.empty() && not simgrid::config::is_default(simgrid_option.c_str()))
      value = simgrid::config::get_value<std::string>(simgrid_option);
    if (not value.empty())
      overrides[name] = value;
  }
  std::string selector = simgrid::config::get_value<std::string>("coll/selector");
  if (simgrid::config::is_default("coll/selector") && not simgrid::config::is_default("smpi/coll-selector"))
    selector = simgrid::config::get_value<std::string>("smpi/coll-selector");
  for (auto const& setting : settings) {
    auto colon = setting.find(':');
    std::string name = setting.substr(0, colon);
    if (colon == std::string::npos || name.rfind("coll/", 0) != 0)
      throw SelectionError("setting '" + setting + "' is not a collective setting (coll/selector:SET or "
                           "coll/COLLECTIVE:ALGORITHM)");
    if (name == "coll/selector")
      selector = setting.substr(colon + 1);
    else
      overrides[name.substr(5)] = setting.substr(colon + 1);
  }
  return make_selector(selector, overrides);
}

} // namespace tit::colls

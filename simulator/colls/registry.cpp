#include "colls/registry.hpp"

#include <fmt/core.h>
#include <xbt/config.hpp>

namespace tit::colls {
namespace {

constexpr const char* kCollectives[] = {"barrier",   "bcast",      "reduce",   "allreduce",     "gather",
                                        "gatherv",   "scatter",    "scatterv", "allgather",     "allgatherv",
                                        "alltoall",  "alltoallv",  "reducescatter", "scan",     "exscan"};

Algorithm* slot(Selector& s, const std::string& collective)
{
  static const std::map<std::string, Algorithm Selector::*> slots{
      {"barrier", &Selector::barrier},     {"bcast", &Selector::bcast},
      {"reduce", &Selector::reduce},       {"allreduce", &Selector::allreduce},
      {"gather", &Selector::gather},       {"gatherv", &Selector::gatherv},
      {"scatter", &Selector::scatter},     {"scatterv", &Selector::scatterv},
      {"allgather", &Selector::allgather}, {"allgatherv", &Selector::allgatherv},
      {"alltoall", &Selector::alltoall},   {"alltoallv", &Selector::alltoallv},
      {"reducescatter", &Selector::reducescatter}, {"scan", &Selector::scan},
      {"exscan", &Selector::exscan}};
  auto it = slots.find(collective);
  return it == slots.end() ? nullptr : &(s.*(it->second));
}

std::string names_of(const std::string& collective)
{
  std::string names;
  for (auto const& a : algorithms())
    if (collective == a.collective)
      names += (names.empty() ? "" : ", ") + std::string(a.name);
  return names;
}

} // namespace

const std::vector<AlgorithmInfo>& algorithms()
{
  static const std::vector<AlgorithmInfo> all{
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
  return all;
}

std::vector<std::string> selector_names()
{
  return {"smpi"};
}

Selector make_selector(const std::string& selector, const std::map<std::string, std::string>& overrides)
{
  if (selector != "smpi" && selector != "default")
    throw SelectionError(fmt::format("coll/selector '{}' is not available; available: smpi (SimGrid 3.32's default "
                                     "algorithms; 'ompi' and 'mpich' are planned)",
                                     selector));
  Selector s = smpi_selector();
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
  simgrid::config::declare_flag<std::string>("coll/selector", "collective algorithm set (smpi)", "smpi");
  for (const char* c : kCollectives)
    simgrid::config::declare_flag<std::string>(std::string("coll/") + c,
                                               fmt::format("algorithm of {} ({})", c, names_of(c)), "");
}

// SimGrid's own names are accepted too (smpi/coll-selector, smpi/bcast, smpi/reduce_scatter, ...), so that
// the options of an smpirun command line work unchanged; ours win when both are set.
Selector selector_from_config()
{
  std::map<std::string, std::string> overrides;
  for (const char* c : kCollectives) {
    auto value = simgrid::config::get_value<std::string>(std::string("coll/") + c);
    static const std::map<std::string, std::string> simgrid_names{
        {"gather", "smpi/gather"},       {"allgather", "smpi/allgather"}, {"allgatherv", "smpi/allgatherv"},
        {"allreduce", "smpi/allreduce"}, {"alltoall", "smpi/alltoall"},   {"alltoallv", "smpi/alltoallv"},
        {"reduce", "smpi/reduce"},       {"reducescatter", "smpi/reduce_scatter"},
        {"scatter", "smpi/scatter"},     {"bcast", "smpi/bcast"},         {"barrier", "smpi/barrier"}};
    if (auto it = simgrid_names.find(c); value.empty() && it != simgrid_names.end() &&
                                         not simgrid::config::is_default(it->second.c_str()))
      value = simgrid::config::get_value<std::string>(it->second);
    if (not value.empty())
      overrides[c] = value;
  }
  std::string selector = simgrid::config::get_value<std::string>("coll/selector");
  if (simgrid::config::is_default("coll/selector") && not simgrid::config::is_default("smpi/coll-selector"))
    selector = simgrid::config::get_value<std::string>("smpi/coll-selector");
  return make_selector(selector, overrides);
}

} // namespace tit::colls

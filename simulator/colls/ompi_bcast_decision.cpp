#include "colls/decision.hpp"
#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"

#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

// Open MPI 4's numbering, as SimGrid 3.32 maps it: 1 basic linear -> NTSL, 2 chain and 3 pipeline ->
// ompi_pipeline, 4 split binary tree, 5 binary tree -> NTSB, 6 binomial, 7 knomial -> mvapich2's intra-node
// knomial, 8 scatter-allgather -> scatter_rdb_allgather.
const std::vector<SizeRule>& rules()
{
  const Algorithm linear = bcast_ntsl;
  const Algorithm pipeline = bcast_ompi_pipeline;
  const Algorithm split = bcast_ompi_split_bintree;
  const Algorithm binary = bcast_ntsb;
  const Algorithm binomial = bcast_binomial;
  const Algorithm knomial = bcast_mvapich2_knomial_intra_node;
  const Algorithm scatter = bcast_scatter_rdb_allgather;
  static const std::vector<SizeRule> table{
      {4,
       {{32, pipeline},
        {256, binary},
        {512, pipeline},
        {1024, knomial},
        {32768, linear},
        {131072, binary},
        {262144, pipeline},
        {524288, linear},
        {1048576, binomial},
        {kAnySize, binary}}},
      {8, {{64, binary}, {128, binomial}, {2048, binary}, {8192, binomial}, {1048576, linear}, {kAnySize, pipeline}}},
      {16, {{8, knomial}, {64, binary}, {4096, knomial}, {16384, binary}, {32768, binomial}, {kAnySize, linear}}},
      {32, {{4096, knomial}, {1048576, binomial}, {kAnySize, scatter}}},
      {64, {{2048, binomial}, {kAnySize, knomial}}},
      {128, {{kAnySize, knomial}}},
      {256, {{2, binomial}, {16384, binary}, {32768, linear}, {65536, binary}, {kAnySize, knomial}}},
      {1024, {{16384, knomial}, {32768, split}, {kAnySize, knomial}}},
      {2048, {{524288, knomial}, {kAnySize, scatter}}},
      {4096, {{262144, knomial}, {kAnySize, scatter}}},
      {INT_MAX, {{8192, knomial}, {16384, binary}, {262144, knomial}, {kAnySize, scatter}}},
  };
  return table;
}

} // namespace

void bcast_ompi(mpi::PointToPoint& rank, const Call& call)
{
  std::int64_t total = ompi::type_size(call) * ompi::element_count(call);
  run_decision(rules(), call.size, static_cast<double>(total), rank, call);
}

} // namespace tit::colls

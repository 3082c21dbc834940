#include "colls/decision.hpp"
#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"

#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

// The commutative branch of Open MPI 4's decision (a replay reduces with MPI_OP_NULL). Its "rabenseifner"
// (7) is replaced by the basic linear algorithm in SimGrid 3.32.
const std::vector<SizeRule>& rules()
{
  const Algorithm linear = reduce_ompi_basic_linear;
  const Algorithm chain = reduce_ompi_chain;
  const Algorithm pipeline = reduce_ompi_pipeline;
  const Algorithm binary = reduce_ompi_binary;
  const Algorithm binomial = reduce_ompi_binomial;
  const Algorithm in_order = reduce_ompi_in_order_binary;
  static const std::vector<SizeRule> table{
      {4,
       {{8, linear},
        {16, binary},
        {32, pipeline},
        {262144, linear},
        {524288, pipeline},
        {1048576, chain},
        {kAnySize, pipeline}}},
      {8, {{4096, binary}, {65536, chain}, {262144, binomial}, {524288, linear}, {1048576, binomial}, {kAnySize, linear}}},
      {16, {{8192, binary}, {kAnySize, binomial}}},
      {32, {{4096, binary}, {kAnySize, binomial}}},
      {256, {{kAnySize, binomial}}},
      {512, {{8192, binomial}, {16384, in_order}, {kAnySize, binomial}}},
      {2048, {{kAnySize, binomial}}},
      {4096, {{512, binomial}, {1024, in_order}, {8192, binomial}, {16384, in_order}, {kAnySize, binomial}}},
      {INT_MAX,
       {{16, binomial},
        {32, in_order},
        {1024, binomial},
        {2048, in_order},
        {8192, binomial},
        {16384, in_order},
        {kAnySize, binomial}}},
  };
  return table;
}

} // namespace

void reduce_ompi(mpi::PointToPoint& rank, const Call& call)
{
  std::int64_t total = ompi::type_size(call) * ompi::element_count(call);
  run_decision(rules(), call.size, static_cast<double>(total), rank, call);
}

} // namespace tit::colls

#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {
namespace {

// Receives from every lower rank and sends to every higher one, all posted first, then waited in
// posting order (SimGrid's scan and exscan without a commutative operation, as in a replay).
void linear_prefix(mpi::PointToPoint& rank, const Call& call)
{
  std::vector<mpi::RequestPtr> reqs;
  for (int other = 0; other < rank.rank(); ++other)
    reqs.push_back(rank.irecv(other, kTagScan, call.bytes));
  for (int other = rank.rank() + 1; other < call.size; ++other)
    reqs.push_back(rank.isend(other, kTagScan, call.bytes));
  for (auto& req : reqs)
    rank.wait(req);
}

} // namespace

void scan_linear(mpi::PointToPoint& rank, const Call& call)
{
  linear_prefix(rank, call);
}

void exscan_linear(mpi::PointToPoint& rank, const Call& call)
{
  linear_prefix(rank, call);
}

} // namespace tit::colls

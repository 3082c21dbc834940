// The reduce-scatter by recursive halving that MPICH's Rabenseifner algorithms start with (SimGrid's rab_rdb
// allreduce and scatter_gather reduce), shared by both.
#pragma once

#include "mpi/world.hpp"

#include <functional>
#include <vector>

namespace tit::colls {

/// Bytes of blocks [first, last).
double block_bytes(const std::vector<double>& blocks, int first, int last);

/// The window of blocks a rank holds after the halving: [send_idx, last_idx), with recv_idx as the last step
/// left it (the retracing phases start from there).
struct HalvingWindow {
  int send_idx = 0;
  int recv_idx = 0;
  int last_idx = 0;
};

/// Among `pof2` ranks (this one is `newrank`), at steps mask = 1, 2, ..., pof2/2: exchange with newrank ^ mask
/// (world rank `real_rank(newdst)`) the half of the current window of `blocks` (bytes per block) the partner
/// keeps, with one sendrecv on `tag`.
HalvingWindow reduce_scatter_by_halving(mpi::PointToPoint& rank, int newrank, int pof2,
                                        const std::vector<double>& blocks, const std::function<int(int)>& real_rank,
                                        int tag);

} // namespace tit::colls

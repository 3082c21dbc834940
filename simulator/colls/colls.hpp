// Collective algorithms, each built from the point-to-point operations of mpi::Rank.
#pragma once

namespace tit::mpi {
class Rank;
}

namespace tit::colls {

/// Open MPI's basic linear barrier (SimGrid 3.32's default): non-roots send 0 bytes to rank 0 and wait
/// for its answer; rank 0 receives from everyone, then sends to everyone.
void barrier_linear(mpi::Rank& rank, int size);

} // namespace tit::colls

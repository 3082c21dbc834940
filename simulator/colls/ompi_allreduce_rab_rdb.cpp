#include "colls/halving.hpp"
#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

// Rabenseifner's allreduce as SimGrid's rab_rdb: the non-power-of-two fold of rdb, then on the p' remaining
// ranks a reduce-scatter by recursive halving (partner newrank XOR 1, 2, 4, ...: keep one half of the current
// window, send the other) and an allgather by recursive doubling retracing it (XOR p'/2, ..., 1). The buffer is
// cut into p' blocks of count/p' elements, the last one taking the rest.
void allreduce_rab_rdb(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  int rem = n - pof2;
  int newrank = allreduce_fold_in(rank, call, pof2);
  if (newrank != -1) {
    long long count = element_count(call);
    double element = element_size(call);
    std::vector<double> blocks(static_cast<std::size_t>(pof2), static_cast<double>(count / pof2) * element);
    blocks.back() = static_cast<double>(count - (count / pof2) * (pof2 - 1)) * element;
    auto real_rank = [&](int newdst) { return allreduce_fold_real_rank(newdst, rem); };

    HalvingWindow w = reduce_scatter_by_halving(rank, newrank, pof2, blocks, real_rank, kTagOmpiAllreduce);
    int send_idx = w.send_idx;
    int recv_idx = w.recv_idx;
    int last_idx = w.last_idx;

    for (int mask = pof2 / 2; mask > 0; mask >>= 1) {
      int newdst = newrank ^ mask;
      double send_bytes = 0;
      double recv_bytes = 0;
      if (newrank < newdst) {
        if (mask != pof2 / 2)
          last_idx += pof2 / (mask * 2);
        recv_idx = send_idx + pof2 / (mask * 2);
        send_bytes = block_bytes(blocks, send_idx, recv_idx);
        recv_bytes = block_bytes(blocks, recv_idx, last_idx);
      } else {
        recv_idx = send_idx - pof2 / (mask * 2);
        send_bytes = block_bytes(blocks, send_idx, last_idx);
        recv_bytes = block_bytes(blocks, recv_idx, send_idx);
      }
      int dst = real_rank(newdst);
      rank.sendrecv(dst, send_bytes, dst, recv_bytes, kTagOmpiAllreduce);
      if (newrank > newdst)
        send_idx = recv_idx;
    }
  }
  allreduce_fold_out(rank, call, pof2);
}

} // namespace tit::colls

#include "colls/halving.hpp"

namespace tit::colls {

double block_bytes(const std::vector<double>& blocks, int first, int last)
{
  double total = 0;
  for (int i = first; i < last; ++i)
    total += blocks[static_cast<std::size_t>(i)];
  return total;
}

HalvingWindow reduce_scatter_by_halving(mpi::PointToPoint& rank, int newrank, int pof2,
                                        const std::vector<double>& blocks, const std::function<int(int)>& real_rank,
                                        int tag)
{
  HalvingWindow w;
  w.last_idx = pof2;
  for (int mask = 1; mask < pof2; mask <<= 1) {
    int newdst = newrank ^ mask;
    double send_bytes = 0;
    double recv_bytes = 0;
    if (newrank < newdst) {
      w.send_idx = w.recv_idx + pof2 / (mask * 2);
      send_bytes = block_bytes(blocks, w.send_idx, w.last_idx);
      recv_bytes = block_bytes(blocks, w.recv_idx, w.send_idx);
    } else {
      w.recv_idx = w.send_idx + pof2 / (mask * 2);
      send_bytes = block_bytes(blocks, w.send_idx, w.recv_idx);
      recv_bytes = block_bytes(blocks, w.recv_idx, w.last_idx);
    }
    int dst = real_rank(newdst);
    rank.sendrecv(dst, send_bytes, dst, recv_bytes, tag);
    w.send_idx = w.recv_idx;
    if (mask * 2 < pof2)
      w.last_idx = w.recv_idx + pof2 / (mask * 2);
  }
  return w;
}

} // namespace tit::colls

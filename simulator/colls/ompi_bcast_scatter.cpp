#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

namespace tit::colls::ompi {
namespace {

int lowest_bit(int x) { return x & -x; }

int first_power_of_two_at_least(int n)
{
  int mask = 1;
  while (mask < n)
    mask <<= 1;
  return mask;
}

} // namespace

std::int64_t binomial_scatter_received(int n, int rel, std::int64_t nbytes)
{
  if (rel == 0)
    return nbytes;
  std::int64_t piece = (nbytes + n - 1) / n;
  int mask = lowest_bit(rel);
  int parent = rel - mask;
  std::int64_t held = binomial_scatter_received(n, parent, nbytes);
  // The parent serves its children from its largest subtree down; each send leaves it the pieces below.
  int start = parent == 0 ? first_power_of_two_at_least(n) : lowest_bit(parent);
  for (int m = start >> 1; m > mask; m >>= 1)
    if (parent + m < n && held - piece * m > 0)
      held = piece * m;
  std::int64_t sent = held - piece * mask;
  return sent > 0 ? sent : 0;
}

std::int64_t binomial_scatter(mpi::PointToPoint& rank, int n, int rel, std::int64_t nbytes, int tag,
                              const std::function<int(int)>& peer)
{
  std::int64_t piece = (nbytes + n - 1) / n;
  std::int64_t held = rel == 0 ? nbytes : 0;
  int mask = 1;
  for (; mask < n; mask <<= 1)
    if (rel & mask) {
      std::int64_t posted = nbytes - rel * piece; // more than the parent sends: MPI allows it
      if (posted > 0) {
        rank.recv(peer(rel - mask), tag, static_cast<double>(posted));
        held = binomial_scatter_received(n, rel, nbytes);
      }
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (rel + mask >= n)
      continue;
    std::int64_t send = held - piece * mask;
    if (send > 0) {
      rank.send(peer(rel + mask), tag, static_cast<double>(send));
      held -= send;
    }
  }
  return held;
}

} // namespace tit::colls::ompi

#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <array>
#include <vector>

namespace tit::colls {

// Open MPI's split binary tree: the root cuts the buffer in two halves (the first one the larger) and sends
// the first down its left subtree (odd shifted ranks), the second down its right one (even shifted ranks),
// in segments of 1 KiB (8 KiB from 370728 bytes) with blocking sends; inner ranks keep one receive ahead.
// Then each rank swaps halves with its twin in the other subtree (sendrecv); with an even count of ranks the
// last one, which has no twin, gets the second half from the root.
void bcast_ompi_split_bintree(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  std::int64_t count = ompi::element_count(call);
  std::int64_t ts = ompi::type_size(call);
  if (n == 1)
    return;
  std::int64_t segsize = ts * count < 370728 ? 1024 : 1024 << 3;
  if (segsize < ts)
    segsize = ts;
  std::array<std::int64_t, 2> half{(count + 1) / 2, count / 2};
  std::int64_t per_segment = segsize / ts;
  if (half[0] == 0 || half[1] == 0 || segsize > half[0] * ts || segsize > half[1] * ts) {
    // SimGrid calls its SMP linear bcast here (init_smp, then a pipeline along the hosts). The ompi decision
    // never gets here: it uses this algorithm only from 16384 bytes, two halves of many segments. Not
    // reproduced: the binomial tree stands in.
    bcast_binomial(rank, call);
    return;
  }
  std::array<std::int64_t, 2> segments{(half[0] + per_segment - 1) / per_segment,
                                       (half[1] + per_segment - 1) / per_segment};
  auto bytes = [ts](std::int64_t elements) { return static_cast<double>(elements * ts); };
  auto size_of = [&](int side, std::int64_t seg) {
    return seg == segments[side] - 1 ? half[side] - seg * per_segment : per_segment;
  };
  auto tree = ompi::build_tree(2, n, me, call.root);
  int side = ((me + n - call.root) % n + 1) % 2; // 0: left (first half), 1: right (the root too)

  if (me == call.root) {
    for (std::int64_t seg = 0; seg < segments[0]; ++seg)
      for (std::size_t i = 0; i < tree.next.size() && i < 2; ++i)
        if (seg < segments[i])
          rank.send(tree.next[i], kTagBcast, bytes(size_of(static_cast<int>(i), seg)));
  } else if (not tree.next.empty()) {
    auto base = rank.irecv(tree.prev, kTagBcast, bytes(size_of(side, 0)));
    for (std::int64_t seg = 1; seg < segments[side]; ++seg) {
      auto next = rank.irecv(tree.prev, kTagBcast, bytes(size_of(side, seg)));
      std::vector<mpi::RequestPtr> one{base}; // SimGrid: a waitall of one request
      rank.waitall(one);
      for (int child : tree.next)
        rank.send(child, kTagBcast, bytes(per_segment));
      base = next;
    }
    std::vector<mpi::RequestPtr> one{base};
    rank.waitall(one);
    for (int child : tree.next)
      rank.send(child, kTagBcast, bytes(size_of(side, segments[side] - 1)));
  } else {
    for (std::int64_t seg = 0; seg < segments[side]; ++seg)
      rank.recv(tree.prev, kTagBcast, bytes(size_of(side, seg)));
  }

  int twin = side == 0 ? (me + 1) % n : (me + n - 1) % n;
  int last = (call.root + n - 1) % n;
  if (n % 2 != 0) {
    if (me != call.root)
      rank.sendrecv(twin, bytes(half[side]), twin, bytes(half[side ^ 1]), kTagBcast);
  } else if (me == call.root) {
    rank.send(last, kTagBcast, bytes(half[1]));
  } else if (me == last) {
    rank.recv(call.root, kTagBcast, bytes(half[1]));
  } else {
    rank.sendrecv(twin, bytes(half[side]), twin, bytes(half[side ^ 1]), kTagBcast);
  }
}

} // namespace tit::colls

#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <cstdint>

namespace tit::colls {
namespace {

/// `count` elements cut into `parts` pieces, the first count % parts of them one element larger.
struct Split {
  long long early, late, first_late;
  Split(long long count, long long parts)
      : early(count / parts + (count % parts != 0 ? 1 : 0)), late(count / parts), first_late(count % parts)
  {
  }
  long long of(long long i) const { return i < first_late ? early : late; }
};

} // namespace

// Open MPI's segmented ring (SimGrid's ompi_ring_segmented): the buffer cut in one block per rank, each
// block in num_phases segments of about 1 MiB. Each phase is a ring reduce-scatter of one segment per block:
// receive from the left into two alternating irecvs while sending (blocking) to the right. Then a ring
// all-gather of whole blocks by sendrecv. Below size x segment elements it is the plain ring (allreduce_lr).
void allreduce_ompi_ring_segmented(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  long long count = element_count(call);
  if (n == 1 || count == 0) // SimGrid divides by zero on an empty buffer; nothing to send here
    return;
  int me = rank.rank();
  double element = element_size(call);

  // The segment: 1 MiB in elements, rounded to the nearest (Open MPI's COLL_TUNED_COMPUTED_SEGCOUNT).
  constexpr std::uint64_t kSegsize = 1 << 20;
  auto type_bytes = static_cast<std::uint64_t>(element);
  long long segcount = count;
  if (kSegsize >= type_bytes && kSegsize < type_bytes * static_cast<std::uint64_t>(segcount)) {
    segcount = static_cast<long long>(kSegsize / type_bytes);
    if (kSegsize - static_cast<std::uint64_t>(segcount) * type_bytes > (type_bytes >> 1))
      ++segcount;
  }
  if (count < n * segcount)
    return allreduce_lr(rank, call);

  long long phase_span = n * segcount;
  long long num_phases = count / phase_span;
  if (count % phase_span >= n && count % phase_span > phase_span / 2)
    ++num_phases;

  Split blocks(count, n);
  Split first_block(blocks.early, num_phases);
  double max_segment = static_cast<double>(first_block.early) * element;
  auto segment = [&](int block, long long phase) {
    return static_cast<double>(Split(blocks.of(block), num_phases).of(phase)) * element;
  };

  int right = (me + 1) % n;
  int left = (me + n - 1) % n;
  for (long long phase = 0; phase < num_phases; ++phase) {
    mpi::RequestPtr reqs[2];
    int inbi = 0;
    reqs[inbi] = rank.irecv(left, kTagOmpiAllreduce, max_segment);
    rank.send(right, kTagOmpiAllreduce, segment(me, phase));
    for (int k = 2; k < n; ++k) {
      int prevblock = (me + n - k + 1) % n;
      inbi ^= 1;
      reqs[inbi] = rank.irecv(left, kTagOmpiAllreduce, max_segment);
      rank.wait(reqs[inbi ^ 1]);
      rank.send(right, kTagOmpiAllreduce, segment(prevblock, phase));
    }
    rank.wait(reqs[inbi]);
  }

  for (int k = 0; k < n - 1; ++k) {
    int send_data_from = (me + 1 + n - k) % n;
    rank.sendrecv(right, static_cast<double>(blocks.of(send_data_from)) * element, left,
                  static_cast<double>(blocks.early) * element, kTagOmpiAllreduce);
  }
}

} // namespace tit::colls

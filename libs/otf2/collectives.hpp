// An OTF2 collective record (MpiCollectiveEnd: operation, root, bytes sent and received by this rank) as the
// arguments of a dialect-2 collective line. OTF2 gives each rank's totals in Score-P's convention (e.g. a
// broadcast's root sends n x the buffer); this inverts it. What the totals do not say (a v-collective's
// per-rank counts, the datatype, a reduction's computation) is chosen as docs/otf2.md says.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <string>

namespace tit::otf2 {

struct CollectiveRecord {
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
  int size = 1;          ///< members of the communicator
  int me = 0;            ///< this rank's rank in it
  std::uint32_t root = OTF2_UNDEFINED_UINT32;
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
};

struct CollectiveLine {
  enum class Status { Line, Skip, Unsupported } status = Status::Line;
  std::string text; ///< Line: "<name> <arguments>" (datatype ids of MPI_BYTE); Unsupported: the operation's name
};

CollectiveLine collective_line(const CollectiveRecord& c);

} // namespace tit::otf2

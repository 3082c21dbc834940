// Score-P's totals (scorep_mpi_coll bytes functions, non-in-place) inverted into one rank's collective line.
#include "collectives.hpp"

#include <fmt/format.h>

namespace tit::otf2 {
namespace {

using Status = CollectiveLine::Status;

/// `total` / `parts` as a byte count ("0" when there are no parts).
double share(std::uint64_t total, int parts) { return parts > 0 ? static_cast<double>(total) / parts : 0.0; }

/// n copies of `value`, blank-separated.
std::string repeated(double value, int n)
{
  std::string out;
  for (int i = 0; i < n; ++i)
    out += (i == 0 ? "" : " ") + fmt::format("{}", value);
  return out;
}

std::uint32_t root_of(const CollectiveRecord& c) { return c.root < static_cast<std::uint32_t>(c.size) ? c.root : 0; }

bool at_root(const CollectiveRecord& c) { return static_cast<std::uint32_t>(c.me) == root_of(c); }

CollectiveLine line(std::string text) { return CollectiveLine{Status::Line, std::move(text)}; }

CollectiveLine rooted(const CollectiveRecord& c)
{
  const int n = c.size;
  const std::uint32_t root = root_of(c);
  switch (c.op) {
  case OTF2_COLLECTIVE_OP_BCAST: // root: sent n.B, received B; others: received B
    return line(fmt::format("bcast {} {} 6", static_cast<double>(c.received), root));
  case OTF2_COLLECTIVE_OP_REDUCE: // every rank sends B; the root receives n.B
    return line(fmt::format("reduce {} 0 {} 6", static_cast<double>(c.sent), root));
  case OTF2_COLLECTIVE_OP_GATHER: // every rank sends B
    return line(fmt::format("gather {0} {0} {1} 6 6", static_cast<double>(c.sent), root));
  case OTF2_COLLECTIVE_OP_SCATTER: // every rank receives B
    return line(fmt::format("scatter {0} {0} {1} 6 6", static_cast<double>(c.received), root));
  case OTF2_COLLECTIVE_OP_GATHERV: // the root's total received, shared evenly
    return line(fmt::format("gatherv {} {} {} 6 6", static_cast<double>(c.sent),
                            repeated(at_root(c) ? share(c.received, n) : static_cast<double>(c.sent), n), root));
  case OTF2_COLLECTIVE_OP_SCATTERV:
    return line(fmt::format("scatterv {} {} {} 6 6",
                            repeated(at_root(c) ? share(c.sent, n) : static_cast<double>(c.received), n),
                            static_cast<double>(c.received), root));
  default:
    return CollectiveLine{Status::Unsupported, ""};
  }
}

CollectiveLine unrooted(const CollectiveRecord& c)
{
  const int n = c.size;
  switch (c.op) {
  case OTF2_COLLECTIVE_OP_BARRIER:
    return line("barrier");
  case OTF2_COLLECTIVE_OP_ALLREDUCE: // sent n.B
    return line(fmt::format("allreduce {} 0 6", share(c.sent, n)));
  case OTF2_COLLECTIVE_OP_ALLTOALL:
    return line(fmt::format("alltoall {} {} 6 6", share(c.sent, n), share(c.received, n)));
  case OTF2_COLLECTIVE_OP_ALLGATHER:
    return line(fmt::format("allgather {} {} 6 6", share(c.sent, n), share(c.received, n)));
  case OTF2_COLLECTIVE_OP_ALLTOALLV:
  case OTF2_COLLECTIVE_OP_ALLTOALLW:
    return line(fmt::format("alltoallv {} {} {} {} 6 6", static_cast<double>(c.sent), repeated(share(c.sent, n), n),
                            static_cast<double>(c.received), repeated(share(c.received, n), n)));
  case OTF2_COLLECTIVE_OP_ALLGATHERV: // sent n x its own contribution
    return line(fmt::format("allgatherv {} {} 6 6", share(c.sent, n), repeated(share(c.received, n), n)));
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: // sent: the sum of the counts
    return line(fmt::format("reducescatter {} 0 6", repeated(share(c.sent, n), n)));
  case OTF2_COLLECTIVE_OP_SCAN: // received (me+1).B
    return line(fmt::format("scan {} 0 6", share(c.received, c.me + 1)));
  case OTF2_COLLECTIVE_OP_EXSCAN: // received me.B, sent (n-me-1).B
    return line(fmt::format("exscan {} 0 6", c.me > 0 ? share(c.received, c.me) : share(c.sent, n - 1)));
  default:
    return rooted(c);
  }
}

std::string_view op_name(OTF2_CollectiveOp op)
{
  switch (op) {
  case OTF2_COLLECTIVE_OP_CREATE_HANDLE: return "CREATE_HANDLE";
  case OTF2_COLLECTIVE_OP_DESTROY_HANDLE: return "DESTROY_HANDLE";
  case OTF2_COLLECTIVE_OP_ALLOCATE: return "ALLOCATE";
  case OTF2_COLLECTIVE_OP_DEALLOCATE: return "DEALLOCATE";
  case OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE: return "CREATE_HANDLE_AND_ALLOCATE";
  case OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE: return "DESTROY_HANDLE_AND_DEALLOCATE";
  default: return "unknown";
  }
}

} // namespace

CollectiveLine collective_line(const CollectiveRecord& c)
{
  // Communicators are created at the start of each rank from their definitions: the records of their creation
  // and destruction carry no data.
  if (c.op == OTF2_COLLECTIVE_OP_CREATE_HANDLE || c.op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE)
    return CollectiveLine{Status::Skip, ""};
  CollectiveLine out = unrooted(c);
  if (out.status == Status::Unsupported)
    out.text = fmt::format("collective operation {} ({})", static_cast<int>(c.op), op_name(c.op));
  return out;
}

} // namespace tit::otf2

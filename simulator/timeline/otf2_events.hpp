// What the OTF2 writer keeps of a replayed action until the run ends (the sizes of a collective on a
// sub-communicator need its member count, known once every rank has replayed): its region, its times and the MPI
// records it makes. Internal to otf2_writer.cpp and otf2_archive.cpp.
#pragma once

#include "core/error.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <stdexcept>

namespace tit::timeline {
/// The archive of --otf2 cannot be written.
class Otf2Error : public tit::Error {
public:
  using tit::Error::Error;
};
} // namespace tit::timeline

namespace tit::timeline::otf2_out {

/// One MPI record of an action, in the terms of OTF2's event records.
struct Record {
  enum class Type : std::uint8_t {
    Send, Isend, IsendComplete, Recv, IrecvRequest, Irecv, Test, Collective,
    NbcRequest,  ///< NonBlockingCollectiveRequest (the call that starts a nonblocking collective)
    NbcComplete, ///< NonBlockingCollectiveComplete (the wait or test that completes it): the collective's fields
  };
  Type type = Type::Send;
  int peer = 0;            ///< world rank (point-to-point)
  int tag = 0;
  std::uint64_t bytes = 0;
  std::uint64_t request = 0;
  // collectives, turned into Score-P's totals once the communicator's members are known
  int kind = 0;            ///< trace::Kind of the collective (the blocking form's, for a nonblocking one)
  int comm = 0;            ///< the replay's communicator id (0 = MPI_COMM_WORLD)
  int root = -1;           ///< rooted collectives: the root's rank in the communicator
  double bytes1 = 0, bytes2 = 0;        ///< Action::bytes, bytes2
  double send_sum = 0, recv_sum = 0;    ///< sums of send_counts, recv_counts
  double recv_mine = 0;                 ///< reducescatter: this rank's own count (set once `me` is known)
  std::vector<double> recv_counts{};    ///< reducescatter: every rank's count
};

/// One replayed action: Enter(region), its records, Leave(region).
struct Item {
  double start = 0;
  double end = 0;
  std::uint32_t region = 0;
  std::vector<Record> records;
};

/// The archive's content: every rank's items, the regions they name, the hosts, the sub-communicators' members.
struct Run {
  std::vector<std::string> hosts;           ///< rank r's host
  std::vector<std::vector<Item>> ranks;
  std::vector<std::string> regions;         ///< region names by id
  std::vector<bool> region_is_mpi;
  double simulated_time = 0;
};

/// Writes `run` as the OTF2 archive DIR/traces.otf2. Throws Otf2Error when OTF2 cannot write it.
void write_archive(const std::string& dir, const Run& run);

} // namespace tit::timeline::otf2_out

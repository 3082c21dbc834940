// Writing the OTF2 archive of a simulated run (otf2_events.hpp): events per rank, then the global definitions (the
// hosts as the system tree, one process per rank, the regions, MPI_COMM_WORLD and the sub-communicators on which
// collectives ran). Collective sizes follow Score-P's convention (libs/otf2/collectives.cpp reads them back).
#include "timeline/otf2_events.hpp"

#include "trace/action.hpp"

#include <fmt/format.h>
#include <otf2/otf2.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace tit::timeline::otf2_out {
namespace {

using trace::Kind;

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
OTF2_FlushCallbacks kFlush = {pre_flush, post_flush};

constexpr double kTicks = 1e9; // nanoseconds

OTF2_TimeStamp ticks(double seconds) { return static_cast<OTF2_TimeStamp>(std::llround(seconds * kTicks)); }
std::uint64_t bytes(double b) { return b > 0 ? static_cast<std::uint64_t>(std::llround(b)) : 0; }

void check(OTF2_ErrorCode status, std::string_view what)
{
  if (status != OTF2_SUCCESS)
    throw Otf2Error(fmt::format("error: cannot write the OTF2 archive: {}: {}", what,
                                         OTF2_Error_GetDescription(status)));
}

/// The members of each communicator collectives ran on: MPI_COMM_WORLD's ranks, and for another, the ranks that
/// called collectives on it, in rank order (docs/otf2.md: the order of a split's keys is not known here).
std::map<int, std::vector<int>> communicators(const Run& run)
{
  std::map<int, std::set<int>> seen;
  for (std::size_t r = 0; r < run.ranks.size(); ++r)
    for (const Item& item : run.ranks[r])
      for (const Record& rec : item.records)
        if ((rec.type == Record::Type::Collective || rec.type == Record::Type::NbcComplete) && rec.comm != 0)
          seen[rec.comm].insert(static_cast<int>(r));
  std::map<int, std::vector<int>> out;
  std::vector<int> world(run.ranks.size());
  for (std::size_t r = 0; r < world.size(); ++r)
    world[r] = static_cast<int>(r);
  out[0] = world;
  for (auto const& [id, members] : seen)
    out[id] = std::vector<int>(members.begin(), members.end());
  return out;
}

/// Score-P's (sent, received) totals of a collective for rank `me` of `n` (libs/otf2/collectives.cpp inverts them).
std::pair<double, double> totals(const Record& c, int n, int me)
{
  const double b = c.bytes1, b2 = c.bytes2;
  const bool root = me == c.root;
  switch (static_cast<Kind>(c.kind)) {
  case Kind::Bcast: return {root ? n * b : 0, b};
  case Kind::Reduce: return {b, root ? n * b : 0};
  case Kind::AllReduce: return {n * b, n * b};
  case Kind::AllToAll: case Kind::AllGather: return {n * b, n * b2};
  case Kind::Gather: return {b, root ? n * b2 : 0};
  case Kind::Scatter: return {root ? n * b : 0, b2};
  case Kind::AllToAllV: return {c.send_sum, c.recv_sum};
  case Kind::GatherV: return {b, root ? c.recv_sum : 0};
  case Kind::ScatterV: return {root ? c.send_sum : 0, b2};
  case Kind::AllGatherV: return {n * b, c.recv_sum};
  case Kind::ReduceScatter: {
    double mine = me < static_cast<int>(c.recv_counts.size()) ? c.recv_counts[static_cast<std::size_t>(me)] : 0;
    return {c.recv_sum, n * mine};
  }
  case Kind::Scan: return {(n - me) * b, (me + 1) * b};
  case Kind::Exscan: return {(n - me - 1) * b, me * b};
  default: return {0, 0};
  }
}

OTF2_CollectiveOp op_of(Kind k)
{
  switch (k) {
  case Kind::Bcast: return OTF2_COLLECTIVE_OP_BCAST;
  case Kind::Reduce: return OTF2_COLLECTIVE_OP_REDUCE;
  case Kind::AllReduce: return OTF2_COLLECTIVE_OP_ALLREDUCE;
  case Kind::AllToAll: return OTF2_COLLECTIVE_OP_ALLTOALL;
  case Kind::AllToAllV: return OTF2_COLLECTIVE_OP_ALLTOALLV;
  case Kind::Gather: return OTF2_COLLECTIVE_OP_GATHER;
  case Kind::Scatter: return OTF2_COLLECTIVE_OP_SCATTER;
  case Kind::AllGather: return OTF2_COLLECTIVE_OP_ALLGATHER;
  case Kind::GatherV: return OTF2_COLLECTIVE_OP_GATHERV;
  case Kind::ScatterV: return OTF2_COLLECTIVE_OP_SCATTERV;
  case Kind::AllGatherV: return OTF2_COLLECTIVE_OP_ALLGATHERV;
  case Kind::ReduceScatter: return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
  case Kind::Scan: return OTF2_COLLECTIVE_OP_SCAN;
  case Kind::Exscan: return OTF2_COLLECTIVE_OP_EXSCAN;
  default: return OTF2_COLLECTIVE_OP_BARRIER;
  }
}

struct Writer {
  OTF2_Archive* archive = nullptr;
  std::map<int, std::vector<int>> comms; ///< replay id -> members; OTF2 comm ref = position in this map
  std::map<int, OTF2_CommRef> comm_refs;
  std::vector<std::uint64_t> events;     ///< per rank
};

void write_record(OTF2_EvtWriter* w, Writer& out, int rank, OTF2_TimeStamp t, const Record& rec)
{
  switch (rec.type) {
  case Record::Type::Send: OTF2_EvtWriter_MpiSend(w, nullptr, t, rec.peer, 0, rec.tag, rec.bytes); break;
  case Record::Type::Isend: OTF2_EvtWriter_MpiIsend(w, nullptr, t, rec.peer, 0, rec.tag, rec.bytes, rec.request); break;
  case Record::Type::IsendComplete: OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, rec.request); break;
  case Record::Type::Recv: OTF2_EvtWriter_MpiRecv(w, nullptr, t, rec.peer, 0, rec.tag, rec.bytes); break;
  case Record::Type::IrecvRequest: OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, rec.request); break;
  case Record::Type::Irecv: OTF2_EvtWriter_MpiIrecv(w, nullptr, t, rec.peer, 0, rec.tag, rec.bytes, rec.request); break;
  case Record::Type::Test: OTF2_EvtWriter_MpiRequestTest(w, nullptr, t, rec.request); break;
  case Record::Type::NbcRequest: OTF2_EvtWriter_NonBlockingCollectiveRequest(w, nullptr, t, rec.request); break;
  case Record::Type::Collective:
  case Record::Type::NbcComplete: {
    const std::vector<int>& members = out.comms.at(rec.comm);
    auto me = static_cast<int>(std::find(members.begin(), members.end(), rank) - members.begin());
    auto [sent, received] = totals(rec, static_cast<int>(members.size()), me);
    auto root = rec.root >= 0 ? static_cast<uint32_t>(rec.root) : OTF2_UNDEFINED_UINT32;
    if (rec.type == Record::Type::NbcComplete) {
      OTF2_EvtWriter_NonBlockingCollectiveComplete(w, nullptr, t, op_of(static_cast<Kind>(rec.kind)),
                                                   out.comm_refs.at(rec.comm), root, bytes(sent), bytes(received),
                                                   rec.request);
      break;
    }
    OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t);
    OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t, op_of(static_cast<Kind>(rec.kind)), out.comm_refs.at(rec.comm),
                                    root, bytes(sent), bytes(received));
    break;
  }
  }
}

void write_events(const Run& run, Writer& out)
{
  check(OTF2_Archive_OpenEvtFiles(out.archive), "opening the event files");
  out.events.assign(run.ranks.size(), 0);
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(out.archive, r);
    if (w == nullptr)
      throw Otf2Error(fmt::format("error: cannot write the OTF2 archive: no event writer for rank {}", r));
    for (const Item& item : run.ranks[r]) {
      OTF2_TimeStamp start = ticks(item.start), end = std::max(start, ticks(item.end));
      OTF2_EvtWriter_Enter(w, nullptr, start, item.region);
      for (const Record& rec : item.records) {
        write_record(w, out, static_cast<int>(r), end, rec);
        out.events[r] += rec.type == Record::Type::Collective ? 2 : 1;
      }
      OTF2_EvtWriter_Leave(w, nullptr, end, item.region);
      out.events[r] += 2;
    }
    check(OTF2_Archive_CloseEvtWriter(out.archive, w), "closing an event writer");
  }
  check(OTF2_Archive_CloseEvtFiles(out.archive), "closing the event files");
}

/// Global strings, each written once.
class Strings {
public:
  explicit Strings(OTF2_GlobalDefWriter* g) : g_(g) {}
  OTF2_StringRef operator()(const std::string& s)
  {
    auto [it, added] = refs_.emplace(s, static_cast<OTF2_StringRef>(refs_.size()));
    if (added)
      check(OTF2_GlobalDefWriter_WriteString(g_, it->second, s.c_str()), "a string");
    return it->second;
  }

private:
  OTF2_GlobalDefWriter* g_;
  std::map<std::string, OTF2_StringRef> refs_;
};

/// The platform as the system tree (one node per host) and one process with one thread per rank.
void write_system(const Run& run, const Writer& out, OTF2_GlobalDefWriter* g, Strings& str)
{
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str("simulated platform"), str("platform"),
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "the system tree");
  std::map<std::string, OTF2_SystemTreeNodeRef> hosts;
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    const std::string host = r < run.hosts.size() ? run.hosts[r] : std::string("host");
    auto [it, added] = hosts.emplace(host, static_cast<OTF2_SystemTreeNodeRef>(hosts.size() + 1));
    if (added)
      check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, it->second, str(host), str("node"), 0), "a host");
    check(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, str(fmt::format("MPI Rank {}", r)),
                                                  OTF2_LOCATION_GROUP_TYPE_PROCESS, it->second,
                                                  OTF2_UNDEFINED_LOCATION_GROUP),
          "a process");
    check(OTF2_GlobalDefWriter_WriteLocation(g, r, str("Master thread"), OTF2_LOCATION_TYPE_CPU_THREAD,
                                             out.events[r], r),
          "a location");
  }
}

/// MPI_COMM_WORLD's locations, then each communicator's group and definition.
void write_comms(const Run& run, const Writer& out, OTF2_GlobalDefWriter* g, Strings& str)
{
  std::vector<std::uint64_t> locations(run.ranks.size());
  for (std::size_t r = 0; r < locations.size(); ++r)
    locations[r] = r;
  check(OTF2_GlobalDefWriter_WriteGroup(g, 0, str("MPI_COMM_WORLD locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        static_cast<uint32_t>(locations.size()), locations.data()),
        "the locations of MPI_COMM_WORLD");
  for (auto const& [id, members] : out.comms) {
    OTF2_CommRef ref = out.comm_refs.at(id);
    std::vector<std::uint64_t> ranks(members.begin(), members.end());
    std::string name = id == 0 ? std::string("MPI_COMM_WORLD") : fmt::format("communicator {}", id);
    check(OTF2_GlobalDefWriter_WriteGroup(g, ref + 1, str(name + " group"), OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                          static_cast<uint32_t>(ranks.size()), ranks.data()),
          "a communicator's group");
    check(OTF2_GlobalDefWriter_WriteComm(g, ref, str(name), ref + 1, id == 0 ? OTF2_UNDEFINED_COMM : 0,
                                         OTF2_COMM_FLAG_NONE),
          "a communicator");
  }
}

void write_definitions(const Run& run, Writer& out)
{
  check(OTF2_Archive_OpenDefFiles(out.archive), "opening the local definition files");
  for (std::size_t r = 0; r < run.ranks.size(); ++r) // empty, as readers expect one per location
    check(OTF2_Archive_CloseDefWriter(out.archive, OTF2_Archive_GetDefWriter(out.archive, r)),
          "a local definition file");
  check(OTF2_Archive_CloseDefFiles(out.archive), "closing the local definition files");
  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(out.archive);
  if (g == nullptr)
    throw Otf2Error("error: cannot write the OTF2 archive's global definitions");
  check(OTF2_GlobalDefWriter_WriteClockProperties(g, static_cast<uint64_t>(kTicks), 0,
                                                  ticks(run.simulated_time) + 1, OTF2_UNDEFINED_TIMESTAMP),
        "the clock");
  Strings str(g);
  for (std::size_t i = 0; i < run.regions.size(); ++i) {
    OTF2_StringRef name = str(run.regions[i]);
    check(OTF2_GlobalDefWriter_WriteRegion(g, static_cast<OTF2_RegionRef>(i), name, name, str(""),
                                           OTF2_REGION_ROLE_FUNCTION,
                                           run.region_is_mpi[i] ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                           OTF2_REGION_FLAG_NONE, str(""), 0, 0),
          "a region");
  }
  write_system(run, out, g, str);
  write_comms(run, out, g, str);
}

} // namespace

void write_archive(const std::string& dir, const Run& run)
{
  Writer out;
  out.comms = communicators(run);
  OTF2_CommRef next = 0;
  for (auto const& [id, members] : out.comms)
    out.comm_refs[id] = next++;
  out.archive = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                  OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (out.archive == nullptr)
    throw Otf2Error(fmt::format("error: cannot write the OTF2 archive '{}'", dir));
  try {
    check(OTF2_Archive_SetFlushCallbacks(out.archive, &kFlush, nullptr), "flush callbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(out.archive), "collective callbacks");
    write_events(run, out);
    write_definitions(run, out);
  } catch (...) {
    OTF2_Archive_Close(out.archive);
    throw;
  }
  check(OTF2_Archive_Close(out.archive), "closing the archive");
}

} // namespace tit::timeline::otf2_out

// The OTF2 writer's observer side: each replayed action becomes an Item (its region and MPI records, requests
// paired with their completions where the simulated run completed them); otf2_archive.cpp writes them when the run
// ends.
#include "timeline/otf2_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <stdexcept>

namespace tit::timeline {
namespace {

using trace::Kind;
using otf2_out::Item;
using otf2_out::Record;

/// The MPI function of a kind ("" for computations and actions that are no MPI call).
std::string_view mpi_name(Kind k)
{
  switch (k) {
  case Kind::Init: return "MPI_Init";
  case Kind::Finalize: return "MPI_Finalize";
  case Kind::CommSize: return "MPI_Comm_size";
  case Kind::CommSplit: return "MPI_Comm_split";
  case Kind::CommDup: return "MPI_Comm_dup";
  case Kind::CommCreate: return "MPI_Comm_create";
  case Kind::CommFree: return "MPI_Comm_free";
  case Kind::Send: return "MPI_Send";
  case Kind::Isend: return "MPI_Isend";
  case Kind::Recv: return "MPI_Recv";
  case Kind::Irecv: return "MPI_Irecv";
  case Kind::Wait: return "MPI_Wait";
  case Kind::Test: return "MPI_Test";
  case Kind::WaitAll: return "MPI_Waitall";
  case Kind::SendRecv: return "MPI_Sendrecv";
  case Kind::Barrier: return "MPI_Barrier";
  case Kind::Bcast: return "MPI_Bcast";
  case Kind::Reduce: return "MPI_Reduce";
  case Kind::AllReduce: return "MPI_Allreduce";
  case Kind::AllToAll: return "MPI_Alltoall";
  case Kind::AllToAllV: return "MPI_Alltoallv";
  case Kind::Gather: return "MPI_Gather";
  case Kind::Scatter: return "MPI_Scatter";
  case Kind::AllGather: return "MPI_Allgather";
  case Kind::GatherV: return "MPI_Gatherv";
  case Kind::ScatterV: return "MPI_Scatterv";
  case Kind::AllGatherV: return "MPI_Allgatherv";
  case Kind::ReduceScatter: return "MPI_Reduce_scatter";
  case Kind::Scan: return "MPI_Scan";
  case Kind::Exscan: return "MPI_Exscan";
  case Kind::Ssend: return "MPI_Ssend";
  case Kind::Issend: return "MPI_Issend";
  case Kind::Bsend: return "MPI_Bsend";
  case Kind::Ibsend: return "MPI_Ibsend";
  case Kind::Start: return "MPI_Start";
  case Kind::Startall: return "MPI_Startall";
  case Kind::WaitAny: return "MPI_Waitany";
  case Kind::TestAny: return "MPI_Testany";
  case Kind::TestAll: return "MPI_Testall";
  case Kind::TestSome: return "MPI_Testsome";
  default: return "";
  }
}

std::string region_name(const trace::Action& a)
{
  if (a.kind == Kind::NonBlockingCollective) { // MPI_Bcast -> MPI_Ibcast
    std::string blocking(mpi_name(a.blocking));
    if (blocking.size() > 4)
      return "MPI_I" + std::string(1, static_cast<char>(std::tolower(blocking[4]))) + blocking.substr(5);
  }
  std::string_view mpi = mpi_name(a.kind);
  return mpi.empty() ? std::string(trace::kind_name(a.kind)) : std::string(mpi);
}

std::uint64_t byte_count(double b) { return b > 0 ? static_cast<std::uint64_t>(std::llround(b)) : 0; }

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

} // namespace

Otf2Writer::Otf2Writer(std::string dir) : dir_(std::move(dir))
{
  std::error_code ec;
  if (std::filesystem::exists(dir_, ec) &&
      (!std::filesystem::is_directory(dir_, ec) || !std::filesystem::is_empty(dir_, ec)))
    throw Otf2Error(fmt::format("error: --otf2 '{}' exists and is not an empty directory: OTF2 archives are "
                                         "written into a new directory",
                                         dir_));
}

void Otf2Writer::begin_run(const std::vector<std::string>& hosts)
{
  run_.hosts = hosts;
  run_.ranks.assign(hosts.size(), {});
  states_.assign(hosts.size(), {});
}

std::uint32_t Otf2Writer::region_of(const trace::Action& a)
{
  std::string name = region_name(a);
  auto [it, added] = region_ids_.emplace(name, static_cast<std::uint32_t>(run_.regions.size()));
  if (added) {
    run_.region_is_mpi.push_back(name.starts_with("MPI_"));
    run_.regions.push_back(std::move(name));
  }
  return it->second;
}

void Otf2Writer::message_received(const mpi::MessageEvent& e)
{
  if (!e.collective() && e.dst >= 0 && static_cast<std::size_t>(e.dst) < states_.size())
    states_[static_cast<std::size_t>(e.dst)].arrivals.push_back(Arrival{e.src, e.tag});
}

int Otf2Writer::matched_source(int rank, int src, int tag)
{
  auto& arrivals = states_[static_cast<std::size_t>(rank)].arrivals;
  auto it = std::find_if(arrivals.begin(), arrivals.end(), [&](const Arrival& a) {
    return (src == trace::kAnySource || a.src == src) && (tag == trace::kAnyTag || a.tag == tag);
  });
  if (it == arrivals.end())
    return src >= 0 ? src : rank;
  int found = it->src;
  arrivals.erase(it);
  return found;
}

void Otf2Writer::completion(int rank, std::uint64_t handle, Request q, Item& item)
{
  if (q.recv)
    q.peer = matched_source(rank, q.peer, q.tag);
  Record c;
  if (q.collective) {
    c = *q.collective;
    c.type = Record::Type::NbcComplete;
  } else if (q.recv) {
    c.type = Record::Type::Irecv;
    c.peer = q.peer, c.tag = q.tag, c.bytes = q.bytes;
  } else {
    c.type = Record::Type::IsendComplete;
  }
  c.request = handle;
  item.records.push_back(c);
}

void Otf2Writer::completions(const ActionRecord& r, Item& item)
{
  auto& pending = states_[static_cast<std::size_t>(r.rank)].pending;
  for (const RequestOutcome& o : r.requests) {
    auto it = pending.find(o.handle);
    if (it == pending.end())
      continue; // a request of an action the archive does not hold (MPI_Start's)
    if (not o.completed) {
      Record t;
      t.type = Record::Type::Test;
      t.request = o.handle;
      item.records.push_back(t);
      continue;
    }
    completion(r.rank, o.handle, it->second, item);
    pending.erase(it);
  }
}

void Otf2Writer::point_to_point(const ActionRecord& r, Item& item)
{
  const trace::Action& a = *r.action;
  int peer = a.partner; // kAnySource for a receive from any source: the source is found when it completes
  std::uint64_t bytes = byte_count(a.bytes >= 0 ? a.bytes : r.bytes);
  RankState& s = states_[static_cast<std::size_t>(r.rank)];
  Record rec;
  rec.peer = peer, rec.tag = a.tag, rec.bytes = bytes;
  switch (a.kind) {
  case Kind::Send: case Kind::Ssend: case Kind::Bsend:
    rec.type = Record::Type::Send;
    break;
  case Kind::Recv:
    rec.type = Record::Type::Recv;
    rec.peer = matched_source(r.rank, a.partner, a.tag);
    break;
  case Kind::Isend: case Kind::Issend: case Kind::Ibsend:
    rec.type = Record::Type::Isend;
    rec.request = r.posted;
    s.pending.emplace(r.posted, Request{false, peer, a.tag, bytes, {}});
    break;
  case Kind::Irecv:
    rec.type = Record::Type::IrecvRequest;
    rec.request = r.posted;
    s.pending.emplace(r.posted, Request{true, peer, a.tag, bytes, {}});
    rec.peer = 0; // MpiIrecvRequest says no source
    break;
  default:
    return;
  }
  item.records.push_back(rec);
}

Record Otf2Writer::collective_record(const ActionRecord& r)
{
  const trace::Action& a = *r.action;
  Kind kind = a.kind == Kind::NonBlockingCollective ? a.blocking : a.kind;
  Record c;
  c.type = Record::Type::Collective;
  c.kind = static_cast<int>(kind);
  c.comm = r.comm;
  c.root = trace::is_rooted(kind) ? a.root : -1;
  c.bytes1 = a.bytes, c.bytes2 = a.bytes2;
  c.send_sum = sum(a.send_counts), c.recv_sum = sum(a.recv_counts);
  if (kind == Kind::ReduceScatter)
    c.recv_counts = a.recv_counts;
  return c;
}

void Otf2Writer::collective(const ActionRecord& r, Item& item)
{
  item.records.push_back(collective_record(r));
}

/// Score-P's pattern: NonBlockingCollectiveRequest in the call that starts it (MPI_Ibcast), and
/// NonBlockingCollectiveComplete, with the collective's operation, communicator, root and sizes, in the wait or test
/// that completes it.
void Otf2Writer::nonblocking_collective(const ActionRecord& r, Item& item)
{
  Record rec;
  rec.type = Record::Type::NbcRequest;
  rec.request = r.posted;
  item.records.push_back(rec);
  states_[static_cast<std::size_t>(r.rank)].pending.emplace(r.posted, Request{false, 0, 0, 0, collective_record(r)});
}

void Otf2Writer::action_end(const ActionRecord& r)
{
  if (r.rank < 0 || static_cast<std::size_t>(r.rank) >= run_.ranks.size() || r.action == nullptr)
    return;
  const trace::Action& a = *r.action;
  Item item{r.start, r.end, region_of(a), {}};
  switch (a.kind) {
  case Kind::Wait: case Kind::Test: case Kind::WaitAll: case Kind::WaitAny:
  case Kind::TestAny: case Kind::TestAll: case Kind::TestSome:
    completions(r, item);
    break;
  case Kind::NonBlockingCollective:
    nonblocking_collective(r, item);
    break;
  case Kind::SendRecv:
    item.records.push_back(Record{.type = Record::Type::Send, .peer = a.partner, .bytes = byte_count(a.bytes)});
    item.records.push_back(Record{.type = Record::Type::Recv, .peer = matched_source(r.rank, a.partner2, 0),
                                  .bytes = byte_count(a.bytes2)});
    break;
  default:
    if (trace::is_collective(a.kind))
      collective(r, item);
    else
      point_to_point(r, item);
  }
  run_.ranks[static_cast<std::size_t>(r.rank)].push_back(std::move(item));
}

void Otf2Writer::end_run(double simulated_time)
{
  if (written_)
    return;
  written_ = true;
  run_.simulated_time = simulated_time;
  otf2_out::write_archive(dir_, run_);
}

} // namespace tit::timeline

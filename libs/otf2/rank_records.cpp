// The MPI records of one call into trace lines: point-to-point, completions, collectives (rank_events.hpp).
#include "rank_events.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>

namespace tit::otf2 {
namespace {

std::string_view send_name(const std::string& region, bool nonblocking)
{
  if (region == "MPI_Ssend" || region == "MPI_Issend")
    return nonblocking ? "ISsend" : "Ssend";
  if (region == "MPI_Bsend" || region == "MPI_Ibsend")
    return nonblocking ? "ibsend" : "bsend";
  return nonblocking ? "isend" : "send";
}

std::string comm_token(int handle)
{
  return handle == 0 ? std::string() : fmt::format(FMT_COMPILE(" comm={}"), handle);
}

} // namespace

const Communicator& RankEvents::comm_of(OTF2_CommRef ref, std::uint64_t event)
{
  auto it = defs_.comms.find(ref);
  if (it == defs_.comms.end()) {
    fail(event, fmt::format("missing definition: the record names communicator {}, which is not defined", ref));
    static const Communicator none;
    return none;
  }
  return it->second;
}

int RankEvents::handle_of(const Communicator& c, std::uint64_t event)
{
  if (c.world || c.self)
    return 0;
  auto it = handles_.find(c.index);
  if (it != handles_.end())
    return it->second;
  fail(event, fmt::format("the record acts on communicator '{}', of which this rank is no member", c.name));
  return 0;
}

std::pair<int, int> RankEvents::world_peer(const Record& r)
{
  const Communicator& c = comm_of(r.comm, r.event);
  if (c.self)
    return {rank_, 0};
  int handle = handle_of(c, r.event);
  if (c.world)
    return {static_cast<int>(r.peer), 0};
  if (r.peer >= c.members.size()) {
    fail(r.event, fmt::format("the record names rank {} of communicator '{}', which has {} members", r.peer, c.name,
                              c.members.size()));
    return {rank_, handle};
  }
  return {c.members[r.peer], handle};
}

std::string RankEvents::key_of(const Pending& p) const
{
  return fmt::format(FMT_COMPILE("{} {} {}{}"), p.src, p.dst, p.tag, comm_token(p.comm));
}

void RankEvents::point_to_point(const Record& r, const std::string& region)
{
  auto [peer, handle] = world_peer(r);
  auto tag = static_cast<int>(r.tag);
  switch (r.type) {
  case Record::Type::Send:
    return emit(r.event, fmt::format(FMT_COMPILE("{} {} {} {} {} 6{}"), rank_, send_name(region, false), peer, tag,
                                     r.bytes, comm_token(handle)));
  case Record::Type::Isend:
    requests_[r.request] = Pending{rank_, peer, tag, handle, false, 0, {}};
    request_order_.push_back(r.request);
    return emit(r.event, fmt::format(FMT_COMPILE("{} {} {} {} {} 6{}"), rank_, send_name(region, true), peer, tag,
                                     r.bytes, comm_token(handle)));
  case Record::Type::Recv:
    return emit(r.event,
                fmt::format(FMT_COMPILE("{} recv {} {} {} 6{}"), rank_, peer, tag, r.bytes, comm_token(handle)));
  default:
    return;
  }
}

void RankEvents::completion(const Record& r, const std::string& region)
{
  if (r.type == Record::Type::IrecvRequest || r.type == Record::Type::NbcRequest) {
    bool nbc = r.type == Record::Type::NbcRequest;
    requests_[r.request] = Pending{nbc ? trace::kAnySource : -1, nbc ? trace::kAnySource : rank_, nbc ? -1 : 0, 0,
                                   !nbc, first_line_ + lines_.size(), {}, nbc};
    request_order_.push_back(r.request);
    return emit(r.event, "", r.request); // written when the request completes
  }
  auto it = requests_.find(r.request);
  if (it == requests_.end())
    return fail(r.event, fmt::format("the record completes request {}, which this rank did not post", r.request));
  Pending& p = it->second;
  bool completes = r.type != Record::Type::Test && r.type != Record::Type::Cancelled;
  if (completes && (r.type == Record::Type::NbcComplete) != p.collective)
    return fail(r.event, fmt::format("request {} is {}, and this record completes {}", r.request,
                                     p.collective ? "a nonblocking collective's" : "a point-to-point one's",
                                     p.collective ? "a point-to-point one" : "a nonblocking collective"));
  if (r.type == Record::Type::NbcComplete) {
    if (!nonblocking_complete(p, r)) { // it moved nothing: no wait either
      request_order_.erase(std::find(request_order_.begin(), request_order_.end(), r.request));
      requests_.erase(it);
      return;
    }
  }
  if (r.type == Record::Type::IrecvComplete) {
    auto [peer, handle] = world_peer(r);
    p.src = peer, p.tag = static_cast<int>(r.tag), p.comm = handle;
    line_at(p.line) = TraceLine{fmt::format(FMT_COMPILE("{} irecv {} {} {} 6{}"), rank_, peer, p.tag, r.bytes,
                                            comm_token(handle)),
                                line_at(p.line).event, 0};
    for (std::uint64_t t : p.tests)
      line_at(t) = TraceLine{fmt::format(FMT_COMPILE("{} test {}"), rank_, key_of(p)), line_at(t).event, 0};
  }
  if (r.type == Record::Type::Cancelled && p.unknown()) {
    line_at(p.line).waits_for = 0; // never written: an empty line is dropped
    for (std::uint64_t t : p.tests)
      line_at(t).waits_for = 0;
  } else if (r.type == Record::Type::Test) {
    if (p.unknown()) { // written once the receive's source (the collective's sizes) is known
      p.tests.push_back(first_line_ + lines_.size());
      return emit(r.event, "", r.request);
    }
    return emit(r.event, fmt::format(FMT_COMPILE("{} test {}"), rank_, key_of(p))); // still pending
  } else if (r.type != Record::Type::Cancelled) {
    bool test = region.starts_with("MPI_Test");
    emit(r.event, fmt::format(FMT_COMPILE("{} {} {}"), rank_, test ? "test" : "wait", key_of(p)));
  }
  request_order_.erase(std::find(request_order_.begin(), request_order_.end(), r.request));
  requests_.erase(it);
}

std::optional<std::string> RankEvents::collective_text(const Record& r)
{
  const Communicator& c = comm_of(r.comm, r.event);
  if (c.self)
    return std::nullopt; // a collective of one rank moves nothing
  CollectiveRecord rec = r.collective;
  rec.size = c.world ? static_cast<int>(defs_.rank_locations.size()) : static_cast<int>(c.members.size());
  auto me = std::find(c.members.begin(), c.members.end(), rank_);
  rec.me = c.world ? rank_ : static_cast<int>(me - c.members.begin());
  int handle = handle_of(c, r.event);
  CollectiveLine l = collective_line(rec);
  if (l.status == CollectiveLine::Status::Unsupported) {
    unsupported(fmt::format("{} with {}", r.type == Record::Type::NbcComplete ? "NonBlockingCollectiveComplete"
                                                                              : "MpiCollectiveEnd",
                            l.text),
                r.event);
    return std::nullopt;
  }
  if (l.status != CollectiveLine::Status::Line)
    return std::nullopt;
  return l.text + comm_token(handle);
}

void RankEvents::collective(const Record& r)
{
  if (auto text = collective_text(r))
    emit(r.event, fmt::format("{} {}", rank_, *text));
}

/// A nonblocking collective completes: its line (written where it started) is the blocking form's with an `i`
/// ("ibcast ..."), its tests and this completion `test` or `wait -333 -333 -1`, as our tracer writes them. On a
/// communicator of one rank it moves nothing: no line at all (returns false: no completion line either).
bool RankEvents::nonblocking_complete(Pending& p, const Record& r)
{
  std::optional<std::string> text = collective_text(r);
  line_at(p.line) = TraceLine{text ? fmt::format("{} i{}", rank_, *text) : std::string(), line_at(p.line).event, 0};
  for (std::uint64_t t : p.tests)
    line_at(t) = TraceLine{text ? fmt::format("{} test -333 -333 -1", rank_) : std::string(), line_at(t).event, 0};
  p.collective = false; // known now
  return text.has_value();
}

void RankEvents::translate(const Record& r, const std::string& region)
{
  switch (r.type) {
  case Record::Type::Send:
  case Record::Type::Isend:
  case Record::Type::Recv:
    return point_to_point(r, region);
  case Record::Type::Collective:
    return collective(r);
  default:
    return completion(r, region);
  }
}

/// MPI_Sendrecv: one send and one receive; sendRecv when both have tag 0 on MPI_COMM_WORLD (dialect 2's sendRecv has
/// no tags), else the isend, recv and wait it amounts to.
bool RankEvents::sendrecv(const std::string& region)
{
  if (!region.starts_with("MPI_Sendrecv") || region_records_.size() != 2 ||
      region_records_[0].type != Record::Type::Send || region_records_[1].type != Record::Type::Recv)
    return false;
  const Record& s = region_records_[0];
  const Record& r = region_records_[1];
  auto [dst, hs] = world_peer(s);
  auto [src, hr] = world_peer(r);
  if (s.tag == 0 && r.tag == 0 && hs == 0 && hr == 0) {
    emit(s.event, fmt::format(FMT_COMPILE("{} sendRecv {} {} {} {} 6 6"), rank_, s.bytes, dst, r.bytes, src));
    return true;
  }
  emit(s.event, fmt::format(FMT_COMPILE("{} isend {} {} {} 6{}"), rank_, dst, s.tag, s.bytes, comm_token(hs)));
  emit(r.event, fmt::format(FMT_COMPILE("{} recv {} {} {} 6{}"), rank_, src, r.tag, r.bytes, comm_token(hr)));
  emit(s.event, fmt::format(FMT_COMPILE("{} wait {} {} {}{}"), rank_, rank_, dst, s.tag, comm_token(hs)));
  return true;
}

/// MPI_Waitall completing every request pending on the rank: waitall; otherwise one wait per completion.
bool RankEvents::waitall(const std::string& region)
{
  if (region != "MPI_Waitall" || region_records_.empty() || region_records_.size() != requests_.size())
    return false;
  for (const Record& r : region_records_)
    if ((r.type != Record::Type::IsendComplete && r.type != Record::Type::IrecvComplete) ||
        !requests_.contains(r.request))
      return false;
  std::uint64_t event = region_records_.front().event;
  for (const Record& r : region_records_) {
    completion(r, "MPI_Waitall");
    lines_.pop_back(); // the wait completion() wrote
  }
  // the count, as SimGrid writes it
  emit(event, fmt::format(FMT_COMPILE("{} waitall {}"), rank_, region_records_.size()));
  return true;
}

} // namespace tit::otf2

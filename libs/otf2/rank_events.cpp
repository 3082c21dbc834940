// One rank's OTF2 events into trace lines. MPI records are kept until the Leave of the MPI call that made them:
// the region says whether a send was synchronous, whether completions happened in a wait, a waitall or a test.
#include "rank_events.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>

namespace tit::otf2 {
namespace {

} // namespace

RankEvents::RankEvents(const Definitions& defs, int rank, const ReadOptions& options, const std::string& anchor)
    : defs_(defs), rank_(rank), options_(options), anchor_(anchor)
{
  OTF2_LocationRef loc = defs.rank_locations[static_cast<std::size_t>(rank)];
  where_ = fmt::format("{}: location {} ('{}', rank {})", anchor, loc, defs.location_names.at(loc), rank);
  emit(0, fmt::format("{} init", rank));
  // Every communicator is created at the start, on MPI_COMM_WORLD, by every rank (docs/otf2.md).
  int next_handle = 1;
  for (std::size_t i = 0; i < defs.created_comms.size(); ++i) {
    const Communicator& c = defs.comms.at(defs.created_comms[i]);
    auto pos = std::find(c.members.begin(), c.members.end(), rank);
    if (pos == c.members.end()) {
      emit(0, fmt::format("{} comm_split 0 -1 0 -1", rank));
      continue;
    }
    handles_[c.index] = next_handle;
    emit(0, fmt::format("{} comm_split 0 {} {} {} {}", rank, i, pos - c.members.begin(), next_handle++,
                        c.members.size()));
  }
}

void RankEvents::fail(std::uint64_t event, std::string_view what)
{
  if (error_.empty())
    error_ = fmt::format("{}, event {}: error: {}", where_, event, what);
}

void RankEvents::emit(std::uint64_t event, std::string text, std::uint64_t waits_for)
{
  lines_.push_back(TraceLine{std::move(text), event, waits_for});
}

std::optional<TraceLine> RankEvents::pop()
{
  while (!lines_.empty() && lines_.front().waits_for == 0) {
    TraceLine out = std::move(lines_.front());
    lines_.pop_front();
    ++first_line_;
    if (!out.text.empty()) // a cancelled receive's line stays empty
      return out;
  }
  return std::nullopt;
}

void RankEvents::unsupported(std::string_view record, std::uint64_t event)
{
  if (options_.skip_unsupported) {
    ++skipped_;
    return;
  }
  fail(event, fmt::format("record {} cannot be replayed (one-sided communication, I/O and threads are not; "
                          "--skip-unsupported skips such records with a counted warning)",
                          record));
}

void RankEvents::metric(OTF2_MetricRef metric, std::uint8_t count, const OTF2_Type* types,
                        const OTF2_MetricValue* values)
{
  auto it = defs_.metric_classes.find(metric);
  if (it == defs_.metric_classes.end() || it->second.position >= count)
    return;
  std::uint8_t i = it->second.position;
  switch (types[i]) {
  case OTF2_TYPE_INT64: metric_now_ = static_cast<double>(values[i].signed_int); break;
  case OTF2_TYPE_UINT64: metric_now_ = static_cast<double>(values[i].unsigned_int); break;
  default: metric_now_ = values[i].floating_point; break;
  }
}

void RankEvents::compute_until(std::uint64_t time)
{
  if (!last_leave_time_ || finalized_)
    return;
  double volume = 0;
  if (defs_.has_metric) {
    if (metric_now_ && metric_at_leave_)
      volume = *metric_now_ - *metric_at_leave_;
  } else if (time > *last_leave_time_) {
    double seconds = static_cast<double>(time - *last_leave_time_) / static_cast<double>(defs_.timer_resolution);
    volume = seconds * options_.rate.value_or(1e9);
  }
  if (volume > 0)
    emit(0, fmt::format(FMT_COMPILE("{} compute {}"), rank_, volume));
}

void RankEvents::enter(std::uint64_t time, OTF2_RegionRef region, std::uint64_t event)
{
  auto it = defs_.regions.find(region);
  if (it == defs_.regions.end())
    return fail(event, fmt::format("missing definition: Enter names region {}, which is not defined", region));
  stack_.push_back(region);
  if (!it->second.mpi)
    return;
  if (mpi_depth_++ == 0) {
    compute_until(time);
    region_records_.clear();
  }
}

void RankEvents::leave(std::uint64_t time, OTF2_RegionRef region, std::uint64_t event)
{
  if (stack_.empty() || stack_.back() != region)
    return fail(event, fmt::format("Leave of region {} does not match the region entered last", region));
  stack_.pop_back();
  const Region& r = defs_.regions.at(region);
  if (!r.mpi || --mpi_depth_ > 0)
    return;
  flush_region(r.name, event);
  last_leave_time_ = time;
  metric_at_leave_ = metric_now_;
  if (r.name == "MPI_Finalize" && !finalized_) {
    emit(event, fmt::format("{} finalize", rank_));
    finalized_ = true;
  }
}

void RankEvents::record(Record r)
{
  if (mpi_depth_ > 0)
    region_records_.push_back(std::move(r));
  else
    translate(r, ""); // a record outside any MPI call: read as its plain form
}

void RankEvents::flush_region(const std::string& region, std::uint64_t event)
{
  (void)event;
  if (!sendrecv(region) && !waitall(region))
    for (const Record& r : region_records_)
      translate(r, region);
  region_records_.clear();
}

void RankEvents::finish(std::uint64_t events)
{
  if (!stack_.empty() && error_.empty())
    fail(events, fmt::format("the events end inside region '{}' (truncated archive?)",
                             defs_.regions.at(stack_.back()).name));
  for (auto const& [id, p] : requests_)
    if (p.recv && p.src < 0)
      fail(line_at(p.line).event, fmt::format("the receive request {} posted here (MpiIrecvRequest) never completes: "
                                              "its source, tag and size are unknown",
                                              id));
    else if (p.collective)
      fail(line_at(p.line).event, fmt::format("the nonblocking collective request {} posted here "
                                              "(NonBlockingCollectiveRequest) never completes: its operation and "
                                              "sizes are unknown",
                                              id));
  if (!finalized_)
    emit(events, fmt::format("{} finalize", rank_));
}

} // namespace tit::otf2

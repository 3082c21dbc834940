// Reading an OTF2 archive's global definitions into Definitions: first every record as written (strings and groups
// are referred to before or after their definition), then the ranks, communicators and metric resolved.
#include "definitions.hpp"

#include "trace/reader.hpp"

#include <fmt/format.h>

#include <cstdarg>
#include <cstdio>
#include <map>

namespace tit::otf2 {
namespace {

struct RawGroup {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  OTF2_GroupFlag flags = OTF2_GROUP_FLAG_NONE;
  std::vector<std::uint64_t> members;
};
struct RawComm {
  OTF2_StringRef name = OTF2_UNDEFINED_STRING;
  OTF2_GroupRef group = OTF2_UNDEFINED_GROUP;
};
struct RawRegion {
  OTF2_StringRef name = OTF2_UNDEFINED_STRING;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
};

/// The records as read, before they are resolved.
struct Raw {
  std::unordered_map<OTF2_StringRef, std::string> strings;
  std::map<OTF2_GroupRef, RawGroup> groups;
  std::map<OTF2_CommRef, RawComm> comms; // in definition order of their references
  std::unordered_map<OTF2_RegionRef, RawRegion> regions;
  std::unordered_map<OTF2_LocationRef, OTF2_StringRef> locations;
  std::unordered_map<OTF2_MetricMemberRef, OTF2_StringRef> metric_members;
  std::unordered_map<OTF2_MetricRef, std::vector<OTF2_MetricMemberRef>> metric_classes;
  std::vector<OTF2_StringRef> rma_windows;
  std::uint64_t timer_resolution = 0;
};

thread_local std::string g_last_error;

OTF2_ErrorCode keep_error(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                          va_list va)
{
  char text[512];
  std::vsnprintf(text, sizeof text, format, va);
  g_last_error = fmt::format("{} ({})", text, OTF2_Error_GetName(code));
  return code;
}

Raw& raw_of(void* user) { return *static_cast<Raw*>(user); }

OTF2_CallbackCode on_string(void* u, OTF2_StringRef self, const char* s)
{
  raw_of(u).strings[self] = s != nullptr ? s : "";
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_clock(void* u, uint64_t resolution, uint64_t, uint64_t, uint64_t)
{
  raw_of(u).timer_resolution = resolution;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location(void* u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType, uint64_t,
                              OTF2_LocationGroupRef)
{
  raw_of(u).locations[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_region(void* u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t, uint32_t)
{
  raw_of(u).regions[self] = RawRegion{name, paradigm};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_group(void* u, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm,
                           OTF2_GroupFlag flags, uint32_t n, const uint64_t* members)
{
  raw_of(u).groups[self] = RawGroup{type, paradigm, flags, std::vector<std::uint64_t>(members, members + n)};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_comm(void* u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef,
                          OTF2_CommFlag)
{
  raw_of(u).comms[self] = RawComm{name, group};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_metric_member(void* u, OTF2_MetricMemberRef self, OTF2_StringRef name, OTF2_StringRef,
                                   OTF2_MetricType, OTF2_MetricMode, OTF2_Type, OTF2_Base, int64_t, OTF2_StringRef)
{
  raw_of(u).metric_members[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_metric_class(void* u, OTF2_MetricRef self, uint8_t n, const OTF2_MetricMemberRef* members,
                                  OTF2_MetricOccurrence, OTF2_RecorderKind)
{
  raw_of(u).metric_classes[self] = std::vector<OTF2_MetricMemberRef>(members, members + n);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_rma_win(void* u, OTF2_RmaWinRef, OTF2_StringRef name, OTF2_CommRef, OTF2_RmaWinFlag)
{
  raw_of(u).rma_windows.push_back(name);
  return OTF2_CALLBACK_SUCCESS;
}

Raw read_raw(OTF2_Reader* reader, const std::string& anchor)
{
  Raw raw;
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  if (defs == nullptr)
    throw trace::TraceError(fmt::format("{}: error: the archive's global definitions cannot be read: {}", anchor,
                                        last_otf2_error()));
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, on_metric_member);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, on_metric_class);
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, on_rma_win);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, cb, &raw);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  uint64_t read = 0;
  OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read);
  if (status != OTF2_SUCCESS)
    throw trace::TraceError(fmt::format("{}: error: truncated or damaged archive: its global definitions stop after "
                                        "{} records: {}",
                                        anchor, read, last_otf2_error()));
  return raw;
}

[[noreturn]] void missing(const std::string& anchor, std::string_view what)
{
  throw trace::TraceError(fmt::format("{}: error: missing definition: {}", anchor, what));
}

std::string string_of(const Raw& raw, OTF2_StringRef ref, const std::string& anchor)
{
  auto it = raw.strings.find(ref);
  if (it == raw.strings.end())
    missing(anchor, fmt::format("string {} is referred to but not defined", ref));
  return it->second;
}

/// The MPI ranks' locations: the MPI group of type COMM_LOCATIONS (rank i = members[i]).
void resolve_ranks(const Raw& raw, Definitions& d, const std::string& anchor)
{
  for (auto const& [ref, g] : raw.groups)
    if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && g.paradigm == OTF2_PARADIGM_MPI) {
      d.rank_locations.assign(g.members.begin(), g.members.end());
      break;
    }
  if (d.rank_locations.empty())
    missing(anchor, "no group of MPI_COMM_WORLD's locations (an MPI group of type COMM_LOCATIONS): the archive does "
                    "not say which location is which rank");
  for (OTF2_LocationRef loc : d.rank_locations) {
    auto it = raw.locations.find(loc);
    if (it == raw.locations.end())
      missing(anchor, fmt::format("location {} is a rank of MPI_COMM_WORLD but is not defined", loc));
    d.location_names[loc] = string_of(raw, it->second, anchor);
  }
  d.locations = raw.locations.size();
}

Communicator resolve_comm(const Raw& raw, const RawComm& c, OTF2_CommRef ref, int ranks, const std::string& anchor)
{
  Communicator out;
  out.name = string_of(raw, c.name, anchor);
  auto g = raw.groups.find(c.group);
  if (g == raw.groups.end())
    missing(anchor, fmt::format("communicator {} ('{}') refers to group {}, which is not defined", ref, out.name,
                                c.group));
  if (g->second.type == OTF2_GROUP_TYPE_COMM_SELF) {
    out.self = true;
    return out;
  }
  if (g->second.type != OTF2_GROUP_TYPE_COMM_GROUP)
    missing(anchor, fmt::format("communicator {} ('{}') refers to group {}, which is not a communicator group", ref,
                                out.name, c.group));
  bool identity = g->second.members.size() == static_cast<std::size_t>(ranks);
  for (std::size_t i = 0; i < g->second.members.size(); ++i) {
    std::uint64_t m = g->second.members[i];
    if (m >= static_cast<std::uint64_t>(ranks))
      missing(anchor, fmt::format("communicator {} ('{}') has member {}, but MPI_COMM_WORLD has {} ranks", ref,
                                  out.name, m, ranks));
    out.members.push_back(static_cast<int>(m));
    identity = identity && m == i;
  }
  out.world = identity;
  return out;
}

void resolve_comms(const Raw& raw, Definitions& d, const std::string& anchor)
{
  int ranks = static_cast<int>(d.rank_locations.size());
  bool world_seen = false;
  for (auto const& [ref, c] : raw.comms) {
    Communicator comm = resolve_comm(raw, c, ref, ranks, anchor);
    if (comm.world && world_seen)
      comm.world = false; // a duplicate of MPI_COMM_WORLD keeps its own sequence of collectives
    world_seen = world_seen || comm.world;
    if (!comm.world && !comm.self) {
      comm.index = static_cast<int>(d.created_comms.size());
      d.created_comms.push_back(ref);
    }
    d.comms.emplace(ref, std::move(comm));
  }
}

void resolve_metric(const Raw& raw, Definitions& d, const std::string& metric, const std::string& anchor)
{
  for (auto const& [cls, members] : raw.metric_classes)
    for (std::size_t i = 0; i < members.size(); ++i) {
      auto m = raw.metric_members.find(members[i]);
      if (m == raw.metric_members.end())
        missing(anchor, fmt::format("metric class {} has member {}, which is not defined", cls, members[i]));
      if (string_of(raw, m->second, anchor) == metric) {
        d.metric_classes[cls] = MetricSlot{static_cast<std::uint8_t>(i)};
        d.has_metric = true;
      }
    }
}

} // namespace

std::string last_otf2_error() { return g_last_error.empty() ? std::string("no detail from OTF2") : g_last_error; }

void capture_otf2_errors() { OTF2_Error_RegisterCallback(keep_error, nullptr); }

Definitions read_definitions(OTF2_Reader* reader, const std::string& anchor, const std::string& metric)
{
  Raw raw = read_raw(reader, anchor);
  Definitions d;
  if (raw.timer_resolution == 0)
    missing(anchor, "no clock properties (the timer resolution converts the timestamps into seconds)");
  d.timer_resolution = raw.timer_resolution;
  resolve_ranks(raw, d, anchor);
  for (auto const& [ref, r] : raw.regions) {
    std::string name = string_of(raw, r.name, anchor);
    bool mpi = r.paradigm == OTF2_PARADIGM_MPI || name.starts_with("MPI_");
    d.regions.emplace(ref, Region{std::move(name), mpi});
  }
  resolve_comms(raw, d, anchor);
  resolve_metric(raw, d, metric, anchor);
  for (OTF2_StringRef w : raw.rma_windows)
    d.rma_windows.push_back(string_of(raw, w, anchor));
  return d;
}

} // namespace tit::otf2

#include "timeline/paje_writer.hpp"
#include "trace/writer.hpp"

#include <fmt/ostream.h>

#include <algorithm>
#include <vector>

namespace tit::timeline {
namespace {

// The event definitions used below (Paje's generic format: each event names its fields).
constexpr const char* kHeader = R"(#  tit-replay paje timeline v1
%EventDef PajeDefineContainerType 0
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineStateType 1
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineLinkType 2
%       Alias string
%       Type string
%       StartContainerType string
%       EndContainerType string
%       Name string
%EndEventDef
%EventDef PajeDefineEntityValue 3
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeCreateContainer 4
%       Time date
%       Alias string
%       Type string
%       Container string
%       Name string
%EndEventDef
%EventDef PajeDestroyContainer 5
%       Time date
%       Type string
%       Name string
%EndEventDef
%EventDef PajePushState 6
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
%EventDef PajePopState 7
%       Time date
%       Type string
%       Container string
%EndEventDef
%EventDef PajeStartLink 8
%       Time date
%       Type string
%       Container string
%       Value string
%       StartContainer string
%       Key string
%EndEventDef
%EventDef PajeEndLink 9
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%EndEventDef
0 CT_Run 0 "Run"
0 CT_Rank CT_Run "Rank"
1 ST_Action CT_Rank "Action"
2 LT_Message CT_Run CT_Rank CT_Rank "Message"
3 V_p2p LT_Message "p2p" "0.2 0.2 0.8"
3 V_coll LT_Message "collective" "0.6 0.6 0.6"
)";

/// A colour per action category, so that ViTE shows computations, messages and collectives apart.
const char* colour(std::string_view name)
{
  if (name == "compute" || name == "sleep")
    return "0.3 0.8 0.3";
  if (name.starts_with("wait") || name.starts_with("test") || name == "end_of_trace")
    return "0.9 0.3 0.3";
  if (name == "send" || name == "recv" || name == "isend" || name == "irecv" || name == "Isend" || name == "Irecv" ||
      name == "sendRecv" || name.find("send") != std::string_view::npos)
    return "0.3 0.5 0.9";
  return "0.9 0.7 0.2";
}

} // namespace

PajeWriter::PajeWriter(std::ostream& out) : out_(out)
{
  out_ << kHeader;
}

void PajeWriter::declare_value(const std::string& name)
{
  if (values_.contains(name))
    return;
  values_.insert(name);
  fmt::print(out_, "3 \"{}\" ST_Action \"{}\" \"{}\"\n", name, name, colour(name));
}

void PajeWriter::begin_run(const std::vector<std::string>& hosts)
{
  ranks_ = hosts.size();
  out_ << "4 0 run CT_Run 0 \"simulated run\"\n";
  for (std::size_t r = 0; r < hosts.size(); ++r)
    fmt::print(out_, "4 0 rank{} CT_Rank run \"rank {} ({})\"\n", r, r, hosts[r]);
}

void PajeWriter::action_begin(int rank, const trace::Action& action, double time)
{
  std::string name(trace::display_name(action));
  declare_value(name);
  fmt::print(out_, "6 {} ST_Action rank{} \"{}\"\n", time, rank, name);
}

void PajeWriter::action_end(const ActionRecord& r)
{
  fmt::print(out_, "7 {} ST_Action rank{}\n", r.end, r.rank);
}

void PajeWriter::message_sent(const mpi::MessageEvent& e)
{
  fmt::print(out_, "8 {} LT_Message run {} rank{} m{}\n", e.time, e.collective() ? "V_coll" : "V_p2p", e.src, e.id);
  in_flight_.emplace(e.id, std::make_pair(e.dst, e.collective()));
}

void PajeWriter::message_received(const mpi::MessageEvent& e)
{
  fmt::print(out_, "9 {} LT_Message run {} rank{} m{}\n", e.time, e.collective() ? "V_coll" : "V_p2p", e.dst, e.id);
  in_flight_.erase(e.id);
}

void PajeWriter::stopped(double time, const std::string& error)
{
  if (ranks_ == 0)
    return; // stopped before the first action
  out_ << incomplete_note(time, error);
  end_run(time);
}

void PajeWriter::end_run(double simulated_time)
{
  // A message its receiver never took: its link ends with the run (Paje wants every link closed).
  std::vector<std::pair<std::uint64_t, std::pair<int, bool>>> lost(in_flight_.begin(), in_flight_.end());
  std::sort(lost.begin(), lost.end());
  for (auto const& [id, to] : lost)
    fmt::print(out_, "9 {} LT_Message run {} rank{} m{}\n", simulated_time, to.second ? "V_coll" : "V_p2p", to.first,
               id);
  in_flight_.clear();
  for (std::size_t r = 0; r < ranks_; ++r)
    fmt::print(out_, "5 {} CT_Rank rank{}\n", simulated_time, r);
  fmt::print(out_, "5 {} CT_Run run\n", simulated_time);
  out_.flush();
}

} // namespace tit::timeline

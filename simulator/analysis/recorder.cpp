#include "analysis/recorder.hpp"
#include "trace/action.hpp"
#include "trace/writer.hpp"

namespace tit::analysis {

using trace::Kind;

void Recorder::begin_run(const std::vector<std::string>& hosts)
{
  input_.hosts = hosts;
  input_.ranks.assign(hosts.size(), {});
  current_.assign(hosts.size(), 0);
}

std::uint32_t Recorder::name_id(std::string_view name)
{
  auto [it, inserted] = name_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(input_.names.size()));
  if (inserted)
    input_.names.emplace_back(name);
  return it->second;
}

void Recorder::action_begin(int rank, const trace::Action&, double)
{
  current_[static_cast<std::size_t>(rank)] = static_cast<std::uint32_t>(input_.ranks[static_cast<std::size_t>(rank)].size());
}

void Recorder::action_end(const timeline::ActionRecord& r)
{
  auto const& a = *r.action;
  Activity act;
  act.start = r.start;
  act.end = r.end;
  act.kind = a.kind;
  // one name per kind, whatever the dialect's spelling; the replay's own end-of-trace waits keep theirs
  act.name = name_id(r.end_of_trace ? trace::display_name(a) : trace::canonical_name(a));
  act.line = a.line;
  act.root = r.peer;
  if (a.kind == Kind::Compute || a.kind == Kind::Sleep)
    act.compute = r.end - r.start;
  else
    act.compute = r.compute;
  if (r.collective >= 0 && a.kind != Kind::NonBlockingCollective) {
    act.collective = r.collective; // the analysis works out who waited for whom
    act.comm = r.comm;
  } else if (r.blocking.waiting > 0 && r.blocking.partner >= 0) {
    act.waiting = r.blocking.waiting;
    act.partner = r.blocking.partner;
    act.release = r.blocking.release;
    act.pattern = r.blocking.collective ? Pattern::NonBlockingCollective
                  : r.blocking.on_send  ? Pattern::LateReceiver
                                        : Pattern::LateSender;
  }
  input_.ranks[static_cast<std::size_t>(r.rank)].push_back(act);
}

void Recorder::message_sent(const mpi::MessageEvent& e)
{
  if (not e.collective()) // user messages only: collectives synchronise as instances
    in_flight_.emplace(e.id, Sent{e.src, current_[static_cast<std::size_t>(e.src)]});
}

void Recorder::message_received(const mpi::MessageEvent& e)
{
  auto it = in_flight_.find(e.id);
  if (it == in_flight_.end())
    return;
  input_.messages.push_back({it->second.src, e.dst, it->second.index, current_[static_cast<std::size_t>(e.dst)]});
  in_flight_.erase(it);
}

void Recorder::end_run(double end_time)
{
  input_.end_time = end_time;
}

Result Recorder::analyse(double simulated_time)
{
  input_.simulated_time = simulated_time;
  return tit::analysis::analyse(input_, model_);
}

} // namespace tit::analysis

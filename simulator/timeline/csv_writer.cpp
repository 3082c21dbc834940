#include "timeline/csv_writer.hpp"
#include "trace/writer.hpp"

#include <fmt/ostream.h>

namespace tit::timeline {
namespace {

/// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string field(std::string_view s)
{
  if (s.find_first_of(",\"\n\r") == std::string_view::npos)
    return std::string(s);
  std::string q = "\"";
  for (char c : s) {
    if (c == '"')
      q += '"';
    q += c;
  }
  return q + '"';
}

} // namespace

CsvWriter::CsvWriter(std::ostream& out) : out_(out)
{
  out_ << "# tit-replay timeline csv v1\n"
       << "record,rank,line,action,args,start,end,bytes,peer,category\n";
}

void CsvWriter::action_end(const ActionRecord& r)
{
  const auto& a = *r.action;
  fmt::print(out_, "action,{},{},{},{},{},{},{},{},{}\n", r.rank, a.line, field(trace::display_name(a)), field(arguments_of(a)),
             r.start, r.end, r.bytes, r.peer, category_of(a));
}

void CsvWriter::stopped(double time, const std::string& error)
{
  out_ << incomplete_note(time, error);
}

void CsvWriter::message_sent(const mpi::MessageEvent& e)
{
  in_flight_.emplace(e.id, e.time);
}

void CsvWriter::message_received(const mpi::MessageEvent& e)
{
  auto it = in_flight_.find(e.id);
  if (it == in_flight_.end())
    return;
  fmt::print(out_, "message,{},,message,tag={},{},{},{},{},{}\n", e.src, e.tag, it->second, e.time, e.bytes, e.dst,
             e.collective() ? "collective" : "p2p");
  in_flight_.erase(it);
}

} // namespace tit::timeline

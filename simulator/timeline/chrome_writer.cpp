#include "timeline/chrome_writer.hpp"
#include "trace/writer.hpp"

#include <fmt/ostream.h>

namespace tit::timeline {
namespace {

/// Chrome's timestamps are microseconds.
double us(double seconds)
{
  return seconds * 1e6;
}

} // namespace

std::string json_escape(std::string_view s)
{
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else
          out += c;
    }
  }
  return out;
}

ChromeTraceWriter::ChromeTraceWriter(std::ostream& out) : out_(out)
{
  out_ << "{\"traceEvents\":[\n";
}

ChromeTraceWriter::~ChromeTraceWriter()
{
  close();
}

void ChromeTraceWriter::separator()
{
  if (not first_)
    out_ << ",\n";
  first_ = false;
}

void ChromeTraceWriter::begin_run(const std::vector<std::string>& hosts)
{
  separator();
  out_ << R"j({"ph":"M","pid":0,"name":"process_name","args":{"name":"tit-replay simulated run"}})j";
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    separator();
    fmt::print(out_, R"j({{"ph":"M","pid":0,"tid":{},"name":"thread_name","args":{{"name":"rank {} ({})"}}}})j", r, r,
               json_escape(hosts[r]));
    separator();
    fmt::print(out_, R"j({{"ph":"M","pid":0,"tid":{},"name":"thread_sort_index","args":{{"sort_index":{}}}}})j", r, r);
  }
}

void ChromeTraceWriter::action_end(const ActionRecord& r)
{
  const auto& a = *r.action;
  separator();
  fmt::print(out_,
             R"j({{"ph":"X","pid":0,"tid":{},"name":"{}","cat":"{}","ts":{},"dur":{},"args":{{"line":{},"args":"{}","start_s":{},"end_s":{},"bytes":{},"peer":{}}}}})j",
             r.rank, json_escape(trace::display_name(a)), category_of(a), us(r.start), us(r.end) - us(r.start), a.line,
             json_escape(arguments_of(a)), r.start, r.end, r.bytes, r.peer);
}

void ChromeTraceWriter::message_sent(const mpi::MessageEvent& e)
{
  separator();
  fmt::print(out_, R"j({{"ph":"s","pid":0,"tid":{},"name":"message","cat":"{}","id":{},"ts":{}}})j", e.src,
             e.collective() ? "collective-message" : "message", e.id, us(e.time));
}

void ChromeTraceWriter::message_received(const mpi::MessageEvent& e)
{
  separator();
  fmt::print(out_, R"j({{"ph":"f","bp":"e","pid":0,"tid":{},"name":"message","cat":"{}","id":{},"ts":{},"args":{{"bytes":{},"tag":{}}}}})j",
             e.dst, e.collective() ? "collective-message" : "message", e.id, us(e.time), e.bytes, e.tag);
}

void ChromeTraceWriter::end_run(double simulated_time)
{
  simulated_time_ = simulated_time;
}

void ChromeTraceWriter::stopped(double time, const std::string& error)
{
  stopped_at_ = time;
  error_ = error;
}

void ChromeTraceWriter::close()
{
  if (closed_)
    return;
  closed_ = true;
  out_ << "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"schema\":\"tit-replay chrome trace v1\"";
  if (simulated_time_ >= 0)
    fmt::print(out_, ",\"end_time_s\":{}", simulated_time_);
  else
    out_ << ",\"complete\":false";
  if (stopped_at_ >= 0)
    fmt::print(out_, ",\"stopped_at_s\":{},\"error\":\"{}\"", stopped_at_, json_escape(error_));
  out_ << "}}\n";
  out_.flush();
}

} // namespace tit::timeline

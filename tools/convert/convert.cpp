#include "convert/convert.hpp"

#include "trace/reader.hpp"
#include "trace/writer.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

namespace fs = std::filesystem;

namespace tit::convert {

using trace::Action;
using trace::Dialect;
using trace::Kind;

namespace {

[[noreturn]] void fail(const Action& a, const std::string& what)
{
  throw ConvertError(*a.file + ":" + std::to_string(a.line) + ": error: " + what + "\n  " + std::string(a.text));
}

/// The `# compute:` and `# rate:` lines before the first action of `path` (what its volumes count).
std::vector<std::string> header_lines(const std::string& path)
{
  std::vector<std::string> header;
  trace::detail::LineSource src(path, 64 * 1024);
  std::string_view line;
  while (src.next(line)) {
    std::string_view t = trace::detail::trim(line);
    if (!trace::detail::is_skipped(t))
      break;
    if (t.starts_with("# compute: ") || t.starts_with("# rate: "))
      header.emplace_back(t);
  }
  return header;
}

/// The header lines saying what the volumes count: the rank's file's, or for a trace set of another format (an OTF2
/// archive, whose readers name no text file), its compute unit said the way our tracer says it.
std::vector<std::string> header_of(const trace::TraceSet& set, const std::string& file)
{
  std::error_code ec;
  if (fs::is_regular_file(file, ec))
    return header_lines(file);
  const std::string& unit = set.compute_unit();
  auto x = unit.find(" x ");
  if (unit.empty())
    return {};
  if (x == std::string::npos)
    return {"# compute: " + unit};
  return {"# compute: " + unit.substr(0, x) + " x rate (ESTIMATE: the elapsed time between MPI calls of " +
              set.describe() + ")",
          "# rate: " + unit.substr(x + 3)};
}

/// A nonblocking point-to-point request still pending on a rank.
struct Pending {
  int src, dst, tag;
  bool recv;
};

/// Translates the actions of one rank into dialect `to`, keeping its pending requests to say each wait the way
/// the target dialect says it.
class RankConverter {
public:
  explicit RankConverter(Dialect to) : to_(to) {}

  /// Appends the line(s) of `a` to `out` (none for a wait dialect 1 has no form of).
  void convert(const Action& a, std::vector<std::string>& out)
  {
    Action b = a; // the typed action to write; views stay those of the reader's line
    if (a.kind == Kind::Isend || a.kind == Kind::Issend || a.kind == Kind::Ibsend)
      pending_.push_back({a.rank, a.partner, a.tag, false});
    if (a.kind == Kind::Irecv)
      pending_.push_back({a.partner, a.rank, a.tag, true});
    if (a.kind == Kind::WaitAll)
      pending_.clear();
    if (a.kind == Kind::Wait || a.kind == Kind::Test) {
      if (!complete(a, b))
        return;
    }
    if (to_ == Dialect::Thesis) {
      if (a.kind == Kind::Init)
        b.args.clear(); // dialect 1's sizes are bytes whatever init says
      b.tag = 0;        // dialect 1 has no tags
    }
    out.push_back(trace::format_action(b, to_));
  }

private:
  /// Fills the request of a wait or test as dialect `to_` names it; false when it writes no line.
  bool complete(const Action& a, Action& b)
  {
    auto it = pending_.end();
    if (a.wait_last_irecv) { // which request: the most recent Irecv (dialect 1) or request (pre-3.20)
      bool any = a.dialect == Dialect::Pre320;
      auto r = std::find_if(pending_.rbegin(), pending_.rend(), [&](const Pending& p) { return any || p.recv; });
      if (r == pending_.rend())
        fail(a, any ? fmt_no_request(a) : "'wait' with no pending Irecv to complete");
      it = std::next(r).base();
      b.wait_last_irecv = false;
      b.src = it->src;
      b.dst = it->dst;
      b.tag = it->tag;
    } else {
      it = std::find_if(pending_.begin(), pending_.end(),
                        [&](const Pending& p) { return p.src == a.src && p.dst == a.dst && p.tag == a.tag; });
      if (to_ == Dialect::SimGrid) { // the same form
        if (it != pending_.end() && a.kind == Kind::Wait)
          pending_.erase(it);
        return true;
      }
      if (it == pending_.end())
        fail(a, "'" + std::string(a.name) + "' names no pending request of this rank");
      if (a.kind == Kind::Test)
        return true; // the writer says that dialect 1 has no test
      if (it->recv) {
        auto last = std::find_if(pending_.rbegin(), pending_.rend(), [](const Pending& p) { return p.recv; });
        if (&*last != &*it)
          fail(a, "this wait completes an Irecv that is not the most recent pending one; dialect 1's 'wait' "
                  "always completes the most recent, so the trace cannot be said in dialect 1");
      }
    }
    bool recv = it->recv;
    if (to_ == Dialect::Thesis)
      b.wait_last_irecv = true; // a wait on the most recent pending Irecv (checked above), or not written
    if (a.kind == Kind::Wait)
      pending_.erase(it);
    // a wait on an Isend has no dialect 1 form: the Isend completes at the next waitAll or the end
    return to_ == Dialect::SimGrid || recv;
  }

  static std::string fmt_no_request(const Action& a)
  {
    return "'" + std::string(a.name) + "' with no pending Isend or Irecv to " + (a.kind == Kind::Wait ? "complete" : "test");
  }

  Dialect to_;
  std::vector<Pending> pending_;
};

std::unique_ptr<trace::TraceSet> open_set(const fs::path& input, Source source = Source::Thesis)
{
  std::error_code ec;
  if (!fs::exists(input, ec))
    throw ConvertError(input.string() + ": error: cannot read this file");
  if (source == Source::Pre320) // no line tells SimGrid <= 3.19's format from dialect 1: the caller says it
    return trace::TraceSet::open(input, std::nullopt, Dialect::Pre320);
  return trace::TraceSet::open(input, std::nullopt);
}

} // namespace

RankFiles convert(const fs::path& input, Dialect to, Source source)
{
  std::unique_ptr<trace::TraceSet> set = open_set(input, source);
  RankFiles out;
  for (int r = 0; r < set->rank_count(); ++r) {
    std::unique_ptr<trace::RankReader> reader = set->reader(r);
    std::vector<std::string> lines = header_of(*set, reader->file());
    RankConverter converter(to);
    Action a;
    bool any = false;
    while (reader->next(a)) {
      converter.convert(a, lines);
      any = true;
    }
    if (!any)
      throw ConvertError(input.string() + ": error: no line of rank " + std::to_string(r) +
                         " (every rank 0.." + std::to_string(set->rank_count() - 1) + " needs its lines)");
    out.emplace_back(r, std::move(lines));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Perfect computation

namespace {

bool to_int(const std::string& s, long long& v)
{
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

/// Compute durations by trace line, from a timings file of the tracer.
std::map<std::uint64_t, double> compute_seconds(const fs::path& timings_csv)
{
  std::ifstream t(timings_csv);
  if (!t)
    throw ConvertError(timings_csv.string() + ": error: cannot read the timings file (TIT_TRACE_TIMINGS=1 writes it)");
  std::map<std::uint64_t, double> seconds;
  std::string s;
  int n = 0;
  bool header = true;
  while (std::getline(t, s)) {
    ++n;
    auto bad = [&](const std::string& what) {
      throw ConvertError(timings_csv.string() + ":" + std::to_string(n) + ": error: " + what + "\n  " + s);
    };
    if (header && s.starts_with('#'))
      continue; // the clock's origin and host
    if (header) {
      header = false;
      if (s != "line,action,start_s,end_s")
        bad("expected the header 'line,action,start_s,end_s'");
      continue;
    }
    std::vector<std::string> f;
    std::stringstream ss(s);
    for (std::string x; std::getline(ss, x, ',');)
      f.push_back(x);
    long long line = 0;
    double start = 0, end = 0;
    if (f.size() != 4 || !to_int(f[0], line) || line < 1 ||
        std::from_chars(f[2].data(), f[2].data() + f[2].size(), start).ec != std::errc() ||
        std::from_chars(f[3].data(), f[3].data() + f[3].size(), end).ec != std::errc() || end < start)
      bad("expected '<line>,<action>,<start_s>,<end_s>' with start <= end");
    if (f[1] == "compute")
      seconds[static_cast<std::uint64_t>(line)] = end - start;
  }
  return seconds;
}

} // namespace

RankFiles with_durations(const fs::path& trace_list)
{
  std::unique_ptr<trace::TraceSet> set = open_set(trace_list);
  RankFiles out;
  for (int r = 0; r < set->rank_count(); ++r) {
    std::unique_ptr<trace::RankReader> reader = set->reader(r);
    fs::path timings = trace_list.parent_path() / ("timings-" + std::to_string(r) + ".csv");
    std::map<std::uint64_t, double> seconds = compute_seconds(timings);
    std::vector<std::string> lines = {"# tit-convert --durations: each compute replaced by its measured duration"};
    for (std::string& h : header_lines(reader->file()))
      lines.push_back(std::move(h));
    Action a;
    while (reader->next(a)) {
      Action b = a;
      if (a.kind == Kind::Compute) {
        auto it = seconds.find(a.line);
        if (it == seconds.end())
          fail(a, "no compute row for this line in " + timings.string() + " (timings of another run?)");
        b.kind = Kind::Sleep;
        b.amount = it->second;
      }
      lines.push_back(trace::format_action(b, Dialect::SimGrid));
    }
    out.emplace_back(r, std::move(lines));
  }
  return out;
}

void write_traces(const fs::path& outdir, const RankFiles& ranks)
{
  std::error_code ec;
  fs::create_directories(outdir, ec);
  if (ec)
    throw ConvertError(outdir.string() + ": error: cannot create the output directory: " + ec.message());
  std::ofstream list(outdir / "trace.list");
  for (auto const& [r, lines] : ranks) {
    std::string name = "rank-" + std::to_string(r) + ".txt";
    std::ofstream f(outdir / name);
    for (auto const& l : lines)
      f << l << '\n';
    f.close();
    if (!f)
      throw ConvertError((outdir / name).string() + ": error: writing failed");
    list << name << '\n';
  }
  list.close();
  if (!list)
    throw ConvertError((outdir / "trace.list").string() + ": error: writing failed");
}

std::size_t convert_into(const fs::path& input, const fs::path& outdir, std::optional<Dialect> to, Source source)
{
  RankFiles out = to ? convert(input, *to, source) : with_durations(input / "trace.list");
  write_traces(outdir, out);
  return out.size();
}

} // namespace tit::convert

#include "timings.hpp"

#include "csv.hpp"
#include "trace/reader.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <memory>
#include <string>
#include <unordered_map>

namespace tit::calib {

TimingsFile read_timings(const std::filesystem::path& path)
{
  // The tracer's side file has no "# tit-calibrate" line: give CsvTable one.
  std::ifstream in(path, std::ios::binary);
  if (not in)
    throw InputError(fmt::format("{}: error: cannot open the timings file", path.string()));
  std::string text = "# tit-calibrate timings v1\n";
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line))
    text += line + "\n";
  auto t = CsvTable::parse(text, path.string(), "timings");
  // Line numbers in messages: the added first line shifts every line by one.
  auto cl = t.column("line");
  auto ca = t.column("action");
  auto cs = t.column("start_s");
  auto ce = t.column("end_s");
  TimingsFile out;
  if (std::string o = t.meta("origin"); not o.empty()) {
    double v = 0;
    if (not parse_number(o.substr(0, o.find(' ')), v))
      throw InputError(fmt::format("{}: error: '# origin:' expects a time in seconds, got '{}'", path.string(), o));
    out.origin = v;
    out.host = t.meta("host");
  }
  for (auto row : t.rows()) {
    row.line -= 1;
    auto where = [&](std::size_t c) { return fmt::format("{}:{}:{}", path.string(), row.line, c + 1); };
    auto number = [&](std::size_t c) {
      double v = 0;
      if (not parse_number(row.fields[c], v))
        throw InputError(fmt::format("{}: error: column '{}' expects a number, got '{}'", where(c), t.columns()[c],
                                     row.fields[c]));
      return v;
    };
    double ln = number(cl);
    // below 2^53 before the cast: a larger double (or NaN) is no line number, and converting it would be undefined
    if (!(ln >= 1 && ln < 9007199254740992.0) || ln != static_cast<double>(static_cast<std::uint64_t>(ln)))
      throw InputError(fmt::format("{}: error: column 'line' expects a line number >= 1, got '{}'", where(cl),
                                   row.fields[cl]));
    double start = number(cs);
    double end = number(ce);
    if (end < start)
      throw InputError(fmt::format("{}: error: end_s {} is before start_s {}", where(ce), row.fields[ce], row.fields[cs]));
    out.rows[static_cast<std::uint64_t>(ln)] = Timing{row.fields[ca], start, end};
  }
  return out;
}

const Timing& timing_of(const TimingsFile& timings, const trace::Action& a, const std::filesystem::path& path)
{
  auto it = timings.rows.find(a.line);
  if (it == timings.rows.end())
    throw InputError(fmt::format("{}:{}: error: no timing for this {} line in {}\n  {}", *a.file, a.line, a.name,
                                 path.string(), a.text));
  if (it->second.action != a.name)
    throw InputError(fmt::format("{}:{}: error: {} times action '{}' at this line, the trace has '{}'\n  {}", *a.file,
                                 a.line, path.string(), it->second.action, a.name, a.text));
  return it->second;
}

std::vector<TimedAction> timed_actions(const std::filesystem::path& traces, const std::filesystem::path& timings_dir,
                                       const std::function<bool(const trace::Action&)>& keep)
{
  std::unique_ptr<trace::TraceSet> set;
  try {
    set = trace::TraceSet::open(traces, std::nullopt);
  } catch (const trace::TraceError& e) {
    throw InputError(e.what());
  }
  std::vector<TimedAction> out;
  std::vector<std::string> hosts;
  for (int r = 0; r < set->rank_count(); ++r) {
    auto timings_path = timings_dir / fmt::format("timings-{}.csv", r);
    auto file = read_timings(timings_path);
    int host = -1;
    if (file.origin) {
      auto h = std::find(hosts.begin(), hosts.end(), file.host);
      host = static_cast<int>(h - hosts.begin());
      if (h == hosts.end())
        hosts.push_back(file.host);
    }
    double origin = file.origin.value_or(0);
    auto reader = set->reader(r);
    trace::Action a;
    try {
      while (reader->next(a)) {
        if (not keep(a))
          continue;
        const Timing& t = timing_of(file, a, timings_path);
        out.push_back(TimedAction{r, a.kind, a.partner, a.partner2, a.bytes, a.bytes2, a.amount, a.tag, a.comm,
                                  t.end - t.start, origin + t.start, origin + t.end, host, a.src, a.dst});
      }
    } catch (const trace::TraceError& e) {
      throw InputError(e.what());
    }
  }
  return out;
}

} // namespace tit::calib

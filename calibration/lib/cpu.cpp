#include "cpu.hpp"

#include "trace/reader.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <fstream>
#include <tuple>

namespace tit::calib {

std::vector<CpuBurst> load_cpu(const CsvTable& t)
{
  auto cr = t.column("rank");
  auto cp = t.column("problem");
  auto ci = t.column("iteration");
  t.column("burst");
  auto cv = t.column("volume");
  auto cs = t.column("seconds");
  std::vector<CpuBurst> out;
  for (auto const& row : t.rows()) {
    CpuBurst b;
    b.rank = static_cast<int>(t.count(row, cr));
    b.problem = t.non_negative(row, cp);
    b.iteration = static_cast<int>(t.count(row, ci));
    b.volume = t.non_negative(row, cv);
    b.seconds = t.non_negative(row, cs);
    out.push_back(b);
  }
  return out;
}

namespace {

struct Timing {
  std::string action;
  double seconds = 0;
};

/// timings-<r>.csv: a header row, then line,action,start_s,end_s.
std::unordered_map<std::uint64_t, Timing> read_timings(const std::filesystem::path& path)
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
  std::unordered_map<std::uint64_t, Timing> out;
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
    if (ln < 1 || ln != static_cast<double>(static_cast<std::uint64_t>(ln)))
      throw InputError(fmt::format("{}: error: column 'line' expects a line number >= 1, got '{}'", where(cl),
                                   row.fields[cl]));
    double start = number(cs);
    double end = number(ce);
    if (end < start)
      throw InputError(fmt::format("{}: error: end_s {} is before start_s {}", where(ce), row.fields[ce], row.fields[cs]));
    out[static_cast<std::uint64_t>(ln)] = Timing{row.fields[ca], end - start};
  }
  return out;
}

} // namespace

std::vector<CpuBurst> bursts_from_trace(const std::filesystem::path& traces, const std::filesystem::path& timings_dir,
                                        double problem, int iteration)
{
  std::unique_ptr<trace::TraceSet> set;
  try {
    set = trace::TraceSet::open(traces, std::nullopt);
  } catch (const trace::TraceError& e) {
    throw InputError(e.what());
  }
  std::vector<CpuBurst> out;
  for (int r = 0; r < set->rank_count(); ++r) {
    auto timings_path = timings_dir / fmt::format("timings-{}.csv", r);
    auto timings = read_timings(timings_path);
    auto reader = set->reader(r);
    trace::Action a;
    try {
      while (reader->next(a)) {
        if (a.kind != trace::Kind::Compute)
          continue;
        auto it = timings.find(a.line);
        if (it == timings.end())
          throw InputError(fmt::format("{}:{}: error: no timing for this compute line in {}\n  {}", *a.file, a.line,
                                       timings_path.string(), a.text));
        if (it->second.action != a.name)
          throw InputError(fmt::format("{}:{}: error: {} times action '{}' at this line, the trace has '{}'\n  {}",
                                       *a.file, a.line, timings_path.string(), it->second.action, a.name, a.text));
        out.push_back(CpuBurst{r, problem, iteration, a.amount, it->second.seconds});
      }
    } catch (const trace::TraceError& e) {
      throw InputError(e.what());
    }
  }
  return out;
}

std::string trace_compute_unit(const std::filesystem::path& traces)
{
  try {
    std::string unit = trace::TraceSet::open(traces, std::nullopt)->compute_unit();
    return unit.empty() ? "unknown" : unit;
  } catch (const trace::TraceError& e) {
    throw InputError(e.what());
  }
}

std::string cpu_unit(const CsvTable& table)
{
  std::string unit = table.meta("unit");
  return unit.empty() ? "flops" : unit;
}

void write_cpu_csv(std::ostream& out, const std::vector<CpuBurst>& bursts, const std::string& source,
                   const std::string& unit)
{
  out << "# tit-calibrate cpu v1\n";
  out << "# source: " << source << "\n";
  out << "# unit: " << unit << "\n";
  out << "rank,problem,iteration,burst,volume,seconds\n";
  std::map<std::tuple<int, double, int>, int> counter;
  for (auto const& b : bursts) {
    int k = counter[{b.rank, b.problem, b.iteration}]++;
    out << fmt::format("{},{},{},{},{:.17g},{:.9g}\n", b.rank, b.problem, b.iteration, k, b.volume, b.seconds);
  }
}

CpuFit fit_cpu(const std::vector<CpuBurst>& bursts, std::optional<double> problem)
{
  // problem -> rank -> iteration -> (volume, seconds)
  std::map<double, std::map<int, std::map<int, std::pair<double, double>>>> sums;
  for (auto const& b : bursts) {
    auto& s = sums[b.problem][b.rank][b.iteration];
    s.first += b.volume;
    s.second += b.seconds;
  }
  if (sums.empty())
    throw InputError("error: no compute burst in the CPU data");
  CpuFit fit;
  for (auto const& [p, ranks] : sums) {
    CpuProblem cp;
    cp.problem = p;
    for (auto const& [r, iters] : ranks) {
      double total = 0;
      int n = 0;
      for (auto const& [i, vs] : iters) {
        if (vs.second <= 0)
          throw InputError(fmt::format("error: rank {} problem {} repetition {}: compute bursts of zero duration", r,
                                       p, i));
        total += vs.first / vs.second;
        ++n;
      }
      cp.rank_rate.push_back(total / n);
      cp.repetitions = std::max(cp.repetitions, n);
    }
    double sum = 0;
    for (double v : cp.rank_rate)
      sum += v;
    cp.mean = sum / static_cast<double>(cp.rank_rate.size());
    cp.min = *std::min_element(cp.rank_rate.begin(), cp.rank_rate.end());
    cp.max = *std::max_element(cp.rank_rate.begin(), cp.rank_rate.end());
    fit.problems.push_back(cp);
  }
  const CpuProblem* chosen = &fit.problems.back();
  if (problem) {
    auto it = std::find_if(fit.problems.begin(), fit.problems.end(), [&](auto const& c) { return c.problem == *problem; });
    if (it == fit.problems.end())
      throw InputError(fmt::format("error: problem size {} was not measured", *problem));
    chosen = &*it;
  }
  fit.speed = chosen->mean;
  fit.chosen_problem = chosen->problem;
  return fit;
}

void write_cpu_report(std::ostream& out, const CpuFit& fit)
{
  out << fmt::format("{:>14} {:>6} {:>5} {:>14} {:>14} {:>14}\n", "problem", "ranks", "reps", "mean rate/s",
                     "min rank", "max rank");
  for (auto const& p : fit.problems)
    out << fmt::format("{:>14.6g} {:>6} {:>5} {:>14.6g} {:>14.6g} {:>14.6g}\n", p.problem, p.rank_rate.size(),
                       p.repetitions, p.mean, p.min, p.max);
  out << fmt::format("CPU speed: {:.6g} {} per second (problem {:.6g})\n", fit.speed, fit.unit, fit.chosen_problem);
}

} // namespace tit::calib

#include "cpu.hpp"
#include "timings.hpp"

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

std::vector<CpuBurst> bursts_from_trace(const std::filesystem::path& traces, const std::filesystem::path& timings_dir,
                                        double problem, int iteration)
{
  std::vector<CpuBurst> out;
  for (auto const& t : timed_actions(traces, timings_dir, [](const trace::Action& a) { return a.kind == trace::Kind::Compute; }))
    out.push_back(CpuBurst{t.rank, problem, iteration, t.amount, t.seconds});
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
      // The median over repetitions: a repetition slowed by the system (a rank descheduled inside its bursts)
      // is an outlier on one side, which a mean would follow.
      std::vector<double> rates;
      for (auto const& [i, vs] : iters) {
        if (vs.second <= 0)
          throw InputError(fmt::format("error: rank {} problem {} repetition {}: compute bursts of zero duration", r,
                                       p, i));
        rates.push_back(vs.first / vs.second);
      }
      std::sort(rates.begin(), rates.end());
      std::size_t n = rates.size();
      cp.rank_rate.push_back(n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2);
      cp.repetitions = std::max(cp.repetitions, static_cast<int>(n));
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

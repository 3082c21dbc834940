#include "output/report.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <fmt/ostream.h>

namespace tit::output {
namespace {

constexpr std::size_t kFullTableMaxRanks = 32;

void write_row(std::ostream& out, const std::string& label, const std::string& host, double finish, double compute,
               double comm, double waiting)
{
  fmt::print(out, "  {:<8} {:<16} {:>16.9f} {:>16.9f} {:>16.9f} {:>16.9f}\n", label, host, finish, compute, comm,
             waiting);
}

} // namespace

void write_summary(std::ostream& out, const replay::Result& result, bool per_rank)
{
  fmt::print(out, "Simulated time: {:.12g} s\n", result.simulated_time);
  if (result.ranks.empty())
    return;
  fmt::print(out, "Per rank (simulated seconds; communicating excludes waiting for a late partner):\n");
  fmt::print(out, "  {:<8} {:<16} {:>16} {:>16} {:>16} {:>16}\n", "rank", "host", "finish", "computing",
             "communicating", "waiting");
  auto const& ranks = result.ranks;
  if (per_rank || ranks.size() <= kFullTableMaxRanks) {
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      auto const& s = ranks[r];
      write_row(out, std::to_string(r), s.host, s.end - s.start, s.compute, s.mpi - s.waiting, s.waiting);
    }
    return;
  }
  // Many ranks: minimum, mean and maximum of each column (--per-rank prints them all).
  auto column = [&](auto get) {
    double lo = get(ranks.front()), hi = lo, sum = 0;
    for (auto const& s : ranks) {
      double v = get(s);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
    return std::array<double, 3>{{lo, sum / static_cast<double>(ranks.size()), hi}};
  };
  auto finish = column([](const replay::RankStats& s) { return s.end - s.start; });
  auto compute = column([](const replay::RankStats& s) { return s.compute; });
  auto comm = column([](const replay::RankStats& s) { return s.mpi - s.waiting; });
  auto waiting = column([](const replay::RankStats& s) { return s.waiting; });
  const char* labels[] = {"min", "mean", "max"};
  for (int i = 0; i < 3; ++i)
    write_row(out, labels[i], fmt::format("({} ranks)", ranks.size()), finish[i], compute[i], comm[i], waiting[i]);
}

void write_workload_summary(std::ostream& out, const replay::Result& result)
{
  fmt::print(out, "Makespan: {:.12g} s\n", result.makespan);
  fmt::print(out, "Per job (simulated seconds):\n");
  fmt::print(out, "  {:<16} {:>18} {:>18} {:>18} {:>18} {:>10}\n", "job", "start", "end", "duration", "alone",
             "slowdown");
  for (auto const& j : result.jobs) {
    std::string alone = j.alone ? fmt::format("{:.12g}", *j.alone) : "-";
    std::string slowdown = not j.alone ? "-" : *j.alone > 0 ? fmt::format("{:.6f}", j.duration() / *j.alone) : "1";
    fmt::print(out, "  {:<16} {:>18.12g} {:>18.12g} {:>18.12g} {:>18} {:>10}\n", j.name, j.start, j.end, j.duration(),
               alone, slowdown);
  }
}

void write_actions_log_header(std::ostream& out)
{
  fmt::print(out, "# tit-replay actions-log v1: rank<TAB>start<TAB>end<TAB>action line (simulated seconds)\n");
}

} // namespace tit::output

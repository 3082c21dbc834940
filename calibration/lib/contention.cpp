#include "contention.hpp"

#include "fit.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>

namespace tit::calib {

std::vector<ContentionRow> load_contention(const CsvTable& t)
{
  auto ce = t.column("experiment");
  auto cc = t.column("concurrency");
  auto cp = t.column("pair");
  auto cr = t.column("rank");
  auto cs = t.column("size");
  t.column("iteration");
  auto ct = t.column("seconds");
  std::vector<ContentionRow> rows;
  for (auto const& row : t.rows()) {
    ContentionRow r;
    const std::string& e = row.fields[ce];
    if (e == "sendrecv")
      r.sendrecv = true;
    else if (e != "ping")
      throw InputError(fmt::format("{}: error: unknown experiment '{}' (expected ping or sendrecv)", t.where(row, ce), e));
    r.concurrency = static_cast<int>(t.count(row, cc));
    if (r.concurrency < 1)
      throw InputError(fmt::format("{}: error: column 'concurrency' expects an integer >= 1, got '{}'",
                                   t.where(row, cc), row.fields[cc]));
    r.pair = static_cast<int>(t.count(row, cp));
    r.rank = static_cast<int>(t.count(row, cr));
    r.size = static_cast<double>(t.count(row, cs));
    r.seconds = t.non_negative(row, ct);
    if (r.seconds <= 0)
      throw InputError(fmt::format("{}: error: column 'seconds' expects a time > 0, got '{}'", t.where(row, ct),
                                   row.fields[ct]));
    rows.push_back(r);
  }
  return rows;
}

ContentionFit fit_contention(const std::vector<ContentionRow>& rows)
{
  std::map<int, std::pair<std::vector<double>, std::vector<double>>> by_level;
  for (auto const& r : rows) {
    auto& [ping, exch] = by_level[r.concurrency];
    if (r.sendrecv)
      exch.push_back(2 * r.size / r.seconds);
    else
      ping.push_back(r.size / r.seconds);
  }
  ContentionFit fit;
  for (auto& [c, v] : by_level)
    fit.levels.push_back({c, median(v.first), median(v.second)});
  auto one = by_level.find(1);
  if (one == by_level.end() || one->second.first.empty() || one->second.second.empty())
    throw InputError("error: the contention data needs ping and sendrecv measurements with concurrency 1");
  fit.ratio = fit.levels.front().exchange_bw / fit.levels.front().ping_bw;
  double r = fit.ratio;
  if (r < 1 || r > 2) {
    r = std::clamp(r, 1.0, 2.0);
    fit.warnings.push_back(fmt::format("measured full-duplex ratio {:.3f} is outside [1, 2]; {:.0f} used", fit.ratio, r));
  }
  fit.limiter_ratio = 1.05 * r;
  return fit;
}

void write_contention_report(std::ostream& out, const ContentionFit& fit)
{
  out << fmt::format("{:>11} {:>16} {:>22}\n", "concurrency", "ping (B/s)", "exchange, per node (B/s)");
  for (auto const& l : fit.levels)
    out << fmt::format("{:>11} {:>16.4g} {:>22.4g}\n", l.concurrency, l.ping_bw, l.exchange_bw);
  out << fmt::format("Full-duplex ratio (sent + received) / ping: {:.3f}; limiter link = {:.4f} x node link bandwidth\n",
                     fit.ratio, fit.limiter_ratio);
  for (auto const& w : fit.warnings)
    out << "warning: " << w << "\n";
}

} // namespace tit::calib

#include "collect.hpp"

#include "result.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fstream>

namespace fs = std::filesystem;

namespace tit::sweep {

namespace {

std::string csv_field(const std::string& s)
{
  if (s.find_first_of(",\"\n\r") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' || c == '\r' ? ' ' : c);
  return q + "\"";
}

std::string number(double v)
{
  return fmt::format("{}", v); // shortest text that reads back as the same double
}

} // namespace

Counts count_results(const Plan& plan)
{
  Counts c;
  for (auto const& p : plan.points) {
    auto r = read_result(p.dir);
    if (not r.present)
      ++c.pending;
    else if (r.exit_code != 0)
      ++c.failed;
    else
      ++c.done;
  }
  return c;
}

Counts write_csv(std::ostream& out, const Plan& plan)
{
  Counts c;
  out << "# tit-sweep results v1\n";
  std::vector<std::string> header;
  for (auto const& k : plan.keys)
    header.push_back(csv_field(k));
  header.insert(header.end(), {"predicted_time", "ranks"});
  for (const char* part : {"computing", "communicating", "waiting"})
    for (const char* stat : {"min", "mean", "max"})
      header.push_back(fmt::format("{}_{}", part, stat));
  header.insert(header.end(), {"wall_time", "max_rss_mb", "exit_code", "error"});
  out << fmt::format("{}\n", fmt::join(header, ","));
  for (auto const& p : plan.points) {
    std::vector<std::string> row;
    for (auto const& v : p.values)
      row.push_back(csv_field(v));
    auto r = read_result(p.dir);
    if (not r.present) {
      ++c.pending;
      row.resize(row.size() + 15);
      row.push_back("pending");
    } else {
      bool ok = r.exit_code == 0;
      ++(ok ? c.done : c.failed);
      row.push_back(ok ? number(r.predicted_time) : "");
      bool per_rank = ok && not std::isnan(r.per_rank.front().min); // none when fast-forwarded
      row.push_back(per_rank ? std::to_string(r.ranks) : "");
      for (auto const& m : r.per_rank)
        for (double v : {m.min, m.mean, m.max})
          row.push_back(per_rank ? number(v) : "");
      row.push_back(fmt::format("{:.3f}", r.wall_time));
      row.push_back(fmt::format("{:.1f}", static_cast<double>(r.max_rss_kb) / 1024.0));
      row.push_back(std::to_string(r.exit_code));
      row.push_back(csv_field(r.error));
    }
    out << fmt::format("{}\n", fmt::join(row, ","));
  }
  return c;
}

Counts collect(const Plan& plan)
{
  auto file = plan.out / "results.csv";
  auto tmp = file.string() + ".tmp";
  Counts c;
  {
    std::ofstream o(tmp);
    c = write_csv(o, plan);
    if (not o)
      throw std::runtime_error(fmt::format("{}: cannot write the results", tmp));
  }
  fs::rename(tmp, file);
  return c;
}

} // namespace tit::sweep

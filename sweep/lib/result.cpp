#include "result.hpp"

#include "plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace tit::sweep {

namespace {

constexpr const char* kPointSchema = "tit-sweep point v1";
constexpr std::array<const char*, 3> kParts{"busy", "communication", "waiting"};
constexpr double kNone = std::numeric_limits<double>::quiet_NaN(); ///< a figure the run did not give

// Runs argv with stdout and stderr into files; returns the exit code (128 + signal when killed).
int spawn(const std::vector<std::string>& argv, const fs::path& out, const fs::path& err, std::string& why,
          long& max_rss_kb)
{
  pid_t pid = fork();
  if (pid < 0) {
    why = fmt::format("cannot start tit-replay: {}", std::strerror(errno));
    return 127;
  }
  if (pid == 0) {
    int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int in = ::open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || in < 0)
      _exit(126);
    dup2(in, 0);
    dup2(o, 1);
    dup2(e, 2);
    std::vector<char*> args;
    for (auto const& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    dprintf(2, "tit-sweep: cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  max_rss_kb = usage.ru_maxrss; // kilobytes on Linux
  if (WIFSIGNALED(status)) {
    why = fmt::format("tit-replay killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

// The line of tit-replay's stderr that says what went wrong: the first with "error", else the last.
std::string error_line(const fs::path& err)
{
  std::ifstream in(err);
  std::string line, last, first_error;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    last = line;
    if (first_error.empty() && line.find("error") != std::string::npos)
      first_error = line;
  }
  std::string msg = first_error.empty() ? last : first_error;
  return msg.size() > 300 ? msg.substr(0, 300) + "..." : msg;
}

void read_analysis(const fs::path& file, PointResult& r)
{
  std::ifstream in(file);
  json j = json::parse(in);
  r.predicted_time = j.at("simulated_time").get<double>();
  auto const& ranks = j.at("ranks");
  r.ranks = ranks.size();
  for (std::size_t k = 0; k < kParts.size(); ++k) {
    MinMeanMax m;
    double sum = 0;
    bool first = true;
    for (auto const& rank : ranks) {
      double v = rank.at(kParts[k]).get<double>();
      m.min = first ? v : std::min(m.min, v);
      m.max = first ? v : std::max(m.max, v);
      sum += v;
      first = false;
    }
    m.mean = ranks.empty() ? 0 : sum / static_cast<double>(ranks.size());
    r.per_rank[k] = m;
  }
}

/// The time of tit-replay's "Simulated time: T s" line in `file`; NaN when there is none.
double summary_time(const fs::path& file)
{
  std::ifstream in(file);
  constexpr std::string_view prefix = "Simulated time: ";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0)
      return std::strtod(line.c_str() + prefix.size(), nullptr);
  return kNone;
}

/// A number of a result file, or null when there is none (NaN).
json number_or_null(double v)
{
  return std::isnan(v) ? json(nullptr) : json(v);
}
double number_of(const json& j)
{
  return j.is_null() ? kNone : j.get<double>();
}

json to_json(const PointResult& r)
{
  json j{{"schema", kPointSchema}, {"exit_code", r.exit_code},         {"error", r.error},
         {"wall_time", r.wall_time}, {"predicted_time", r.predicted_time}, {"ranks", r.ranks},
         {"max_rss_kb", r.max_rss_kb}};
  for (std::size_t k = 0; k < kParts.size(); ++k)
    j[kParts[k]] = {{"min", number_or_null(r.per_rank[k].min)}, {"mean", number_or_null(r.per_rank[k].mean)},
                    {"max", number_or_null(r.per_rank[k].max)}};
  return j;
}

} // namespace

PointResult read_result(const fs::path& dir)
{
  PointResult r;
  std::ifstream in(dir / "result.json");
  if (not in)
    return r;
  try {
    json j = json::parse(in);
    if (j.value("schema", "") != kPointSchema)
      return r;
    r.exit_code = j.at("exit_code").get<int>();
    r.error = j.at("error").get<std::string>();
    r.wall_time = j.at("wall_time").get<double>();
    r.predicted_time = j.at("predicted_time").get<double>();
    r.ranks = j.at("ranks").get<std::size_t>();
    r.max_rss_kb = j.value("max_rss_kb", 0L);
    for (std::size_t k = 0; k < kParts.size(); ++k)
      r.per_rank[k] = {number_of(j.at(kParts[k]).at("min")), number_of(j.at(kParts[k]).at("mean")),
                       number_of(j.at(kParts[k]).at("max"))};
    r.present = true;
  } catch (const json::exception&) {
    r.present = false; // an unreadable result is run again
  }
  return r;
}

PointResult run_point(const PlannedPoint& point)
{
  PointResult r;
  auto analysis = point.dir / "analysis.json";
  fs::remove(analysis);
  auto start = std::chrono::steady_clock::now();
  std::string why;
  r.exit_code = spawn(point.argv, point.dir / "stdout.txt", point.dir / "stderr.txt", why, r.max_rss_kb);
  r.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.exit_code != 0) {
    r.error = why.empty() ? error_line(point.dir / "stderr.txt") : why;
    if (r.error.empty())
      r.error = fmt::format("tit-replay exited with code {}", r.exit_code);
  } else if (not fs::exists(analysis)) { // --fast-forward: the summary's time, no per-rank figures
    r.predicted_time = summary_time(point.dir / "stdout.txt");
    r.per_rank.fill({kNone, kNone, kNone});
    if (std::isnan(r.predicted_time)) {
      r.exit_code = 1;
      r.error = fmt::format("{}: no 'Simulated time:' line", (point.dir / "stdout.txt").string());
    }
  } else {
    try {
      read_analysis(analysis, r);
    } catch (const std::exception& e) {
      r.exit_code = 1;
      r.error = fmt::format("{}: unreadable analysis: {}", analysis.string(), e.what());
    }
  }
  // Killed from outside (Ctrl-C, a Slurm time limit, a shutdown): the point was interrupted, not
  // failed; without a result file it runs again when the sweep is resumed.
  if (r.exit_code == 128 + SIGINT || r.exit_code == 128 + SIGTERM || r.exit_code == 128 + SIGHUP) {
    r.present = false;
    return r;
  }
  auto tmp = point.dir / "result.json.tmp";
  {
    std::ofstream o(tmp);
    o << to_json(r).dump(1) << '\n';
  }
  fs::rename(tmp, point.dir / "result.json");
  r.present = true;
  return r;
}

} // namespace tit::sweep

#include "slurm.hpp"

#include "local.hpp"
#include "progress.hpp"
#include "result.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace fs = std::filesystem;

namespace tit::sweep {

namespace {

std::string quote(const std::string& s)
{
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a shell command, returns its stdout and exit status.
std::string capture(const std::string& cmd, int& status)
{
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (not f) {
    status = -1;
    return out;
  }
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    out.append(buf, n);
  int rc = pclose(f);
  status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return out;
}

// "0-4,7,9-12": a Slurm array index list of sorted offsets.
std::string ranges(const std::vector<std::size_t>& v)
{
  std::string s;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1)
      ++j;
    s += (s.empty() ? "" : ",") + (i == j ? std::to_string(v[i]) : fmt::format("{}-{}", v[i], v[j]));
    i = j + 1;
  }
  return s;
}

} // namespace

std::optional<std::size_t> max_array_size_from_scontrol()
{
  int status = 0;
  auto out = capture("scontrol show config 2>/dev/null", status);
  if (status != 0)
    return std::nullopt;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name, eq;
    std::size_t value = 0;
    if (words >> name >> eq >> value && name == "MaxArraySize" && eq == "=" && value > 0)
      return value;
  }
  return std::nullopt;
}

std::string sbatch_script(const Plan& plan, const SlurmOptions& o, std::size_t first,
                          const std::vector<std::size_t>& offsets)
{
  auto logs = plan.out / "slurm";
  std::string s = "#!/bin/bash\n";
  s += fmt::format("# tit-sweep: points {} + SLURM_ARRAY_TASK_ID of {}\n", first, plan.sweep_file);
  s += "#SBATCH --job-name=tit-sweep\n";
  s += fmt::format("#SBATCH --array={}{}\n", ranges(offsets), o.throttle ? fmt::format("%{}", o.throttle) : "");
  s += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  s += fmt::format("#SBATCH --output={}/%A_%a.out\n", logs.string());
  if (not o.time.empty())
    s += fmt::format("#SBATCH --time={}\n", o.time);
  if (not o.mem.empty())
    s += fmt::format("#SBATCH --mem={}\n", o.mem);
  if (not o.partition.empty())
    s += fmt::format("#SBATCH --partition={}\n", o.partition);
  if (not o.account.empty())
    s += fmt::format("#SBATCH --account={}\n", o.account);
  for (auto const& a : o.sbatch_args)
    s += fmt::format("#SBATCH {}\n", a);
  s += fmt::format("exec {} run-point {} $(({} + SLURM_ARRAY_TASK_ID))\n", quote(o.tit_sweep), quote(plan.out.string()),
                   first);
  return s;
}

void estimate_requests(const Plan& plan, SlurmOptions& o, std::ostream& log)
{
  if (not o.time.empty() && not o.mem.empty())
    return;
  double wall = 0;
  long rss = 0;
  std::size_t seen = 0;
  for (auto const& p : plan.points) {
    auto r = read_result(p.dir);
    if (r.present && r.exit_code == 0) {
      wall = std::max(wall, r.wall_time);
      rss = std::max(rss, r.max_rss_kb);
      ++seen;
    }
  }
  if (seen == 0)
    return;
  if (o.time.empty())
    o.time = std::to_string(std::max(1L, static_cast<long>(std::ceil(3 * wall / 60))));
  if (o.mem.empty() && rss > 0)
    o.mem = fmt::format("{}M", static_cast<long>(std::ceil(2.0 * static_cast<double>(rss) / 1024)) + 64);
  log << fmt::format("tit-sweep: requesting --time={} --mem={} per point, from the {} points already run (longest "
                     "{:.1f} s, largest {:.0f} MB)\n",
                     o.time, o.mem, seen, wall, static_cast<double>(rss) / 1024);
}

std::vector<std::string> submit(const Plan& plan, const SlurmOptions& o, std::ostream& log, bool dry_run)
{
  auto todo = pending_points(plan, o.retry_failed);
  std::size_t chunk = o.max_array_size ? *o.max_array_size : max_array_size_from_scontrol().value_or(1001);
  if (chunk == 0)
    chunk = 1;
  std::map<std::size_t, std::vector<std::size_t>> chunks;  // first point of a chunk -> offsets
  for (auto const* p : todo)
    chunks[p->index / chunk * chunk].push_back(p->index % chunk);
  if (o.retry_failed)
    for (auto const* p : todo)
      fs::remove(p->dir / "result.json");
  auto dir = plan.out / "slurm";
  fs::create_directories(dir);
  std::vector<std::string> ids;
  for (auto const& [first, offsets] : chunks) {
    auto script = dir / fmt::format("array-{:06}.sbatch", first);
    std::ofstream(script) << sbatch_script(plan, o, first, offsets);
    if (dry_run) {
      log << fmt::format("tit-sweep: wrote {} ({} points from {}), not submitted\n", script.string(), offsets.size(),
                         first);
      continue;
    }
    int status = 0;
    auto out = capture(fmt::format("sbatch --parsable {} 2>&1", quote(script.string())), status);
    while (not out.empty() && (out.back() == '\n' || out.back() == '\r'))
      out.pop_back();
    if (status != 0)
      throw std::runtime_error(fmt::format("sbatch {} failed (exit {}): {}", script.string(), status, out));
    auto id = out.substr(0, out.find(';'));
    ids.push_back(id);
    std::ofstream(dir / "jobs", std::ios::app) << id << '\n';
    log << fmt::format("tit-sweep: submitted job {} ({} points from {}, script {})\n", id, offsets.size(), first,
                       script.string());
  }
  if (chunks.empty())
    log << "tit-sweep: every point has its result; nothing submitted\n";
  return ids;
}

std::vector<std::string> recorded_jobs(const Plan& plan)
{
  std::vector<std::string> ids;
  std::ifstream in(plan.out / "slurm" / "jobs");
  std::string id;
  while (in >> id)
    ids.push_back(id);
  return ids;
}

QueueState queue_state(const std::vector<std::string>& jobs)
{
  QueueState q;
  if (jobs.empty()) {
    q.known = true;
    return q;
  }
  std::string list;
  for (auto const& j : jobs)
    list += (list.empty() ? "" : ",") + j;
  int status = 0;
  auto out = capture(fmt::format("squeue -h -r -o %T -j {} 2>/dev/null", quote(list)), status);
  if (status != 0) {
    // squeue refuses ids it no longer knows: ask for the whole queue and keep ours.
    out = capture("squeue -h -r -o '%F %T' 2>/dev/null", status);
    if (status != 0)
      return q;
    std::istringstream in(out);
    std::string id, state, filtered;
    while (in >> id >> state)
      if (std::find(jobs.begin(), jobs.end(), id) != jobs.end())
        filtered += state + "\n";
    out = filtered;
  }
  q.known = true;
  std::istringstream in(out);
  std::string state;
  while (in >> state)
    ++(state == "RUNNING" || state == "COMPLETING" ? q.running : q.queued);
  return q;
}

bool wait_for(const Plan& plan, const std::vector<std::string>& jobs, double poll_s, double timeout_s,
              std::ostream& out, bool terminal)
{
  auto start = std::chrono::steady_clock::now();
  auto initial = count_results(plan);
  Progress progress(out, terminal, plan.points.size(), initial.done + initial.failed);
  while (true) {
    auto c = count_results(plan);
    auto q = queue_state(jobs);
    std::size_t finished = c.done + c.failed - (initial.done + initial.failed);
    bool over = c.pending == 0 || (q.known && q.running + q.queued == 0);
    progress.update(finished, q.running, c.failed, finished + c.pending, over);
    if (over)
      return true;
    if (timeout_s > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_s)
      return false;
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_s));
  }
}

} // namespace tit::sweep

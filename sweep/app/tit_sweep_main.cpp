// tit-sweep: parameter sweeps of tit-replay, on this machine or as Slurm job arrays.
#include "core/error.hpp"
#include "sweep.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace tit::sweep;

namespace {

fs::path self_dir()
{
  return fs::read_symlink("/proc/self/exe").parent_path();
}

int print_counts(const Plan& plan, const Counts& c)
{
  std::cerr << fmt::format("tit-sweep: {} points: {} done, {} failed, {} pending; results in {}\n", plan.points.size(),
                           c.done, c.failed, c.pending, (plan.out / "results.csv").string());
  return 0;
}

/// `tit-sweep run`: its options, then the sweep planned and run here or on Slurm.
struct RunCommand {
  CLI::App* cmd;
  std::string sweep_file, out, tit_replay = (self_dir() / "tit-replay").string();
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool local = false, slurm = false, no_wait = false, retry = false, dry_run = false;
  double poll = 5, wait_timeout = 0;
  std::size_t max_array = 0;
  SlurmOptions so;

  explicit RunCommand(CLI::App& app)
      : cmd(app.add_subcommand("run", "check the sweep file, then run its points that have no result yet"))
  {
    cmd->add_option("sweep", sweep_file, "the sweep file (YAML)")->required();
    cmd->add_option("--out", out, "output folder (results.csv, manifest.json, points/)")->required();
    cmd->add_flag("--local", local, "run on this machine (the default)");
    cmd->add_option("-j,--jobs", jobs, "tit-replay processes at once (--local; default: the number of cores)")
        ->check(CLI::PositiveNumber);
    cmd->add_flag("--slurm", slurm, "submit the points as Slurm job arrays");
    cmd->add_option("--throttle", so.throttle, "--slurm: at most N array tasks at once (%N)");
    cmd->add_option("--time", so.time, "--slurm: time limit per point (sbatch --time, e.g. 10:00; default: estimated)");
    cmd->add_option("--mem", so.mem, "--slurm: memory per point (sbatch --mem, e.g. 2G; default: estimated)");
    cmd->add_option("--partition", so.partition, "--slurm: partition");
    cmd->add_option("--account", so.account, "--slurm: account");
    cmd->add_option("--sbatch-arg", so.sbatch_args, "--slurm: another #SBATCH line, e.g. --sbatch-arg=--qos=short");
    cmd->add_option("--max-array-size", max_array, "--slurm: tasks per array (default: scontrol's MaxArraySize)");
    cmd->add_flag("--no-wait", no_wait, "--slurm: return once submitted (then tit-sweep status/collect DIR)");
    cmd->add_option("--poll", poll, "--slurm: seconds between two looks at the queue")->check(CLI::PositiveNumber);
    cmd->add_option("--wait-timeout", wait_timeout, "--slurm: stop waiting after S seconds (0: wait until done)");
    cmd->add_flag("--retry-failed", retry, "run the failed points again");
    cmd->add_flag("--dry-run", dry_run,
                  "check the sweep and write the plan (with --slurm: and the scripts), run nothing");
    cmd->add_option("--tit-replay", tit_replay, "the tit-replay program (default: next to tit-sweep)");
  }

  int run(bool terminal)
  {
    if (local && slurm)
      throw InputError("error: --local and --slurm exclude each other");
    auto spec = load_spec(sweep_file);
    auto points = expand(spec);
    if (not fs::exists(tit_replay))
      throw InputError(fmt::format("{}: error: no tit-replay program here (give --tit-replay PATH)", tit_replay));
    auto plan = write_plan(spec, points, out, fs::absolute(tit_replay).string());
    if (dry_run && not slurm) {
      std::cerr << fmt::format("tit-sweep: {} points planned in {}\n", plan.points.size(), plan.out.string());
      return 0;
    }
    if (not slurm)
      return print_counts(plan, run_local(plan, jobs, retry, std::cerr, terminal));
    so.tit_sweep = fs::read_symlink("/proc/self/exe").string();
    so.retry_failed = retry;
    if (max_array > 0)
      so.max_array_size = max_array;
    estimate_requests(plan, so, std::cerr);
    auto ids = submit(plan, so, std::cerr, dry_run);
    if (no_wait || dry_run)
      return 0;
    if (not wait_for(plan, ids, poll, wait_timeout, std::cerr, terminal)) {
      std::cerr << "tit-sweep: --wait-timeout reached; the jobs go on (tit-sweep status/collect DIR)\n";
      return 1;
    }
    return print_counts(plan, collect(plan));
  }
};

/// `tit-sweep status DIR`: the points' counts, and the Slurm jobs' when some were recorded.
int print_status(const Plan& plan)
{
  auto c = count_results(plan);
  std::cout << fmt::format("{} points: {} done, {} failed, {} pending\n", plan.points.size(), c.done, c.failed,
                           c.pending);
  if (auto jobs_ids = recorded_jobs(plan); not jobs_ids.empty()) {
    auto q = queue_state(jobs_ids);
    if (q.known)
      std::cout << fmt::format("Slurm jobs {}: {} tasks running, {} queued\n", fmt::join(jobs_ids, ","), q.running,
                               q.queued);
    else
      std::cout << "Slurm: squeue did not answer\n";
  }
  return 0;
}

/// `tit-sweep plot DIR [ARGS]`: sweep/plot.py run by Debian's python3 in place of this process.
int exec_plot(const Plan& plan, std::vector<std::string> args)
{
  std::vector<std::string> cmd{"/usr/bin/python3", TIT_SWEEP_PLOT_SCRIPT, (plan.out / "results.csv").string()};
  cmd.insert(cmd.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : cmd)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  std::cerr << "tit-sweep: cannot run /usr/bin/python3 (Debian python3-matplotlib)\n";
  return 1;
}

} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"tit-sweep: run tit-replay over a grid of platforms, model parameters and traces"};
  app.require_subcommand(1);
  bool terminal = isatty(2);
  RunCommand run(app);

  std::string sweep_file;
  auto* check = app.add_subcommand("check", "check a sweep file and print its number of points");
  check->add_option("sweep", sweep_file, "the sweep file (YAML)")->required();

  std::string dir;
  auto* status = app.add_subcommand("status", "points done, failed and pending of a sweep (and its Slurm jobs)");
  status->add_option("dir", dir, "the sweep's output folder")->required();
  auto* collect_cmd = app.add_subcommand("collect", "write DIR/results.csv from the points' results");
  collect_cmd->add_option("dir", dir, "the sweep's output folder")->required();

  std::size_t index = 0;
  auto* run_point_cmd = app.add_subcommand("run-point", "run one point of a planned sweep (what a Slurm task runs)");
  run_point_cmd->add_option("dir", dir, "the sweep's output folder")->required();
  run_point_cmd->add_option("index", index, "the point's number")->required();

  std::vector<std::string> plot_args;
  auto* plot = app.add_subcommand("plot", "PNG plots of DIR/results.csv (matplotlib)");
  plot->add_option("dir", dir, "the sweep's output folder")->required();
  plot->add_option("args", plot_args, "more options of the plot script (see --help of sweep/plot.py)");
  plot->allow_extras();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  return tit::run_main("tit-sweep", [&] {
    if (check->parsed()) {
      auto spec = load_spec(sweep_file);
      std::cout << fmt::format("{}: {} parameters, {} points\n", sweep_file, spec.params.size(), expand(spec).size());
      return 0;
    }
    if (run.cmd->parsed())
      return run.run(terminal);
    auto plan = read_plan(dir);
    if (status->parsed())
      return print_status(plan);
    if (collect_cmd->parsed())
      return print_counts(plan, collect(plan));
    if (run_point_cmd->parsed()) {
      if (index >= plan.points.size())
        throw InputError(fmt::format("error: point {} does not exist ({} points)", index, plan.points.size()));
      if (not read_result(plan.points[index].dir).present)
        run_point(plan.points[index]);
      return 0;
    }
    if (plot->parsed()) {
      for (auto const& extra : plot->remaining())
        plot_args.push_back(extra);
      return exec_plot(plan, plot_args);
    }
    return 0;
  });
}

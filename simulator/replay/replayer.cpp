#include "replay/replayer.hpp"

#include "colls/registry.hpp"
#include "model/params.hpp"
#include "mpi/world.hpp"
#include "replay/child.hpp"
#include "replay/limits.hpp"
#include "replay/placement.hpp"
#include "replay/platform_gate.hpp"
#include "replay/rank_actor.hpp"
#include "replay/units.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/config.hpp>
#include <simgrid/s4u/Host.hpp>
#include <smpi/smpi.h>
#include <xbt/log.h>


#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string_view>
#include <variant>

namespace s4u = simgrid::s4u;

// SimGrid's engine category: its deadlock line ("Oops! Deadlock detected...") is CRITICAL, above any threshold
// --log can set; tit-replay reports deadlocks itself.
XBT_LOG_EXTERNAL_CATEGORY(ker_engine);

namespace tit::replay {
namespace {

/// smpirun's settings first, then stacks sized for a rank's replay (see kStackKiB), quieter SimGrid logs, then the
/// user's --cfg and --log (later ones win).
std::vector<std::string> engine_arguments(const Options& o)
{
  std::vector<std::string> args{"tit-replay", "--cfg=surf/precision:1e-9", "--cfg=network/model:SMPI"};
  // Thread contexts ignore a stack size, and SimGrid says so on stderr at every run: not set for them.
  bool threads = std::any_of(o.cfg.begin(), o.cfg.end(),
                             [](std::string const& c) { return c.rfind("contexts/factory:thread", 0) == 0; });
  if (not threads)
    args.push_back(fmt::format("--cfg=contexts/stack-size:{}", kStackKiB));
  args.insert(args.end(), {"--log=xbt_cfg.thresh:warning", "--log=ker_engine.thresh:critical"});
  for (auto const& c : o.cfg)
    args.push_back("--cfg=" + c);
  for (auto const& l : o.log)
    args.push_back("--log=" + l);
  return args;
}

/// SimGrid's configuration errors list every known key; keep the first line and point to --help.
std::string config_error(std::string what, const Options& o)
{
  if (auto eol = what.find('\n'); eol != std::string::npos)
    what.resize(eol);
  std::string given;
  for (auto const& c : o.cfg)
    given += " --cfg=" + c;
  for (auto const& l : o.log)
    given += " --log=" + l;
  return fmt::format("error: bad option among{}: {} (tit-replay --help lists the model parameters)", given, what);
}

void check_file(const std::filesystem::path& p, const char* what)
{
  std::error_code ec;
  if (not std::filesystem::exists(p, ec))
    throw InputError(fmt::format("error: cannot open {} '{}': no such file or directory", what, p.string()));
}

std::vector<s4u::Host*> resolve_hosts(const s4u::Engine& engine, const Placement& placement)
{
  std::vector<s4u::Host*> hosts;
  for (auto const& name : placement.hosts) {
    auto* host = engine.host_by_name_or_null(name);
    if (host == nullptr) {
      std::string known;
      auto all = engine.get_all_hosts();
      for (std::size_t i = 0; i < all.size() && i < 10; ++i)
        known += (i ? ", " : "") + all[i]->get_name();
      if (all.size() > 10)
        known += fmt::format(", ... ({} hosts)", all.size());
      throw InputError(fmt::format("{}: error: host '{}' is not in the platform (it has: {})", placement.source, name,
                                   known));
    }
    hosts.push_back(host);
  }
  return hosts;
}

/// SimGrid 3.32 sets its models up once per process: a second engine in one process crashes while loading its
/// platform. run() therefore runs once per process (the isolated baselines fork before the engine exists).
std::atomic<bool> engine_created{false};

/// The MPI world of one job, its ranks and what they share.
struct JobRun {
  const Job* job = nullptr;
  std::unique_ptr<trace::TraceSet> traces;
  std::vector<s4u::Host*> hosts;
  std::unique_ptr<mpi::World> world;
  std::unique_ptr<Communicators> communicators;
  RunState run;
  std::vector<std::unique_ptr<RankActor>> actors;
};

/// Where each rank of `job` runs, on `engine`'s platform.
std::vector<s4u::Host*> place_job(const s4u::Engine& engine, const Job& job, const platform::Topology& topology,
                                  const std::filesystem::path& platform, trace::TraceSet*& traces_out,
                                  std::unique_ptr<trace::TraceSet>& traces)
{
  std::optional<int> wanted = job.ranks;
  if (not job.deployment.empty())
    wanted = static_cast<int>(read_deployment(job.deployment).hosts.size());
  else if (not job.hosts.empty())
    wanted = static_cast<int>(job.hosts.size());
  else if (not job.host_indices.empty())
    wanted = static_cast<int>(job.host_indices.size());
  traces = job.trace_source ? job.trace_source() : trace::TraceSet::open(job.traces, wanted);
  traces_out = traces.get();
  int n = traces->rank_count();
  Placement placement;
  if (not job.host_indices.empty()) {
    auto all = engine.get_all_hosts();
    for (int index : job.host_indices) {
      if (index < 0 || static_cast<std::size_t>(index) >= all.size())
        throw InputError(fmt::format("{}: error: job '{}': host index {} is outside the platform (its {} hosts are "
                                     "numbered 0 to {})",
                                     job.where, job.name, index, all.size(), all.size() - 1));
      placement.hosts.push_back(all[static_cast<std::size_t>(index)]->get_name());
    }
    placement.source = job.where;
  } else if (not job.hosts.empty()) {
    placement.hosts = job.hosts;
    placement.source = job.where;
  } else if (not job.deployment.empty()) {
    placement = read_deployment(job.deployment);
  } else {
    placement = read_hostfile(job.hostfile, job.ranks.value_or(n));
  }
  if (static_cast<int>(placement.hosts.size()) != n)
    throw InputError(fmt::format("error: rank mismatch: {} places {} ranks but {} holds {} ranks", placement.source,
                                 placement.hosts.size(), job.traces.string(), n));
  auto hosts = resolve_hosts(engine, placement);
  check_routes(topology, placement, platform);
  return hosts;
}

/// The collective algorithms of a job: the run's configuration, then the job's own coll/... settings.
colls::Selector selector_of(const Job& job)
{
  try {
    return colls::selector_from_config(job.cfg);
  } catch (const colls::SelectionError& e) {
    if (job.cfg.empty())
      throw;
    throw InputError(fmt::format("{}: error: job '{}': {}", job.where, job.name, e.what()));
  }
}

/// Builds a job's MPI world and creates its rank actors (they start at the job's start time).
void launch(s4u::Engine& engine, JobRun& jr, const Options& options, const platform::Topology& topology, int index,
            bool named, std::size_t& total_actors)
{
  const Job& job = *jr.job;
  trace::TraceSet* traces = nullptr;
  jr.hosts = place_job(engine, job, topology, options.platform, traces, jr.traces);
  int n = traces->rank_count();
  jr.world = std::make_unique<mpi::World>(model::MpiParams::from_config(), n, index);
  if (auto const& starts = jr.world->params().rank_start; not starts.empty() && starts.rbegin()->first >= n)
    throw InputError(fmt::format("error: tit/rank-start names rank {}, but {} has {} rank(s) (0 to {})",
                                 starts.rbegin()->first, job.traces.string(), n, n - 1));
  jr.communicators = std::make_unique<Communicators>(n);
  RunState& run = jr.run;
  check_speed_units(traces->compute_unit(), job.traces.string(), jr.hosts, run.warnings);
  run.world = jr.world.get();
  run.communicators = jr.communicators.get();
  run.selector = selector_of(job);
  run.actions_log = job.actions_log;
  run.merge_computations = options.merge_computations;
  run.observer = job.observer;
  if (job.observer != nullptr) {
    jr.world->set_listener(job.observer);
    std::vector<std::string> host_names;
    for (auto* h : jr.hosts)
      host_names.push_back(h->get_name());
    job.observer->begin_run(host_names);
  }
  // SimGrid aborts when the actors' stacks exceed the memory mappings a process may hold: stop before, saying so.
  total_actors += static_cast<std::size_t>(n);
  if (auto limit = max_map_count())
    if (auto problem = mapping_problem(total_actors, simgrid::config::get_value<int>("contexts/guard-size"), *limit))
      throw InputError(*problem);
  for (int r = 0; r < n; ++r) {
    jr.actors.push_back(std::make_unique<RankActor>(run, r, jr.hosts[r], traces->reader(r)));
    run.actors.push_back(jr.actors.back().get());
  }
  std::vector<s4u::ActorPtr> s4u_actors;
  double start = job.start;
  for (int r = 0; r < n; ++r) {
    RankActor* actor = jr.actors[r].get();
    std::string name = named ? fmt::format("{}:{}", job.name, r) : std::to_string(r);
    s4u_actors.push_back(s4u::Actor::create(name, jr.hosts[r], [actor, start] {
      if (start > 0)
        s4u::this_actor::sleep_until(start);
      (*actor)();
    }));
  }
  jr.world->prepare(std::move(s4u_actors));
}

/// A job's outcome once the engine ran: its ranks, when it ended, its prediction (as a single replay's).
JobResult collect(JobRun& jr)
{
  JobResult out;
  out.name = jr.job->name;
  out.start = jr.job->start;
  const RankStats* last = nullptr;
  for (auto const& a : jr.actors) {
    out.ranks.push_back(a->stats());
    if (last == nullptr || a->stats().end >= last->end)
      last = &a->stats();
  }
  out.end = last->end;
  out.simulated_time = last->end - last->start;
  // With tit/rank-start the ranks start apart, as those of the traced run did: the run's span is from the first
  // rank's start to the last rank's end, as the run's own would be measured on one clock.
  if (not jr.world->params().rank_start.empty()) {
    double first = last->start;
    for (auto const& a : jr.actors)
      first = std::min(first, a->stats().start);
    out.simulated_time = last->end - first;
  }
  return out;
}

/// An error met while setting `job` up, said at the job's line: "FILE:LINE: error: job 'NAME': WHAT".
std::string in_job(const Job& job, std::string_view what)
{
  if (what.rfind("error: ", 0) == 0)
    what.remove_prefix(7);
  return fmt::format("{}: error: job '{}': {}", job.where, job.name, what);
}

/// The engine's command line for `options`.
std::unique_ptr<s4u::Engine> make_engine(const Options& options)
{
  auto args = engine_arguments(options);
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  smpi_init_options(); // declares smpi/os, smpi/or, smpi/ois before the command line is parsed
  colls::declare_config_flags();
  model::declare_config_flags();
  std::unique_ptr<s4u::Engine> engine;
  try {
    engine = std::make_unique<s4u::Engine>(&argc, argv.data());
  } catch (const std::exception& e) {
    throw InputError(config_error(e.what(), options));
  }
  // Silence the engine's category altogether (its deadlock line is printed above our report), unless the user set
  // its log.
  bool user_set = std::any_of(options.log.begin(), options.log.end(),
                              [](std::string const& l) { return l.rfind("ker_engine.", 0) == 0; });
  if (not user_set)
    xbt_log_threshold_set(&_XBT_LOGV(ker_engine), xbt_log_priority_infinite);
  return engine;
}

/// The jobs of `options`: its workload, or the single trace set it names.
std::vector<Job> jobs_of(const Options& options)
{
  if (not options.jobs.empty())
    return options.jobs;
  Job job;
  job.name = "job";
  job.traces = options.traces;
  job.deployment = options.deployment;
  job.hostfile = options.hostfile;
  job.ranks = options.ranks;
  job.actions_log = options.actions_log;
  job.observer = options.observer;
  job.trace_source = options.trace_source;
  return {job};
}

/// Replays each of `jobs` alone on the platform, each in a child process (SimGrid runs one engine per process), as
/// many at once as the CPUs this process may use: per job, its duration or the child's error.
std::vector<std::variant<double, std::string>> replay_each_alone(const Options& options, const std::vector<Job>& jobs)
{
  std::vector<std::function<std::string()>> works;
  for (auto const& job : jobs)
    works.push_back([&options, &job] {
      Options alone = options;
      alone.isolated_baseline = false;
      alone.jobs = {job};
      alone.jobs.front().start = 0;
      alone.jobs.front().actions_log = nullptr;
      alone.jobs.front().observer = nullptr;
      Result r = run(alone);
      return r.exit_code == 0 ? fmt::format("ok {:.17g}", r.jobs.front().duration())
                              : fmt::format("error {}", r.error);
    });
  auto answers = in_children(works, usable_cpus());
  std::vector<std::variant<double, std::string>> out;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const auto& text = answers[i];
    if (text && text->rfind("ok ", 0) == 0)
      out.emplace_back(std::stod(text->substr(3)));
    else if (text && text->rfind("error ", 0) == 0)
      out.emplace_back(text->substr(6));
    else
      out.emplace_back(fmt::format("error: the isolated baseline of job '{}' ended abnormally", jobs[i].name));
  }
  return out;
}

} // namespace

namespace {

/// Checks the inputs, creates the engine, loads the platform and launches every job's ranks (in `runs`).
std::unique_ptr<s4u::Engine> launch_all(const Options& options, std::vector<Job>& jobs,
                                        std::vector<std::unique_ptr<JobRun>>& runs)
{
  bool workload = not options.jobs.empty();
  check_file(options.platform, "platform");
  auto topology = check_platform(options.platform);
  if (not workload && not options.deployment.empty())
    check_file(options.deployment, "deployment");
  else if (not workload)
    check_file(options.hostfile, "hostfile");
  if (auto problem = refused_setting(options.cfg))
    throw InputError(*problem);
  auto engine = make_engine(options);
  try {
    engine->load_platform(options.platform.string());
  } catch (const std::exception& e) {
    throw InputError(fmt::format("{}: error: cannot load the platform: {}", options.platform.string(), e.what()));
  }
  model::apply_host_availability();
  std::size_t total_actors = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    runs.push_back(std::make_unique<JobRun>());
    runs.back()->job = &jobs[j];
    try {
      launch(*engine, *runs.back(), options, topology, static_cast<int>(j), workload, total_actors);
    } catch (const trace::TraceError& e) {
      if (not workload)
        throw;
      throw InputError(in_job(jobs[j], e.what()));
    } catch (const InputError& e) {
      if (not workload || std::string_view(e.what()).find(jobs[j].where) == 0)
        throw;
      throw InputError(in_job(jobs[j], e.what()));
    }
  }
  make_room_for_solver(total_actors);
  return engine;
}

/// A replay that stopped (its exit code set), before its ranks started or while they ran: each job's outputs are
/// told, with the simulated time reached, so that they end well-formed and say so.
void tell_stopped(const std::vector<Job>& jobs, const std::string& error)
{
  double now = s4u::Engine::is_initialized() ? s4u::Engine::get_clock() : 0;
  for (auto const& job : jobs)
    if (job.observer != nullptr)
      job.observer->stopped(now, error);
}

/// A note when the time injected into tests is a large part of a job's time: SimGrid's default (1e-4 s times a
/// counter that every test finding nothing makes grow, shared by all ranks) is not what a real MPI_Test costs, and
/// a polling code's prediction is then mostly that injected time.
std::optional<std::string> polling_note(const JobResult& job, const model::MpiParams& params, const std::string& prefix)
{
  constexpr double kShare = 0.1;
  double injected = 0, total = 0;
  std::uint64_t polls = 0;
  for (auto const& r : job.ranks) {
    injected += r.polling;
    total += r.end - r.start;
    polls += r.polls;
  }
  if (not(total > 0) || injected < kShare * total)
    return std::nullopt;
  return fmt::format("{}note: tests were charged {:.6g} s in all, {:.0f} % of the ranks' time ({} injections of smpi/test "
                     "= {:g} s{}): a real MPI_Test costs well under a microsecond; a platform calibrated by "
                     "calibration/walkthrough.sh carries the measured cost (calibration/README.md, \"Polling\")",
                     prefix, injected, 100 * injected / total, polls, params.test_sleep,
                     params.grow_injected_times ? " times a counter shared by all ranks that grows with each test "
                                                  "that finds nothing, as SimGrid"
                                                : "");
}

/// What the engine's run gave: the ranks' errors, a deadlock (exit 3), or each job's outcome and the prediction.
void gather(const Options& options, std::vector<std::unique_ptr<JobRun>>& runs, bool deadlock, Result& result)
{
  bool workload = not options.jobs.empty();
  for (auto const& jr : runs) {
    auto prefix = workload ? fmt::format("job '{}': ", jr->job->name) : std::string();
    for (auto const& w : jr->run.warnings.report())
      result.warnings.push_back(prefix + w);
    if (jr->run.exit_code != 0 && result.exit_code == 0) {
      result.exit_code = jr->run.exit_code;
      result.error = prefix + jr->run.error;
    }
  }
  if (result.exit_code != 0)
    return;
  if (deadlock) {
    result.exit_code = 3;
    return;
  }
  for (auto const& jr : runs) {
    result.jobs.push_back(collect(*jr));
    result.makespan = std::max(result.makespan, result.jobs.back().end);
    if (jr->job->observer != nullptr)
      jr->job->observer->end_run(result.jobs.back().end);
    auto prefix = workload ? fmt::format("job '{}': ", jr->job->name) : std::string();
    if (auto note = polling_note(result.jobs.back(), jr->world->params(), prefix))
      result.warnings.push_back(*note);
    for (auto const& u : jr->world->unreceived()) {
      auto on = u.key.comm == 0 ? std::string() : fmt::format(" on communicator {}", u.key.comm);
      result.warnings.push_back(fmt::format("{}warning: {} message(s) from rank {} to rank {} with tag {}{} were "
                                            "sent but never received",
                                            prefix, u.count, u.key.src, u.key.dst, u.key.tag, on));
    }
  }
  // A single trace set: the prediction is the end of the last rank to finish, counted from its own init (as
  // SMPI's replay).
  if (workload) {
    result.simulated_time = result.makespan;
  } else {
    result.ranks = result.jobs.front().ranks;
    result.simulated_time = result.jobs.front().simulated_time;
    result.jobs.clear();
  }
}

/// An input error of any layer as the Result reports it (exit 2): never an abort.
void input_error(Result& result, std::exception_ptr error)
{
  result.exit_code = 2;
  try {
    std::rethrow_exception(error);
  } catch (const trace::TraceError& e) {
    result.error = e.what();
  } catch (const InputError& e) {
    result.error = e.what();
  } catch (const model::ModelError& e) {
    result.error = fmt::format("error: bad model parameter: {}", e.what());
  } catch (const colls::SelectionError& e) {
    result.error = fmt::format("error: {}", e.what());
  } catch (const std::exception& e) { // an input SimGrid refused in a way not foreseen above
    std::string what = e.what();
    result.error = fmt::format("error: {}", what.substr(0, what.find('\n')));
  }
}

} // namespace

Result run(const Options& options)
{
  Result result;
  std::vector<Job> jobs = jobs_of(options);
  bool workload = not options.jobs.empty();
  // Before this process creates its engine: each child replays one job in a fresh process.
  std::vector<std::variant<double, std::string>> baselines;
  if (workload && options.isolated_baseline)
    baselines = replay_each_alone(options, jobs);
  if (engine_created.exchange(true)) {
    result.exit_code = 2;
    result.error = "error: one replay per process: SimGrid cannot create a second engine in a process (replay "
                   "several trace sets together with Options::jobs, or one after the other in child processes)";
    return result;
  }
  std::vector<std::unique_ptr<JobRun>> runs;
  try {
    auto engine = launch_all(options, jobs, runs);
    if (not workload)
      result.trace_description = runs.front()->traces->describe();
    bool deadlock = false;
    s4u::Engine::on_deadlock_cb([&] {
      deadlock = true;
      for (auto const& jr : runs)
        result.error += (result.error.empty() ? "" : "\n") +
                        (workload ? fmt::format("job '{}': ", jr->job->name) : std::string()) +
                        jr->run.deadlock_report();
    });
    engine->run();
    gather(options, runs, deadlock, result);
    if (result.exit_code != 0) {
      tell_stopped(jobs, result.error);
      return result;
    }
  } catch (const std::exception&) {
    input_error(result, std::current_exception());
    tell_stopped(jobs, result.error);
  }
  if (result.exit_code == 0 && not baselines.empty())
    for (std::size_t j = 0; j < result.jobs.size(); ++j) {
      auto const& alone = baselines[j];
      if (auto const* error = std::get_if<std::string>(&alone)) {
        result.exit_code = 2;
        result.error = fmt::format("job '{}' replayed alone: {}", jobs[j].name, *error);
        break;
      }
      result.jobs[j].alone = std::get<double>(alone);
    }
  return result;
}

} // namespace tit::replay

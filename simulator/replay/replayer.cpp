#include "replay/replayer.hpp"

#include "colls/registry.hpp"
#include "model/params.hpp"
#include "mpi/world.hpp"
#include "replay/placement.hpp"
#include "replay/platform_gate.hpp"
#include "replay/rank_actor.hpp"
#include "replay/units.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <smpi/smpi.h>

#include <filesystem>
#include <memory>

namespace s4u = simgrid::s4u;

namespace tit::replay {
namespace {

/// smpirun's settings first, then quieter SimGrid logs, then the user's --cfg and --log (later ones win).
std::vector<std::string> engine_arguments(const Options& o)
{
  std::vector<std::string> args{"tit-replay", "--cfg=surf/precision:1e-9", "--cfg=network/model:SMPI",
                                "--log=xbt_cfg.thresh:warning", "--log=ker_engine.thresh:critical"};
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

Placement place_ranks(const Options& o, std::optional<int> trace_ranks)
{
  if (not o.deployment.empty())
    return read_deployment(o.deployment);
  return read_hostfile(o.hostfile, o.ranks ? o.ranks : trace_ranks);
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

} // namespace

Result run(const Options& options)
{
  Result result;
  try {
    check_file(options.platform, "platform");
    auto topology = check_platform(options.platform);
    if (not options.deployment.empty())
      check_file(options.deployment, "deployment");
    else
      check_file(options.hostfile, "hostfile");

    auto args = engine_arguments(options);
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(a.data());
    int argc = static_cast<int>(argv.size());
    smpi_init_options(); // declares smpi/os, smpi/or, smpi/ois before the command line is parsed
    colls::declare_config_flags();
    std::unique_ptr<s4u::Engine> engine_ptr;
    try {
      engine_ptr = std::make_unique<s4u::Engine>(&argc, argv.data());
    } catch (const std::exception& e) {
      throw InputError(config_error(e.what(), options));
    }
    s4u::Engine& engine = *engine_ptr;
    try {
      engine.load_platform(options.platform.string());
    } catch (const std::exception& e) {
      throw InputError(fmt::format("{}: error: cannot load the platform: {}", options.platform.string(), e.what()));
    }

    std::optional<int> wanted = options.ranks;
    if (not options.deployment.empty())
      wanted = static_cast<int>(read_deployment(options.deployment).hosts.size());
    auto traces = trace::TraceSet::open(options.traces, wanted);
    result.trace_description = traces->describe();
    auto placement = place_ranks(options, traces->rank_count());
    int n = traces->rank_count();
    if (static_cast<int>(placement.hosts.size()) != n)
      throw InputError(fmt::format("error: rank mismatch: {} places {} ranks but {} holds {} ranks", placement.source,
                                   placement.hosts.size(), options.traces.string(), n));
    auto hosts = resolve_hosts(engine, placement);
    check_routes(topology, placement, options.platform);

    mpi::World world(model::MpiParams::from_config(), n);
    RunState run;
    check_speed_units(traces->compute_unit(), options.traces.string(), hosts, run.warnings);
    run.world = &world;
    Communicators communicators(n);
    run.communicators = &communicators;
    run.selector = colls::selector_from_config();
    run.actions_log = options.actions_log;
    run.merge_computations = options.merge_computations;
    run.observer = options.observer;
    if (options.observer != nullptr) {
      world.set_listener(options.observer);
      std::vector<std::string> host_names;
      for (auto* h : hosts)
        host_names.push_back(h->get_name());
      options.observer->begin_run(host_names);
    }

    std::vector<std::unique_ptr<RankActor>> actors;
    for (int r = 0; r < n; ++r) {
      actors.push_back(std::make_unique<RankActor>(run, r, hosts[r], traces->reader(r)));
      run.actors.push_back(actors.back().get());
    }
    std::vector<s4u::ActorPtr> s4u_actors;
    for (int r = 0; r < n; ++r) {
      RankActor* actor = actors[r].get();
      s4u_actors.push_back(s4u::Actor::create(std::to_string(r), hosts[r], [actor] { (*actor)(); }));
    }
    world.prepare(std::move(s4u_actors));

    bool deadlock = false;
    s4u::Engine::on_deadlock_cb([&] {
      deadlock = true;
      result.error = run.deadlock_report();
    });
    engine.run();

    result.warnings = run.warnings.report();
    if (run.exit_code != 0) {
      result.exit_code = run.exit_code;
      result.error = run.error;
      return result;
    }
    if (deadlock) {
      result.exit_code = 3;
      return result;
    }
    // The prediction is the end of the last rank to finish, counted from its own init (as SMPI's replay).
    const RankStats* last = nullptr;
    for (auto const& a : actors) {
      result.ranks.push_back(a->stats());
      if (last == nullptr || a->stats().end >= last->end)
        last = &a->stats();
    }
    result.simulated_time = last->end - last->start;
    if (options.observer != nullptr)
      options.observer->end_run(last->end);
    for (auto const& u : world.unreceived())
      result.warnings.push_back(fmt::format("warning: {} message(s) from rank {} to rank {} with tag {} were sent but "
                                            "never received",
                                            u.count, u.src, u.dst, u.tag));
  } catch (const trace::TraceError& e) {
    result.exit_code = 2;
    result.error = e.what();
  } catch (const InputError& e) {
    result.exit_code = 2;
    result.error = e.what();
  } catch (const model::ModelError& e) {
    result.exit_code = 2;
    result.error = fmt::format("error: bad model parameter: {}", e.what());
  } catch (const colls::SelectionError& e) {
    result.exit_code = 2;
    result.error = fmt::format("error: {}", e.what());
  } catch (const std::exception& e) { // an input SimGrid refused in a way not foreseen above: still no abort
    result.exit_code = 2;
    std::string what = e.what();
    result.error = fmt::format("error: {}", what.substr(0, what.find('\n')));
  }
  return result;
}

} // namespace tit::replay

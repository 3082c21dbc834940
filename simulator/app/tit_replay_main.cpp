// tit-replay: predicts the run time of an MPI application from its time-independent trace.
#include "colls/registry.hpp"
#include "model/params.hpp"
#include "output/report.hpp"
#include "replay/replayer.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <fstream>
#include <iostream>

namespace {

std::string parameters_footer()
{
  std::string text = "\nModel parameters (--cfg=NAME:VALUE, or <config><prop id=NAME value=VALUE/></config> in the "
                     "platform; a host property smpi/os, smpi/or or smpi/ois overrides for that host):\n";
  for (auto const& p : tit::model::documented_parameters())
    text += fmt::format("  {:<30} {}\n", p.name, p.description);
  text += "\nCollective algorithms (--cfg=coll/selector:smpi, the default, ompi or mpich; "
          "--cfg=coll/COLLECTIVE:ALGORITHM overrides one):\n";
  for (auto const& a : tit::colls::algorithms())
    text += fmt::format("  {:<14} {:<20} {}\n", a.collective, a.name, a.description);
  text += "\nExit status: 0 success, 2 bad input (file, trace line or option), 3 the trace deadlocks.\n";
  return text;
}

} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"tit-replay: replays a time-independent MPI trace on a SimGrid platform and predicts its run time.\n"
               "Usage: tit-replay [options] PLATFORM.xml DEPLOYMENT.xml TRACES\n"
               "       tit-replay [options] --hostfile HOSTS PLATFORM.xml TRACES\n"
               "TRACES is a directory of per-rank files, a trace list or one merged file (.gz accepted)."};
  std::vector<std::string> positional;
  tit::replay::Options options;
  std::string actions_log;
  bool per_rank = false;
  int np = 0;
  app.add_option("files", positional, "PLATFORM.xml [DEPLOYMENT.xml] TRACES")->required()->expected(2, 3);
  app.add_option("--hostfile", options.hostfile, "place ranks round-robin on the hosts listed (host or host:N lines)");
  app.add_option("--np", np, "number of ranks (default: from the traces, else the hostfile's slots)")
      ->check(CLI::PositiveNumber);
  app.add_option("--cfg", options.cfg, "set a model parameter, NAME:VALUE (repeatable; see below)")
      ->allow_extra_args(false);
  app.add_option("--log", options.log, "SimGrid log setting, e.g. root.thresh:verbose (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--actions-log", actions_log, "write one line per action (rank, start, end, action) to FILE");
  app.add_flag("--per-rank", per_rank, "print every rank in the summary, however many");
  app.add_flag("--merge-computations", options.merge_computations,
               "replay consecutive compute actions as one: fewer activities, but results may differ from the "
               "reference by rounding (about 1e-12, amplified by some traces)");
  app.footer(parameters_footer());
  try {
    app.parse(argc, argv);
    bool with_hostfile = not options.hostfile.empty();
    if (with_hostfile && positional.size() != 2)
      throw CLI::ValidationError("files", "with --hostfile, give PLATFORM.xml TRACES");
    if (not with_hostfile && positional.size() != 3)
      throw CLI::ValidationError("files", "give PLATFORM.xml DEPLOYMENT.xml TRACES, or --hostfile HOSTS PLATFORM.xml "
                                          "TRACES");
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  options.platform = positional.front();
  options.traces = positional.back();
  if (positional.size() == 3)
    options.deployment = positional[1];
  if (np > 0)
    options.ranks = np;

  std::ofstream log_file;
  if (not actions_log.empty()) {
    log_file.open(actions_log);
    if (not log_file) {
      fmt::print(stderr, "tit-replay: error: cannot write the actions log '{}'\n", actions_log);
      return 2;
    }
    tit::output::write_actions_log_header(log_file);
    options.actions_log = &log_file;
  }

  auto result = tit::replay::run(options);
  for (auto const& w : result.warnings)
    fmt::print(stderr, "tit-replay: {}\n", w);
  if (result.exit_code != 0) {
    fmt::print(stderr, "tit-replay: {}\n", result.error);
    return result.exit_code;
  }
  tit::output::write_summary(std::cout, result, per_rank);
  return 0;
}

// tit-replay: predicts the run time of an MPI application from its time-independent trace. This file only
// reads the command line into output::Command; output::execute does the rest.
#include "core/error.hpp"
#include "otf2/otf2_input.hpp"
#include "output/command.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

namespace {

/// The inputs, the placement, the model, the actions log and the timelines (in the order --help lists them).
void add_replay_options(CLI::App& app, tit::output::Command& c)
{
  auto& r = c.replay;
  app.add_option("files", c.files, "PLATFORM.xml [DEPLOYMENT.xml] TRACES")->expected(1, 3);
  app.add_option("--hostfile", r.hostfile, "place ranks round-robin on the hosts listed (host or host:N lines)");
  app.add_option("--np", c.np, "number of ranks (default: from the traces)")
      ->check(CLI::PositiveNumber);
  app.add_option("--workload", c.workload, "replay the jobs of WORKLOAD (SimGrid's replay_multiple_manual form, or "
                                           "JSON) together on PLATFORM.xml");
  app.add_flag("--isolated-baseline", r.isolated_baseline,
               "with --workload: replay each job alone too, and print its slowdown");
  app.add_option("--cfg", r.cfg, "set a model parameter, NAME:VALUE (repeatable; see below)")->allow_extra_args(false);
  app.add_option("--log", r.log, "SimGrid log setting, e.g. root.thresh:verbose (repeatable)")->allow_extra_args(false);
  app.add_option("--actions-log", c.actions_log, "write one line per action (rank, start, end, action) to FILE");
  app.add_flag("--per-rank", c.per_rank, "print every rank in the summary, however many");
  app.add_flag("--merge-computations", r.merge_computations,
               "replay consecutive compute actions as one: fewer activities, but results may differ from the "
               "reference by rounding (about 1e-12, amplified by some traces)");
  app.add_option("--paje", c.paje, "write the simulated run as a Paje trace (ViTE, pj_dump) to FILE");
  app.add_option("--chrome-trace", c.chrome, "write the simulated run as Chrome trace JSON (Perfetto UI) to FILE");
  app.add_option("--otf2", c.otf2, "write the simulated run as an OTF2 archive (Vampir, Scalasca, pipit, otf2-print) "
                                   "into the directory DIR (with --workload: DIR.JOB per job)");
}

/// The per-action CSV and the wait-state analysis of the simulated run.
void add_output_options(CLI::App& app, tit::output::Command& c)
{
  app.add_option("--csv", c.csv, "write one row per action and per message of the simulated run to FILE");
  app.add_flag("--analysis", c.analysis,
               "print the wait-state analysis: busy/communication/waiting per rank and action, Scalasca patterns, "
               "critical path, delay costs");
  app.add_option("--analysis-json", c.analysis_json, "write the wait-state analysis as JSON to FILE");
  app.add_option("--delay-model", c.delay_model,
                 "how delay costs are spread: proportional (Boehme) or local-first (Viehhauser: the delayer's own "
                 "wait states first)")
      ->check(CLI::IsMember({"proportional", "local-first"}));
  app.add_flag("--progress", c.progress,
               "show the progress on stderr (the default when stderr is a terminal; not with --workload)");
}

/// An OTF2 archive given as TRACES: where its compute volumes come from.
struct Otf2Args {
  tit::otf2::ReadOptions options;
  double rate = 1e9;
};

void add_otf2_options(CLI::App& app, Otf2Args& a)
{
  app.add_option("--otf2-metric", a.options.metric,
                 "TRACES being an OTF2 archive: the counter whose increments between MPI calls are the compute "
                 "volumes")
      ->capture_default_str();
  app.add_option("--otf2-rate", a.rate,
                 "TRACES being an OTF2 archive without that counter: volume units per second of elapsed time "
                 "between MPI calls")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

/// --fast-forward's tolerance, from the flag's text; false (after saying why) when it is no number.
bool parse_fast_forward(const std::string& text, tit::output::Command& c)
{
  try {
    std::size_t used = 0;
    c.fast_forward = std::stod(text, &used);
    if (used != text.size())
      throw std::invalid_argument(text);
  } catch (const std::exception&) {
    std::cerr << "tit-replay: error: --fast-forward=" << text << ": expected a tolerance between 0 and 1 (0.005: 0.5%)\n";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"tit-replay: replays a time-independent MPI trace on a SimGrid platform and predicts its run time.\n"
               "Usage: tit-replay [options] PLATFORM.xml DEPLOYMENT.xml TRACES\n"
               "       tit-replay [options] --hostfile HOSTS PLATFORM.xml TRACES\n"
               "       tit-replay [options] --workload WORKLOAD PLATFORM.xml\n"
               "       tit-replay --compare A.json B.json\n"
               "TRACES is a directory of per-rank files, a trace list, one merged file (.gz accepted), a compressed\n"
               "trace, or an OTF2 archive (its traces.otf2 or its directory)."};
  tit::output::Command c;
  add_replay_options(app, c);
  Otf2Args otf2;
  add_otf2_options(app, otf2);
  add_output_options(app, c);
  std::string fast_forward;
  app.add_flag("--fast-forward{0.005}", fast_forward,
               "predict long loops from a few of their iterations: the trace replayed with each long loop cut to "
               "k, 2k and 3k iterations on every rank, the time per iteration extended to the full trip count when "
               "the estimated error is within TOL (default 0.005); otherwise the full replay, said so "
               "(docs/fast-forward.md); TOL only as --fast-forward=TOL, so that the files after it stay files");
  app.add_option("--compare", c.compare, "print what changed between two --analysis-json files A and B")->expected(2);
  app.footer(tit::output::parameters_footer());
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  otf2.options.metric_required = app.count("--otf2-metric") > 0;
  otf2.options.rate = otf2.rate;
  if (app.count("--fast-forward") > 0 && !parse_fast_forward(fast_forward, c))
    return 2;
  return tit::run_main("tit-replay", [&] {
    tit::otf2::enable(otf2.options);
    return tit::output::execute(c, std::cout, std::cerr);
  });
}

// tit-replay: predicts the run time of an MPI application from its time-independent trace.
#include "analysis/recorder.hpp"
#include "analysis/report.hpp"
#include "colls/registry.hpp"
#include "model/params.hpp"
#include "output/progress.hpp"
#include "output/report.hpp"
#include "replay/replayer.hpp"
#include "timeline/chrome_writer.hpp"
#include "timeline/csv_writer.hpp"
#include "timeline/paje_writer.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <unistd.h>

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
               "       tit-replay --compare A.json B.json\n"
               "TRACES is a directory of per-rank files, a trace list or one merged file (.gz accepted)."};
  std::vector<std::string> positional;
  tit::replay::Options options;
  std::string actions_log;
  bool per_rank = false;
  int np = 0;
  std::string paje, chrome, csv, analysis_json, delay_model = "proportional";
  std::vector<std::string> compare;
  bool analysis = false;
  app.add_option("files", positional, "PLATFORM.xml [DEPLOYMENT.xml] TRACES")->expected(2, 3);
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
  app.add_option("--paje", paje, "write the simulated run as a Paje trace (ViTE, pj_dump) to FILE");
  app.add_option("--chrome-trace", chrome, "write the simulated run as Chrome trace JSON (Perfetto UI) to FILE");
  app.add_option("--csv", csv, "write one row per action and per message of the simulated run to FILE");
  app.add_flag("--analysis", analysis,
               "print the wait-state analysis: busy/communication/waiting per rank and action, Scalasca patterns, "
               "critical path, delay costs");
  app.add_option("--analysis-json", analysis_json, "write the wait-state analysis as JSON to FILE");
  app.add_option("--delay-model", delay_model, "how delay costs are spread: proportional (Boehme) or local-first "
                                               "(Viehhauser: the delayer's own wait states first)")
      ->check(CLI::IsMember({"proportional", "local-first"}));
  bool progress = false;
  app.add_flag("--progress", progress, "show the progress on stderr (the default when stderr is a terminal)");
  app.add_option("--compare", compare, "print what changed between two --analysis-json files A and B")
      ->expected(2);
  app.footer(parameters_footer());
  try {
    app.parse(argc, argv);
    if (not compare.empty()) {
      if (not positional.empty())
        throw CLI::ValidationError("--compare", "takes only the two analysis files");
    } else if (positional.empty()) {
      throw CLI::ValidationError("files", "give PLATFORM.xml DEPLOYMENT.xml TRACES, or --hostfile HOSTS PLATFORM.xml "
                                          "TRACES (see --help)");
    }
    bool with_hostfile = not options.hostfile.empty();
    if (not compare.empty()) {
      // checked below
    } else if (with_hostfile && positional.size() != 2)
      throw CLI::ValidationError("files", "with --hostfile, give PLATFORM.xml TRACES");
    if (compare.empty() && not with_hostfile && positional.size() != 3)
      throw CLI::ValidationError("files", "give PLATFORM.xml DEPLOYMENT.xml TRACES, or --hostfile HOSTS PLATFORM.xml "
                                          "TRACES");
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  if (not compare.empty()) {
    try {
      tit::analysis::compare(std::cout, compare[0], compare[1]);
    } catch (const tit::analysis::CompareError& e) {
      fmt::print(stderr, "tit-replay: {}\n", e.what());
      return 2;
    }
    return 0;
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

  // Timeline outputs and the analysis observe the replay; files are opened before it starts.
  std::vector<std::unique_ptr<std::ofstream>> files;
  auto open = [&](const std::string& path, const char* what) -> std::ostream* {
    files.push_back(std::make_unique<std::ofstream>(path));
    if (not *files.back()) {
      fmt::print(stderr, "tit-replay: error: cannot write the {} '{}'\n", what, path);
      return nullptr;
    }
    return files.back().get();
  };
  tit::timeline::Fanout observers;
  std::vector<std::unique_ptr<tit::timeline::Observer>> owned;
  if (not paje.empty()) {
    auto* out = open(paje, "Paje trace");
    if (out == nullptr)
      return 2;
    owned.push_back(std::make_unique<tit::timeline::PajeWriter>(*out));
  }
  if (not chrome.empty()) {
    auto* out = open(chrome, "Chrome trace");
    if (out == nullptr)
      return 2;
    owned.push_back(std::make_unique<tit::timeline::ChromeTraceWriter>(*out));
  }
  if (not csv.empty()) {
    auto* out = open(csv, "CSV timeline");
    if (out == nullptr)
      return 2;
    owned.push_back(std::make_unique<tit::timeline::CsvWriter>(*out));
  }
  std::ostream* analysis_out = nullptr;
  if (not analysis_json.empty() && (analysis_out = open(analysis_json, "analysis JSON")) == nullptr)
    return 2;
  tit::analysis::Recorder* recorder = nullptr;
  if (analysis || analysis_out != nullptr) {
    auto model = delay_model == "local-first" ? tit::analysis::DelayModel::LocalFirst
                                              : tit::analysis::DelayModel::Proportional;
    owned.push_back(std::make_unique<tit::analysis::Recorder>(model));
    recorder = static_cast<tit::analysis::Recorder*>(owned.back().get());
  }
  if (progress || isatty(2))
    owned.push_back(std::make_unique<tit::output::ProgressDisplay>(std::cerr, isatty(2) != 0));
  for (auto& o : owned)
    observers.add(o.get());
  if (not observers.empty())
    options.observer = &observers;

  auto result = tit::replay::run(options);
  std::optional<tit::analysis::Result> analysed;
  if (recorder != nullptr && result.exit_code == 0)
    analysed = recorder->analyse(result.simulated_time);
  owned.clear(); // closes the timelines (a failed run still leaves well-formed files)
  for (auto const& w : result.warnings)
    fmt::print(stderr, "tit-replay: {}\n", w);
  if (result.exit_code != 0) {
    fmt::print(stderr, "tit-replay: {}\n", result.error);
    return result.exit_code;
  }
  tit::output::write_summary(std::cout, result, per_rank);
  if (analysed && analysis)
    tit::analysis::write_text(std::cout, *analysed);
  if (analysed && analysis_out != nullptr)
    tit::analysis::write_json(*analysis_out, *analysed);
  for (std::size_t k = 0; k < files.size(); ++k) {
    files[k]->flush();
    if (not *files[k]) {
      fmt::print(stderr, "tit-replay: error: writing an output file failed (disk full?)\n");
      return 2;
    }
  }
  return 0;
}

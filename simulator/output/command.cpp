#include "output/command.hpp"

#include "analysis/recorder.hpp"
#include "analysis/report.hpp"
#include "colls/registry.hpp"
#include "fastforward/fast_forward.hpp"
#include "model/params.hpp"
#include "output/progress.hpp"
#include "output/report.hpp"
#include "replay/child.hpp"
#include "replay/placement.hpp"
#include "replay/workload.hpp"
#include "timeline/chrome_writer.hpp"
#include "timeline/csv_writer.hpp"
#include "timeline/observer.hpp"
#include "timeline/otf2_writer.hpp"
#include "timeline/paje_writer.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <unistd.h>

namespace tit::output {
namespace {

/// Input errors of the command line itself.
struct Usage : Error {
  explicit Usage(const std::string& message) : Error(message) {}
};

/// The outputs of one job: files, timeline writers, analysis recorder.
struct JobOutputs {
  std::vector<std::unique_ptr<std::ofstream>> files;
  std::vector<std::unique_ptr<timeline::Observer>> owned;
  timeline::Fanout fanout;
  std::ostream* actions_log = nullptr;
  std::ostream* analysis_json = nullptr;
  analysis::Recorder* recorder = nullptr;
};

/// FILE for a single trace set; FILE's name with ".JOB" before its extension for a workload's job.
std::string path_for(const std::string& path, const std::string& job)
{
  if (job.empty())
    return path;
  std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "." + job + p.extension().string())).string();
}

std::ostream& open(JobOutputs& o, const std::string& path, const char* what)
{
  o.files.push_back(std::make_unique<std::ofstream>(path));
  if (not *o.files.back())
    throw Usage(fmt::format("error: cannot write the {} '{}'", what, path));
  return *o.files.back();
}

/// Opens the outputs `c` asks for, for job `job` ("" when a single trace set is replayed).
void open_outputs(const Command& c, const std::string& job, JobOutputs& o)
{
  if (not c.actions_log.empty()) {
    o.actions_log = &open(o, path_for(c.actions_log, job), "actions log");
    write_actions_log_header(*o.actions_log);
  }
  if (not c.paje.empty())
    o.owned.push_back(std::make_unique<timeline::PajeWriter>(open(o, path_for(c.paje, job), "Paje trace")));
  if (not c.chrome.empty())
    o.owned.push_back(
        std::make_unique<timeline::ChromeTraceWriter>(open(o, path_for(c.chrome, job), "Chrome trace")));
  if (not c.otf2.empty()) {
    try {
      o.owned.push_back(std::make_unique<timeline::Otf2Writer>(path_for(c.otf2, job)));
    } catch (const std::runtime_error& e) {
      throw Usage{e.what()};
    }
  }
  if (not c.csv.empty())
    o.owned.push_back(std::make_unique<timeline::CsvWriter>(open(o, path_for(c.csv, job), "CSV timeline")));
  if (not c.analysis_json.empty())
    o.analysis_json = &open(o, path_for(c.analysis_json, job), "analysis JSON");
  if (c.analysis || o.analysis_json != nullptr) {
    auto model = c.delay_model == "local-first" ? analysis::DelayModel::LocalFirst : analysis::DelayModel::Proportional;
    auto recorder = std::make_unique<analysis::Recorder>(model);
    o.recorder = recorder.get();
    o.owned.push_back(std::move(recorder));
  }
  // The progress display follows a single trace set (a workload's jobs each end their own run).
  if (job.empty() && (c.progress || isatty(STDERR_FILENO) != 0))
    o.owned.push_back(std::make_unique<ProgressDisplay>(std::cerr, isatty(STDERR_FILENO) != 0));
  for (auto& w : o.owned)
    o.fanout.add(w.get());
}

/// The replay options of `c`: the platform and either its trace set or its workload's jobs.
replay::Options replay_options(const Command& c)
{
  replay::Options options = c.replay;
  auto const& f = c.files;
  bool hostfile = not options.hostfile.empty();
  if (not c.workload.empty()) {
    if (f.size() != 1 || hostfile || c.np > 0)
      throw Usage("error: with --workload, give only PLATFORM.xml (each job says its traces and hosts)");
    options.platform = f.front();
    options.jobs = replay::read_workload(c.workload);
    return options;
  }
  if (options.isolated_baseline)
    throw Usage("error: --isolated-baseline goes with --workload");
  if (f.empty() || (hostfile && f.size() != 2) || (not hostfile && f.size() != 3))
    throw Usage(hostfile ? "error: with --hostfile, give PLATFORM.xml TRACES"
                         : "error: give PLATFORM.xml DEPLOYMENT.xml TRACES, or --hostfile HOSTS PLATFORM.xml TRACES, "
                           "or --workload WORKLOAD PLATFORM.xml (see --help)");
  options.platform = f.front();
  options.traces = f.back();
  if (f.size() == 3)
    options.deployment = f[1];
  if (c.np > 0)
    options.ranks = c.np;
  return options;
}

/// --fast-forward: the prediction extrapolated from replays of the trace with its loops cut (fastforward/).
int fast_forward(const Command& c, std::ostream& out, std::ostream& err)
{
  double tolerance = *c.fast_forward;
  if (not (tolerance > 0 && tolerance < 1))
    throw Usage(fmt::format("error: --fast-forward={}: expected a tolerance between 0 and 1 (0.005: 0.5%)", tolerance));
  if (not c.workload.empty())
    throw Usage("error: --fast-forward replays one trace set, not a workload (its jobs share the platform while "
                "they run: cutting one job's loops changes what the others meet); replay the workload in full");
  std::vector<std::string> outputs;
  for (auto [given, name] : {std::pair{not c.actions_log.empty(), "--actions-log"}, {not c.paje.empty(), "--paje"},
                             {not c.chrome.empty(), "--chrome-trace"}, {not c.otf2.empty(), "--otf2"},
                             {not c.csv.empty(), "--csv"}, {c.analysis, "--analysis"},
                             {not c.analysis_json.empty(), "--analysis-json"}, {c.per_rank, "--per-rank"}})
    if (given)
      outputs.emplace_back(name);
  if (not outputs.empty())
    throw Usage(fmt::format("error: --fast-forward cannot go with {}: it simulates only some iterations of each long "
                            "loop, so there is no timeline, analysis or per-rank figure of the whole run (replay "
                            "without --fast-forward for them)",
                            fmt::join(outputs, ", ")));
  fastforward::Settings settings;
  settings.tolerance = tolerance;
  settings.parallel = replay::usable_cpus(); // the cut replays side by side, one a CPU this process may use
  if (c.progress || isatty(STDERR_FILENO) != 0)
    settings.progress = [&err](std::string_view line) { fmt::print(err, "tit-replay: {}\n", line); };
  auto outcome = fastforward::run(replay_options(c), settings);
  auto const& result = outcome.result;
  for (auto const& w : result.warnings)
    fmt::print(err, "tit-replay: {}\n", w);
  if (result.exit_code != 0) {
    fmt::print(err, "tit-replay: {}\n", result.error);
    return result.exit_code;
  }
  write_summary(out, result, false);
  fastforward::write_report(out, outcome.report);
  return 0;
}

int replay_and_report(const Command& c, std::ostream& out, std::ostream& err)
{
  if (c.fast_forward)
    return fast_forward(c, out, err);
  replay::Options options = replay_options(c);
  bool workload = not options.jobs.empty();
  // Outputs are opened before the replay starts; one set per job of a workload.
  std::vector<std::unique_ptr<JobOutputs>> outputs;
  auto attach = [&](const std::string& job, std::ostream*& log, timeline::Observer*& observer) {
    outputs.push_back(std::make_unique<JobOutputs>());
    open_outputs(c, job, *outputs.back());
    log = outputs.back()->actions_log;
    observer = outputs.back()->fanout.empty() ? nullptr : &outputs.back()->fanout;
  };
  if (workload)
    for (auto& job : options.jobs)
      attach(job.name, job.actions_log, job.observer);
  else
    attach("", options.actions_log, options.observer);

  auto result = replay::run(options);
  std::vector<std::optional<analysis::Result>> analysed(outputs.size());
  for (std::size_t j = 0; j < outputs.size() && result.exit_code == 0; ++j)
    if (outputs[j]->recorder != nullptr)
      analysed[j] = outputs[j]->recorder->analyse(workload ? result.jobs[j].simulated_time : result.simulated_time);
  for (auto& o : outputs)
    o->owned.clear(); // closes the timelines (a failed run still leaves well-formed files)
  for (auto const& w : result.warnings)
    fmt::print(err, "tit-replay: {}\n", w);
  if (result.exit_code != 0) {
    for (auto& o : outputs) // rather than an empty file: a document that says the replay stopped
      if (o->analysis_json != nullptr)
        analysis::write_incomplete_json(*o->analysis_json, result.error);
    fmt::print(err, "tit-replay: {}\n", result.error);
    return result.exit_code;
  }
  if (workload)
    write_workload_summary(out, result);
  else
    write_summary(out, result, c.per_rank);
  for (std::size_t j = 0; j < outputs.size(); ++j) {
    if (not analysed[j])
      continue;
    if (c.analysis) {
      if (workload)
        fmt::print(out, "\nJob '{}':\n", result.jobs[j].name);
      analysis::write_text(out, *analysed[j]);
    }
    if (outputs[j]->analysis_json != nullptr)
      analysis::write_json(*outputs[j]->analysis_json, *analysed[j]);
  }
  for (auto& o : outputs)
    for (auto& f : o->files)
      if (not f->flush()) {
        fmt::print(err, "tit-replay: error: writing an output file failed (disk full?)\n");
        return 2;
      }
  return 0;
}

} // namespace

int execute(const Command& c, std::ostream& out, std::ostream& err)
{
  if (not c.compare.empty()) {
    if (not c.files.empty() || not c.workload.empty())
      throw Usage("error: --compare takes only the two analysis files");
    analysis::compare(out, c.compare[0], c.compare[1]);
    return 0;
  }
  return replay_and_report(c, out, err);
}

std::string parameters_footer()
{
  std::string text = "\nModel parameters (--cfg=NAME:VALUE, or <config><prop id=NAME value=VALUE/></config> in the "
                     "platform; a host property smpi/os, smpi/or or smpi/ois overrides for that host):\n";
  for (auto const& p : model::documented_parameters())
    text += fmt::format("  {:<30} {}\n", p.name, p.description);
  text += "\nCollective algorithms (--cfg=coll/selector:smpi, the default, ompi or mpich; "
          "--cfg=coll/COLLECTIVE:ALGORITHM overrides one):\n";
  for (auto const& a : colls::algorithms())
    text += fmt::format("  {:<14} {:<20} {}\n", a.collective, a.name, a.description);
  text += "\nExit status: 0 success, 2 bad input (file, trace line or option), 3 the trace deadlocks.\n";
  return text;
}

} // namespace tit::output

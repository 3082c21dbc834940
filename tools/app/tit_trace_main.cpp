// tit-trace: compress, expand, describe and convert trace sets (docs/compressed-format.md, tracer/README.md), and
// write proxy programs from them (docs/proxy.md) and extrapolate them to more ranks (docs/extrapolation.md). Each
// subcommand is a struct: its options (declared on the command line by its constructor), their checks once parsed,
// and what it runs.
#include "core/error.hpp"
#include "convert/convert.hpp"
#include "extrapolate/extrapolate.hpp"
#include "proxy/proxy.hpp"
#include "proxy/proxy_check.hpp"
#include "compress/compress.hpp"
#include "otf2/otf2_input.hpp"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <iostream>

namespace {

using tit::trace::Dialect;

struct Compress {
  CLI::App* cmd;
  std::string traces, out, values = "exact";

  explicit Compress(CLI::App& app) : cmd(app.add_subcommand("compress", "fold a trace set into one compressed file"))
  {
    cmd->add_option("--values", values,
                    "how numbers are kept: exact, binned:R (compute, sleep and reduction volumes within relative "
                    "error R, message sizes exact), or stats (volumes as a distribution per action of a loop body)")
        ->capture_default_str();
    cmd->add_option("TRACES", traces, "any trace set tit-replay reads")->required();
    cmd->add_option("OUT", out, "the compressed file to write")->required();
  }
  void run() const { tit::tracetool::compress(traces, out, tit::trace::parse_value_mode(values), std::cout); }
};

struct Expand {
  CLI::App* cmd;
  std::string traces, out, dialect;

  explicit Expand(CLI::App& app)
      : cmd(app.add_subcommand("expand", "write a trace set as per-rank text files and trace.list"))
  {
    cmd->add_option("IN", traces, "a trace set (compressed or not)")->required();
    cmd->add_option("OUTDIR", out, "the directory to write")->required();
    cmd->add_option("--dialect", dialect, "write every action in this dialect (default: as traced)")
        ->check(CLI::IsMember({"simgrid", "thesis"}));
  }
  void run() const
  {
    tit::tracetool::expand(traces, out,
                           dialect.empty()       ? std::nullopt
                           : dialect == "thesis" ? std::optional(Dialect::Thesis)
                                                 : std::optional(Dialect::SimGrid),
                           std::cout);
  }
};

struct Info {
  CLI::App* cmd;
  std::string traces;

  explicit Info(CLI::App& app) : cmd(app.add_subcommand("info", "ranks, actions per kind, loops, sizes"))
  {
    cmd->add_option("TRACES", traces, "a trace set (compressed or not)")->required();
  }
  void run() const { tit::tracetool::info(traces, std::cout); }
};

struct Convert {
  CLI::App* cmd;
  std::string traces, out, to, from = "thesis";
  bool durations = false;
  tit::otf2::ReadOptions otf2;
  double otf2_rate = 1e9;

  explicit Convert(CLI::App& app)
      : cmd(app.add_subcommand("convert", "rewrite a trace set in the other dialect, or with measured durations "
                                          "(tit-convert is an alias)"))
  {
    cmd->add_option("--to", to, "the dialect to write")->check(CLI::IsMember({"simgrid", "thesis"}));
    cmd->add_option("--from", from,
                    "the input: thesis (either dialect, detected) or pre3.20 (SimGrid <= 3.19's format)")
        ->check(CLI::IsMember({"thesis", "pre3.20", "otf2"}))
        ->capture_default_str();
    cmd->add_option("--metric", otf2.metric,
                    "with --from otf2: the counter whose increments between MPI calls are the compute volumes")
        ->capture_default_str();
    cmd->add_option("--rate", otf2_rate,
                    "with --from otf2 and no such counter in the archive: volume units per second of elapsed time "
                    "between MPI calls (the trace's header says the volumes are estimates)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd->add_flag("--skip-unsupported", otf2.skip_unsupported,
                  "with --from otf2: skip the records that cannot be replayed (one-sided, I/O, threads) with a "
                  "counted warning instead of stopping");
    cmd->add_flag("--durations", durations,
                  "INPUT is a directory traced with TIT_TRACE_TIMINGS=1: every compute becomes a sleep of its "
                  "measured duration");
    cmd->add_option("INPUT", traces, "a trace list, a directory of per-rank files, or a merged file")->required();
    cmd->add_option("OUTDIR", out, "receives rank-<r>.txt and trace.list")->required();
  }
  /// After parsing: the choices that depend on each other.
  void check()
  {
    if (from == "otf2" && to.empty() && !durations)
      to = "simgrid";
    if (durations == !to.empty())
      throw CLI::ValidationError("convert: give exactly one of --to simgrid, --to thesis, --durations");
  }
  /// How OTF2 archives are read, by this subcommand and by the others that take TRACES (their defaults).
  tit::otf2::ReadOptions reading() const
  {
    tit::otf2::ReadOptions o = otf2;
    o.metric_required = cmd->count("--metric") > 0;
    o.rate = otf2_rate;
    return o;
  }
  void run() const
  {
    if (from == "otf2" && !tit::otf2::is_anchor_file(traces) &&
        !tit::otf2::is_anchor_file(std::filesystem::path(traces) / "traces.otf2"))
      throw tit::convert::ConvertError(traces + ": error: --from otf2 reads an OTF2 archive: its anchor file "
                                                "(ARCHIVE/traces.otf2) or its directory");
    tit::convert::convert_into(traces, out,
                               durations        ? std::nullopt
                               : to == "thesis" ? std::optional(Dialect::Thesis)
                                                : std::optional(Dialect::SimGrid),
                               from == "pre3.20" ? tit::convert::Source::Pre320 : tit::convert::Source::Thesis);
  }
};

struct Proxy {
  CLI::App* cmd;
  std::string traces, out, from = "thesis";
  double rate = 0;
  double detached_thresh = tit::model::kDefaultDetachedThresh;

  explicit Proxy(CLI::App& app)
      : cmd(app.add_subcommand("proxy", "write a standalone MPI program in C that replays the trace"))
  {
    cmd->add_option("--rate", rate, "compute volume units per second to reproduce (default: the trace's rate, else "
                                    "one kernel flop per unit)");
    cmd->add_option("--detached-thresh", detached_thresh,
                    "the deadlock check's protocol: blocking sends of fewer bytes complete at once, larger ones when "
                    "received (tit-replay's default smpi/send-is-detached-thresh; Open MPI's shared memory: 4096)")
        ->capture_default_str();
    cmd->add_option("--from", from, "the input: thesis (either dialect, detected) or pre3.20 (SimGrid <= 3.19)")
        ->check(CLI::IsMember({"thesis", "pre3.20"}))
        ->capture_default_str();
    cmd->add_option("TRACES", traces, "a trace set (compressed or not)")->required();
    cmd->add_option("OUT.c", out, "the C file to write")->required();
  }
  void run() const
  {
    tit::tracetool::proxy(traces, out,
                          {cmd->count("--rate") > 0 ? std::optional<double>(rate) : std::nullopt, detached_thresh,
                           from == "pre3.20" ? tit::convert::Source::Pre320 : tit::convert::Source::Thesis},
                          std::cout, std::cerr);
  }
};

struct Extrapolate {
  CLI::App* cmd;
  tit::tracetool::ExtrapolateOptions options;
  std::string out, scaling = "none", grid, volumes = "resample";
  std::vector<std::string> inputs;
  bool progress = false;

  explicit Extrapolate(CLI::App& app)
      : cmd(app.add_subcommand("extrapolate", "the compressed trace of P ranks from traces of the same program at 3 "
                                              "or more smaller counts"))
  {
    cmd->add_option("--ranks", options.ranks, "the target's rank count")->required()->check(CLI::PositiveNumber);
    cmd->add_option("--scaling", scaling, "the family that wins a tie: strong (decreasing terms first) or weak "
                                          "(constant and slowly growing terms first)")
        ->check(CLI::IsMember({"none", "strong", "weak"}))
        ->capture_default_str();
    cmd->add_option("--grid", grid, "the target's process grid AxBxC (A varies fastest); default: as "
                                    "MPI_Dims_create, in the inputs' dimensions and numbering");
    cmd->add_option("--volumes", volumes, "measured compute and sleep volumes at the target: resample (each rank "
                                          "varies around the fitted mean as a rank of its class in the largest input) "
                                          "or mean (the fitted mean alone)")
        ->check(CLI::IsMember({"resample", "mean"}))
        ->capture_default_str();
    cmd->add_flag("--report", options.report,
                  "print every fitted parameter: its function, error on the inputs and leave-one-out error");
    cmd->add_flag("--progress", progress,
                  "say on stderr what is being done, one line a stage (the default when stderr is a terminal)");
    cmd->add_option("OUT", out, "the compressed trace to write")->required();
    cmd->add_option("TRACES", inputs, "three or more trace sets (any that tit-replay reads)")
        ->required()
        ->expected(3, -1);
  }
  void check()
  {
    if (!grid.empty()) {
      options.grid = tit::extrap::parse_grid(grid);
      if (!options.grid)
        throw CLI::ValidationError("--grid", "expected 1 to 3 positive integers joined by 'x' (6x6, 4x4x2), got '" +
                                                 grid + "'");
    }
    options.resample = volumes == "resample";
    if (progress || isatty(STDERR_FILENO) == 1)
      options.progress = &std::cerr;
    options.scaling = scaling == "strong" ? tit::extrap::Scaling::Strong
                      : scaling == "weak" ? tit::extrap::Scaling::Weak
                                          : tit::extrap::Scaling::None;
  }
  void run() const
  {
    tit::tracetool::extrapolate(std::vector<std::filesystem::path>(inputs.begin(), inputs.end()), out, options,
                                std::cout);
  }
};

} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"tit-trace: compressed time-independent traces (docs/compressed-format.md)"};
  app.require_subcommand(1);
  Compress compress(app);
  Expand expand(app);
  Info info(app);
  Convert convert(app);
  Proxy proxy(app);
  Extrapolate extrapolate(app);
  try {
    app.parse(argc, argv);
    if (extrapolate.cmd->parsed())
      extrapolate.check();
    if (convert.cmd->parsed())
      convert.check();
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return tit::run_main("tit-trace", [&] {
    tit::otf2::enable(convert.reading());
    if (compress.cmd->parsed())
      compress.run();
    else if (expand.cmd->parsed())
      expand.run();
    else if (convert.cmd->parsed())
      convert.run();
    else if (extrapolate.cmd->parsed())
      extrapolate.run();
    else if (proxy.cmd->parsed())
      proxy.run();
    else
      info.run();
    return 0;
  });
}

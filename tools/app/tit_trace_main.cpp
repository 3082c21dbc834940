// tit-trace: compress, expand, describe and convert trace sets (docs/compressed-format.md, tracer/README.md), and
// write proxy programs from them (docs/proxy.md) and extrapolate them to more ranks (docs/extrapolation.md).
#include "core/error.hpp"
#include "convert/convert.hpp"
#include "extrapolate/extrapolate.hpp"
#include "proxy/proxy.hpp"
#include "proxy/proxy_check.hpp"
#include "compress/compress.hpp"
#include "otf2/otf2_input.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv)
{
  CLI::App app{"tit-trace: compressed time-independent traces (docs/compressed-format.md)"};
  app.require_subcommand(1);
  std::string traces, out, values = "exact";

  CLI::App* compress = app.add_subcommand("compress", "fold a trace set into one compressed file");
  compress
      ->add_option("--values", values,
                   "how numbers are kept: exact, binned:R (compute, sleep and reduction volumes within relative "
                   "error R, message sizes exact), or stats (volumes as a distribution per action of a loop body)")
      ->capture_default_str();
  compress->add_option("TRACES", traces, "any trace set tit-replay reads")->required();
  compress->add_option("OUT", out, "the compressed file to write")->required();

  CLI::App* expand = app.add_subcommand("expand", "write a trace set as per-rank text files and trace.list");
  expand->add_option("IN", traces, "a trace set (compressed or not)")->required();
  expand->add_option("OUTDIR", out, "the directory to write")->required();
  std::string dialect;
  expand->add_option("--dialect", dialect, "write every action in this dialect (default: as traced)")
      ->check(CLI::IsMember({"simgrid", "thesis"}));

  CLI::App* info = app.add_subcommand("info", "ranks, actions per kind, loops, sizes");
  info->add_option("TRACES", traces, "a trace set (compressed or not)")->required();

  CLI::App* convert = app.add_subcommand(
      "convert", "rewrite a trace set in the other dialect, or with measured durations (tit-convert is an alias)");
  std::string to, from = "thesis";
  bool durations = false;
  convert->add_option("--to", to, "the dialect to write")->check(CLI::IsMember({"simgrid", "thesis"}));
  convert
      ->add_option("--from", from, "the input: thesis (either dialect, detected) or pre3.20 (SimGrid <= 3.19's format)")
      ->check(CLI::IsMember({"thesis", "pre3.20", "otf2"}))
      ->capture_default_str();
  tit::otf2::ReadOptions otf2;
  double otf2_rate = 1e9;
  convert->add_option("--metric", otf2.metric,
                      "with --from otf2: the counter whose increments between MPI calls are the compute volumes")
      ->capture_default_str();
  convert->add_option("--rate", otf2_rate,
                      "with --from otf2 and no such counter in the archive: volume units per second of elapsed time "
                      "between MPI calls (the trace's header says the volumes are estimates)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  convert->add_flag("--skip-unsupported", otf2.skip_unsupported,
                    "with --from otf2: skip the records that cannot be replayed (one-sided, I/O, threads) with a "
                    "counted warning instead of stopping");
  convert->add_flag("--durations", durations,
                    "INPUT is a directory traced with TIT_TRACE_TIMINGS=1: every compute becomes a sleep of its "
                    "measured duration");
  convert->add_option("INPUT", traces, "a trace list, a directory of per-rank files, or a merged file")->required();
  convert->add_option("OUTDIR", out, "receives rank-<r>.txt and trace.list")->required();
  CLI::App* proxy = app.add_subcommand("proxy", "write a standalone MPI program in C that replays the trace");
  double rate = 0;
  proxy->add_option("--rate", rate, "compute volume units per second to reproduce (default: the trace's rate, else "
                                    "one kernel flop per unit)");
  double detached_thresh = tit::model::kDefaultDetachedThresh;
  proxy
      ->add_option("--detached-thresh", detached_thresh,
                   "the deadlock check's protocol: blocking sends of fewer bytes complete at once, larger ones when "
                   "received (tit-replay's default smpi/send-is-detached-thresh; Open MPI's shared memory: 4096)")
      ->capture_default_str();
  std::string proxy_from = "thesis";
  proxy->add_option("--from", proxy_from, "the input: thesis (either dialect, detected) or pre3.20 (SimGrid <= 3.19)")
      ->check(CLI::IsMember({"thesis", "pre3.20"}))
      ->capture_default_str();
  proxy->add_option("TRACES", traces, "a trace set (compressed or not)")->required();
  proxy->add_option("OUT.c", out, "the C file to write")->required();

  CLI::App* extrapolate = app.add_subcommand(
      "extrapolate", "the compressed trace of P ranks from traces of the same program at 3 or more smaller counts");
  tit::tracetool::ExtrapolateOptions extrap;
  std::string scaling = "none", grid;
  std::vector<std::string> inputs;
  extrapolate->add_option("--ranks", extrap.ranks, "the target's rank count")->required()->check(CLI::PositiveNumber);
  extrapolate->add_option("--scaling", scaling, "the family that wins a tie: strong (decreasing terms first) or weak "
                                                "(constant and slowly growing terms first)")
      ->check(CLI::IsMember({"none", "strong", "weak"}))
      ->capture_default_str();
  extrapolate->add_option("--grid", grid, "the target's process grid AxBxC (A varies fastest); default: as "
                                          "MPI_Dims_create, in the inputs' dimensions and numbering");
  extrapolate->add_flag("--report", extrap.report,
                        "print every fitted parameter: its function, error on the inputs and leave-one-out error");
  extrapolate->add_option("OUT", out, "the compressed trace to write")->required();
  extrapolate->add_option("TRACES", inputs, "three or more trace sets (any that tit-replay reads)")
      ->required()
      ->expected(3, -1);

  try {
    app.parse(argc, argv);
    if (extrapolate->parsed() && !grid.empty()) {
      extrap.grid = tit::extrap::parse_grid(grid);
      if (!extrap.grid)
        throw CLI::ValidationError("--grid", "expected 1 to 3 positive integers joined by 'x' (6x6, 4x4x2), got '" +
                                                 grid + "'");
    }
    extrap.scaling = scaling == "strong" ? tit::extrap::Scaling::Strong
                     : scaling == "weak" ? tit::extrap::Scaling::Weak
                                         : tit::extrap::Scaling::None;
    if (convert->parsed() && from == "otf2" && to.empty() && !durations)
      to = "simgrid";
    if (convert->parsed() && durations == !to.empty())
      throw CLI::ValidationError("convert: give exactly one of --to simgrid, --to thesis, --durations");
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  otf2.metric_required = convert->count("--metric") > 0;
  otf2.rate = otf2_rate;
  return tit::run_main("tit-trace", [&] {
    tit::otf2::enable(otf2);
    if (convert->parsed() && from == "otf2" && !tit::otf2::is_anchor_file(traces) &&
        !tit::otf2::is_anchor_file(std::filesystem::path(traces) / "traces.otf2"))
      throw tit::convert::ConvertError(traces + ": error: --from otf2 reads an OTF2 archive: its anchor file "
                                                "(ARCHIVE/traces.otf2) or its directory");
    if (compress->parsed())
      tit::tracetool::compress(traces, out, tit::trace::parse_value_mode(values), std::cout);
    else if (expand->parsed())
      tit::tracetool::expand(traces, out,
                             dialect.empty()       ? std::nullopt
                             : dialect == "thesis" ? std::optional(tit::trace::Dialect::Thesis)
                                                   : std::optional(tit::trace::Dialect::SimGrid),
                             std::cout);
    else if (convert->parsed())
      tit::convert::convert_into(traces, out,
                                 durations     ? std::nullopt
                                 : to == "thesis" ? std::optional(tit::trace::Dialect::Thesis)
                                                  : std::optional(tit::trace::Dialect::SimGrid),
                                 from == "pre3.20" ? tit::convert::Source::Pre320 : tit::convert::Source::Thesis);
    else if (extrapolate->parsed())
      tit::tracetool::extrapolate(std::vector<std::filesystem::path>(inputs.begin(), inputs.end()), out, extrap,
                                  std::cout);
    else if (proxy->parsed())
      tit::tracetool::proxy(traces, out,
                            {proxy->count("--rate") > 0 ? std::optional<double>(rate) : std::nullopt, detached_thresh,
                             proxy_from == "pre3.20" ? tit::convert::Source::Pre320 : tit::convert::Source::Thesis},
                            std::cout, std::cerr);
    else
      tit::tracetool::info(traces, std::cout);
    return 0;
  });
}

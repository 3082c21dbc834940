// tit-convert: rewrites time-independent traces; an alias of `tit-trace convert` with its own option syntax
// (see tracer/README.md "tit-convert"). The conversions live in tools/convert/convert.hpp.
#include "core/error.hpp"
#include "convert/convert.hpp"

#include "trace/reader.hpp"

#include <cstring>
#include <iostream>
#include <string>

namespace {

const char* kUsage =
    "usage: tit-convert --to simgrid [--from thesis|pre3.20] INPUT OUTDIR\n"
    "       tit-convert --to thesis INPUT OUTDIR\n"
    "       tit-convert --durations TRACEDIR OUTDIR\n"
    "INPUT: a trace list, a directory of per-rank files, or a merged file. OUTDIR receives rank-<r>.txt\n"
    "and trace.list. --durations reads TRACEDIR/trace.list's rank files and TRACEDIR/timings-<r>.csv\n"
    "(TIT_TRACE_TIMINGS=1) and replaces every compute by a sleep of its measured duration.\n";

int usage_error(const std::string& what)
{
  std::cerr << "tit-convert: error: " << what << "\n" << kUsage;
  return 2;
}

} // namespace

int main(int argc, char** argv)
{
  using namespace tit::convert;
  std::string to, from = "thesis";
  bool durations = false;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--to" && i + 1 < argc) {
      to = argv[++i];
    } else if (a == "--from" && i + 1 < argc) {
      from = argv[++i];
    } else if (a == "--durations") {
      durations = true;
    } else if (a.rfind("--", 0) == 0) {
      return usage_error("unknown option '" + a + "'");
    } else {
      pos.push_back(a);
    }
  }
  if (pos.size() != 2)
    return usage_error("expected INPUT and OUTDIR");
  if (durations == !to.empty())
    return usage_error("give exactly one of --to simgrid, --to thesis, --durations");
  if (!to.empty() && to != "simgrid" && to != "thesis")
    return usage_error("--to '" + to + "': expected simgrid or thesis");
  if (from != "thesis" && from != "pre3.20")
    return usage_error("--from '" + from + "': expected thesis or pre3.20");
  return tit::run_main("tit-convert", [&] {
    std::optional<tit::trace::Dialect> dialect;
    if (!durations)
      dialect = to == "simgrid" ? tit::trace::Dialect::SimGrid : tit::trace::Dialect::Thesis;
    convert_into(pos[0], pos[1], dialect, from == "thesis" ? Source::Thesis : Source::Pre320);
    return 0;
  });
}

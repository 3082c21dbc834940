// tit-trace's subcommands: compress, expand, info.
#include "compress/compress.hpp"

#include "compressed/compressed.hpp"
#include "trace/writer.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cstdio>

#include <fstream>
#include <map>

namespace fs = std::filesystem;

namespace tit::tracetool {

namespace {

/// Bytes of the actions' lines as text ("<line>\n" each), the size of the trace without comments.
std::uint64_t line_bytes(const trace::Action& a) { return a.text.size() + 1; }

/// "cpu-time x 1e+09" -> "# compute: cpu-time" and "# rate: 1e+09"; "instructions" -> "# compute: instructions".
void write_unit_header(std::ostream& out, const std::string& unit)
{
  if (unit.empty())
    return;
  auto x = unit.find(" x ");
  out << "# compute: " << unit.substr(0, x) << "\n";
  if (x != std::string::npos)
    out << "# rate: " << unit.substr(x + 3) << "\n";
}

std::string ratio(std::uint64_t text, std::uint64_t bytes)
{
  return bytes == 0 ? "-" : fmt::format("{:.1f}", static_cast<double>(text) / static_cast<double>(bytes));
}

} // namespace

void compress(const fs::path& traces, const fs::path& out, const trace::ValueMode& mode, std::ostream& report)
{
  std::unique_ptr<trace::TraceSet> set = trace::TraceSet::open(traces, std::nullopt);
  trace::CompressStats s = trace::compress(*set, out, mode);
  fmt::print(report, "{}: {} ranks, {} actions, {} signatures, {} loops, {} rank structures, {} value blocks, "
                     "{} bytes (values {}{})\n",
             out.string(), set->rank_count(), s.actions, s.signatures, s.loops, s.structures, s.value_blocks, s.bytes,
             trace::value_mode_name(mode),
             mode.kind == trace::ValueMode::Kind::Stats ? fmt::format(", stats check {:+.2f}%", 100 * s.stats_check)
                                                        : std::string());
  if (!s.warning.empty())
    fmt::print(stderr, "{}\n", s.warning);
}

void expand(const fs::path& traces, const fs::path& outdir, std::optional<trace::Dialect> dialect,
            std::ostream& report)
{
  std::unique_ptr<trace::TraceSet> set = trace::TraceSet::open(traces, std::nullopt);
  std::error_code ec;
  fs::create_directories(outdir, ec);
  if (ec)
    throw trace::TraceError(fmt::format("error: cannot create directory '{}': {}", outdir.string(), ec.message()));
  std::ofstream list(outdir / "trace.list");
  std::uint64_t actions = 0;
  for (int r = 0; r < set->rank_count(); ++r) {
    std::string name = fmt::format("rank-{}.txt", r);
    std::ofstream f(outdir / name, std::ios::trunc);
    if (!f)
      throw trace::TraceError(fmt::format("error: cannot write '{}'", (outdir / name).string()));
    write_unit_header(f, set->compute_unit());
    std::unique_ptr<trace::RankReader> reader = set->reader(r);
    trace::Action a;
    std::string line;
    while (reader->next(a)) {
      if (dialect) {
        line.clear();
        trace::append_action(line, a, *dialect);
        f << line << '\n';
      } else {
        f << a.text << '\n';
      }
      ++actions;
    }
    if (!f.flush())
      throw trace::TraceError(fmt::format("error: cannot write '{}'", (outdir / name).string()));
    list << name << '\n';
  }
  if (!list.flush())
    throw trace::TraceError(fmt::format("error: cannot write '{}'", (outdir / "trace.list").string()));
  fmt::print(report, "{}: {} ranks, {} actions\n", outdir.string(), set->rank_count(), actions);
}

void info(const fs::path& traces, std::ostream& report)
{
  std::unique_ptr<trace::TraceSet> set = trace::TraceSet::open(traces, std::nullopt);
  std::map<std::string, std::uint64_t> per_kind;
  std::uint64_t actions = 0, text = 0;
  for (int r = 0; r < set->rank_count(); ++r) {
    std::unique_ptr<trace::RankReader> reader = set->reader(r);
    trace::Action a;
    while (reader->next(a)) {
      ++per_kind[std::string(trace::canonical_name(a))]; // by kind: dialect 1's Isend and dialect 2's isend together
      ++actions;
      text += line_bytes(a);
    }
  }
  fmt::print(report, "trace: {}\nranks: {}\nactions: {}\n", set->describe(), set->rank_count(), actions);
  if (!set->compute_unit().empty())
    fmt::print(report, "compute unit: {}\n", set->compute_unit());
  fmt::print(report, "action lines: {} bytes\n", text);
  if (trace::is_compressed_trace(traces)) {
    trace::CompressedInfo c = trace::compressed_info(traces);
    std::uint64_t bytes = c.structure_bytes + c.value_bytes;
    fmt::print(report,
               "format: compressed, version {}, values {}\n"
               "signatures: {}\nloops: {}\nrank structures: {}\nvalue blocks: {}\n"
               "bytes: {} (header and structure {}, values {}); action lines / bytes: {}\n",
               c.version, c.value_mode, c.signatures, c.loops, c.structures, c.value_blocks, bytes, c.structure_bytes,
               c.value_bytes, ratio(text, bytes));
    if (c.value_mode == "stats" && c.drawn_sites == 0)
      fmt::print(report, "stats: no value drawn, every one kept as traced (tit-trace compress keeps them when the draws "
                         "would move its check's estimates by more than {:g} % (lock step) or {:g} % (messages), and "
                         "says so, or when that file is smaller)\n",
                 100 * trace::cformat::kStatsCheckLimit, 100 * trace::cformat::kTimedCheckLimit);
    else if (c.value_mode == "stats")
      fmt::print(report, "stats: {} of {} schedules drawn\n", c.drawn_sites, c.schedules);
  }
  fmt::print(report, "actions per kind:\n");
  for (const auto& [name, count] : per_kind)
    fmt::print(report, "  {:<16} {}\n", name, count);
}

} // namespace tit::tracetool

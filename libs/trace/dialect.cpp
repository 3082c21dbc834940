// Which of the two dialects a trace file is written in.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace tit::trace::detail {

std::string_view dialect_name(Dialect dialect)
{
  switch (dialect) {
  case Dialect::Thesis:
    return "dialect 1 (thesis)";
  case Dialect::Pre320:
    return "SimGrid <= 3.19's format (pre-3.20)";
  default:
    return "dialect 2 (SimGrid)";
  }
}

namespace {

// Names both dialects know, told apart by their number of arguments.
std::optional<Dialect> shape_dialect(std::string_view name, std::size_t args)
{
  if (name == "wait") {
    if (args == 0)
      return Dialect::Thesis;
    if (args == 3)
      return Dialect::SimGrid;
  } else if (name == "send") {
    if (args == 2)
      return Dialect::Thesis;
    if (args == 4)
      return Dialect::SimGrid;
  } else if (name == "recv") {
    if (args == 1 || args == 2)
      return Dialect::Thesis;
    if (args == 4)
      return Dialect::SimGrid;
  }
  return std::nullopt;
}

std::size_t count_fields(std::string_view rest)
{
  std::size_t n = 0;
  while (!rest.empty()) {
    next_field(rest);
    ++n;
  }
  return n;
}

} // namespace

std::optional<Dialect> line_dialect(std::string_view name, std::size_t arg_count)
{
  bool thesis = find_action(Dialect::Thesis, name) != nullptr;
  bool simgrid = find_action(Dialect::SimGrid, name) != nullptr;
  if (thesis != simgrid)
    return thesis ? Dialect::Thesis : Dialect::SimGrid;
  if (!thesis)
    return std::nullopt; // unknown name: the parser reports it
  return shape_dialect(name, arg_count);
}

namespace {

/// The first word after "# compute: " or "# rate: " into `mode` or `rate`.
void header_field(std::string_view comment, std::string& mode, std::string& rate)
{
  for (auto [prefix, out] : {std::pair<std::string_view, std::string*>{"# compute: ", &mode}, {"# rate: ", &rate}})
    if (comment.starts_with(prefix)) {
      std::string_view rest = comment.substr(prefix.size());
      *out = std::string(next_field(rest));
    }
}

} // namespace

FileScan scan_file(const std::string& path, ScanDepth depth)
{
  LineSource src(path, 64 * 1024);
  return scan_lines(src, depth);
}

FileScan scan_lines(LineSource& src, ScanDepth depth)
{
  const std::string& path = src.path();
  FileScan scan;
  std::unordered_set<int> seen; // AllRanks: the ranks that have lines (a merged file must hold every rank's)
  bool decided = false;
  std::string mode, rate; // the header's, before the first action line
  std::string_view line;
  while (src.next(line)) {
    line = trim(line);
    if (is_skipped(line)) {
      if (!scan.first_rank)
        header_field(line, mode, rate);
      continue;
    }
    if (!scan.first_rank)
      scan.compute_unit = tit::trace::compute_unit(mode, rate);
    std::string_view rest = line;
    std::string_view rank_token = next_field(rest);
    if (!scan.first_rank || depth == ScanDepth::AllRanks) {
      int rank = rank_field(path, src.line_number(), line, rank_token);
      if (!scan.first_rank) {
        scan.first_rank = rank;
        scan.first_line = src.line_number();
        scan.first_text = line;
      }
      scan.several_ranks = scan.several_ranks || rank != *scan.first_rank;
      scan.max_rank = std::max(scan.max_rank, rank);
      if (depth == ScanDepth::AllRanks)
        seen.insert(rank);
    }
    if (!decided) {
      std::string_view name = next_field(rest);
      if (std::optional<Dialect> d = line_dialect(name, count_fields(rest))) {
        scan.dialect = DialectGuess{*d, src.line_number(), std::string(name)};
        decided = true;
      }
    }
    if (decided && depth == ScanDepth::FirstRank)
      break;
  }
  scan.distinct_ranks = seen.size();
  if (depth == ScanDepth::AllRanks && seen.size() < static_cast<std::size_t>(scan.max_rank) + 1) {
    std::vector<int> ranks(seen.begin(), seen.end());
    std::sort(ranks.begin(), ranks.end());
    scan.first_missing_rank = 0;
    for (int r : ranks) { // the first gap: ranks are >= 0 and sorted
      if (r != scan.first_missing_rank)
        break;
      ++scan.first_missing_rank;
    }
  }
  return scan;
}

} // namespace tit::trace::detail

namespace tit::trace {

std::string compute_unit(std::string_view mode, std::string_view rate)
{
  if (mode.empty() || mode == "instructions")
    return std::string(mode);
  std::optional<double> r = detail::parse_double(rate);
  return r ? fmt::format("{} x {:g}", mode, *r) : std::string(mode);
}

std::optional<double> compute_unit_rate(std::string_view unit, std::string_view mode)
{
  auto x = unit.find(" x ");
  if (x == std::string_view::npos || (not mode.empty() && unit.substr(0, x) != mode))
    return std::nullopt;
  std::optional<double> r = detail::parse_double(unit.substr(x + 3));
  return r && *r > 0 ? r : std::nullopt;
}

} // namespace tit::trace

#include "csv.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace tit::calib {

namespace {

std::string_view trim(std::string_view s)
{
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos)
    return {};
  auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(std::string_view line)
{
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto comma = line.find(',', start);
    out.emplace_back(trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  return out;
}

} // namespace

bool parse_number(std::string_view token, double& out)
{
  if (token.empty())
    return false;
  if (token.front() == '+')
    token.remove_prefix(1);
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return ec == std::errc() && end == token.data() + token.size() && std::isfinite(out);
}

CsvTable CsvTable::read(const std::filesystem::path& path, std::string_view format)
{
  std::ifstream in(path, std::ios::binary);
  if (not in)
    throw InputError(fmt::format("{}: error: cannot open the measurement file", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path.string(), format);
}

CsvTable CsvTable::parse(std::string_view text, std::string name, std::string_view format)
{
  CsvTable t;
  t.name_ = std::move(name);
  std::string expected = fmt::format("# tit-calibrate {} v1", format);
  std::uint64_t line_no = 0;
  std::size_t pos = 0;
  bool first = true;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    auto line = trim(raw);
    if (first) {
      if (line != expected)
        throw InputError(fmt::format("{}:1: error: expected the header line '{}', got '{}'", t.name_, expected, line));
      first = false;
      continue;
    }
    if (line.empty())
      continue;
    if (line.front() == '#') {
      auto body = trim(line.substr(1));
      auto colon = body.find(':');
      if (colon != std::string_view::npos)
        t.meta_[std::string(trim(body.substr(0, colon)))] = std::string(trim(body.substr(colon + 1)));
      continue;
    }
    auto fields = split(line);
    if (t.columns_.empty()) {
      for (std::size_t i = 0; i < fields.size(); ++i)
        if (fields[i].empty())
          throw InputError(fmt::format("{}:{}:{}: error: empty column name in the column header", t.name_, line_no,
                                       i + 1));
      t.columns_ = std::move(fields);
      continue;
    }
    if (fields.size() != t.columns_.size())
      throw InputError(fmt::format("{}:{}: error: expected {} fields ({}), got {}\n  {}", t.name_, line_no,
                                   t.columns_.size(), fmt::join(t.columns_, ","), fields.size(), line));
    t.rows_.push_back(Row{line_no, std::move(fields)});
  }
  if (first)
    throw InputError(fmt::format("{}:1: error: empty file, expected the header line '{}'", t.name_, expected));
  if (t.columns_.empty())
    throw InputError(fmt::format("{}:{}: error: no column header line", t.name_, line_no));
  return t;
}

std::string CsvTable::meta(const std::string& key) const
{
  auto it = meta_.find(key);
  return it == meta_.end() ? std::string() : it->second;
}

std::size_t CsvTable::column(std::string_view wanted) const
{
  for (std::size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i] == wanted)
      return i;
  throw InputError(fmt::format("{}: error: no column '{}' (columns: {})", name_, wanted, fmt::join(columns_, ",")));
}

std::string CsvTable::where(const Row& row, std::size_t col) const
{
  return fmt::format("{}:{}:{}", name_, row.line, col + 1);
}

double CsvTable::number(const Row& row, std::size_t col) const
{
  double v = 0;
  if (not parse_number(row.fields[col], v))
    throw InputError(fmt::format("{}: error: column '{}' expects a number, got '{}'", where(row, col), columns_[col],
                                 row.fields[col]));
  return v;
}

double CsvTable::non_negative(const Row& row, std::size_t col) const
{
  double v = number(row, col);
  if (v < 0)
    throw InputError(fmt::format("{}: error: column '{}' expects a number >= 0, got '{}'", where(row, col),
                                 columns_[col], row.fields[col]));
  return v;
}

std::uint64_t CsvTable::count(const Row& row, std::size_t col) const
{
  const std::string& f = row.fields[col];
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (f.empty() || ec != std::errc() || end != f.data() + f.size())
    throw InputError(fmt::format("{}: error: column '{}' expects a non-negative integer, got '{}'", where(row, col),
                                 columns_[col], f));
  return v;
}

} // namespace tit::calib

// Lexical rules shared by both dialects: blanks, fields, numbers, and the shape of error messages.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace tit::trace::detail {

namespace {
bool is_blank(char c) { return c == ' ' || c == '\t'; }
} // namespace

std::string_view trim(std::string_view s)
{
  std::size_t b = 0;
  while (b < s.size() && is_blank(s[b]))
    ++b;
  std::size_t e = s.size();
  while (e > b && is_blank(s[e - 1]))
    --e;
  return s.substr(b, e - b);
}

std::string_view next_field(std::string_view& rest)
{
  std::size_t e = 0;
  while (e < rest.size() && !is_blank(rest[e]))
    ++e;
  std::string_view field = rest.substr(0, e);
  while (e < rest.size() && is_blank(rest[e]))
    ++e;
  rest.remove_prefix(e);
  return field;
}

std::optional<int> parse_int(std::string_view token)
{
  int value = 0;
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (token.empty() || ec != std::errc() || ptr != end)
    return std::nullopt;
  return value;
}

std::optional<double> parse_double(std::string_view token)
{
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+')
    token.remove_prefix(1); // from_chars refuses a leading '+', strtod accepts it
  double value = 0;
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, value, std::chars_format::general);
  if (token.empty() || ec != std::errc() || ptr != end || !std::isfinite(value))
    return std::nullopt;
  return value;
}

int rank_field(const std::string& file, std::uint64_t line, std::string_view text, std::string_view token)
{
  std::optional<int> rank = parse_int(token);
  if (!rank)
    fail_at(file, line, text, fmt::format("rank '{}' is not an integer", token));
  if (*rank < 0)
    fail_at(file, line, text, fmt::format("rank {} is negative", *rank));
  return *rank;
}

void fail_at(const std::string& file, std::uint64_t line, std::string_view text, std::string_view what)
{
  throw TraceError(fmt::format("{}:{}: error: {}\n  {}", file, line, what, text));
}

void fail(const Action& at, std::string_view what)
{
  static const std::string unknown = "<trace>";
  fail_at(at.file != nullptr ? *at.file : unknown, at.line, at.text, what);
}

} // namespace tit::trace::detail

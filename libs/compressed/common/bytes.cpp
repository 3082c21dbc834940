// The bytes of compressed trace records: varints, strings, fixed-size words (docs/compressed-format.md).
#include "compressed/common/bytes.hpp"
#include "compressed/common/format.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>

namespace tit::trace::cformat {

void ByteWriter::varint(std::uint64_t v)
{
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void ByteWriter::string(std::string_view s)
{
  varint(s.size());
  out_.append(s);
}

void ByteWriter::u32(std::uint32_t v)
{
  for (int i = 0; i < 4; ++i)
    out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void ByteReader::fail(std::string_view what) const
{
  throw TraceError(fmt::format("{}: error: {} at byte {}: {} (truncated or corrupt compressed trace)", file_,
                               record_, base_ + pos_, what));
}

std::uint64_t ByteReader::varint(std::string_view what)
{
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size())
      fail(fmt::format("expected {}, found the end of the record", what));
    auto b = static_cast<std::uint8_t>(data_[pos_++]);
    if (shift == 63 && b > 1)
      fail(fmt::format("expected {}, found a number over 64 bits", what));
    v |= std::uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80) == 0)
      return v;
  }
  fail(fmt::format("expected {}, found a number over 64 bits", what));
}

std::int64_t ByteReader::zigzag(std::string_view what)
{
  std::uint64_t u = varint(what);
  return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
}

std::uint8_t ByteReader::byte(std::string_view what) { return static_cast<std::uint8_t>(take(1, what)[0]); }

std::string_view ByteReader::take(std::size_t n, std::string_view what)
{
  if (n > data_.size() - pos_)
    fail(fmt::format("expected {} ({} bytes), found {} bytes left", what, n, data_.size() - pos_));
  std::string_view s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

std::string ByteReader::string(std::string_view what)
{
  std::uint64_t n = varint(what);
  if (n > data_.size() - pos_)
    fail(fmt::format("expected {} of {} bytes, found {} bytes left", what, n, data_.size() - pos_));
  return std::string(take(static_cast<std::size_t>(n), what));
}

std::uint32_t ByteReader::u32(std::string_view what)
{
  std::string_view b = take(4, what);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= std::uint32_t{static_cast<std::uint8_t>(b[i])} << (8 * i);
  return v;
}

std::uint64_t ByteReader::below(std::uint64_t limit, std::string_view what)
{
  std::size_t at = pos_;
  std::uint64_t v = varint(what);
  if (v >= limit) {
    pos_ = at;
    fail(fmt::format("expected {} below {}, found {}", what, limit, v));
  }
  return v;
}

void check_field(ByteReader& r, std::string_view s, std::string_view what)
{
  if (s.empty() || s.find_first_of(" \t") != std::string_view::npos)
    r.fail(fmt::format("expected {} (one field of an action line: not empty, no blank), found '{}'", what, s));
}

std::string field(ByteReader& r, std::string_view what)
{
  std::string s = r.string(what);
  check_field(r, s, what);
  return s;
}

std::uint64_t table_size(ByteReader& r, std::string_view what, std::size_t bytes_left)
{
  return r.below(std::min<std::uint64_t>(kMaxTable, bytes_left + 1), what);
}

bool canonical_int(std::string_view token, std::int64_t& value)
{
  std::string_view digits = token.starts_with('-') ? token.substr(1) : token;
  if (digits.empty() || digits.size() > 19 || (digits[0] == '0' && (digits.size() > 1 || token.size() > 1)))
    return false;
  for (char c : digits)
    if (c < '0' || c > '9')
      return false;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  return ec == std::errc() && end == token.data() + token.size() && value < kIntLimit && value > -kIntLimit;
}

} // namespace tit::trace::cformat

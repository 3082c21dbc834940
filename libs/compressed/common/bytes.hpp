// The bytes of compressed trace records: ByteWriter and ByteReader (varints, zigzag, strings), and the checks every
// record's reader shares.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace tit::trace::cformat {

class ByteWriter {
public:
  void varint(std::uint64_t v);
  void zigzag(std::int64_t v) { varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63)); }
  void byte(std::uint8_t b) { out_.push_back(static_cast<char>(b)); }
  void string(std::string_view s);
  void bytes(std::string_view s) { out_.append(s); }
  void u32(std::uint32_t v);
  std::string& out() { return out_; }

private:
  std::string out_;
};

/// Reads one record; every read past its end or of a malformed varint throws TraceError
/// "<file>: error: <record> at byte <n>: expected <what> (truncated or corrupt file)".
class ByteReader {
public:
  ByteReader(std::string_view data, const std::string& file, std::string record, std::uint64_t base = 0)
      : data_(data), file_(file), record_(std::move(record)), base_(base)
  {
  }
  std::uint64_t varint(std::string_view what);
  std::int64_t zigzag(std::string_view what);
  std::uint8_t byte(std::string_view what);
  std::string string(std::string_view what);
  std::string_view take(std::size_t n, std::string_view what);
  std::uint32_t u32(std::string_view what);
  /// A varint that must be < limit (an index, a count).
  std::uint64_t below(std::uint64_t limit, std::string_view what);
  bool at_end() const { return pos_ == data_.size(); }
  std::size_t pos() const { return pos_; }
  [[noreturn]] void fail(std::string_view what) const;

private:
  std::string_view data_;
  const std::string& file_;
  std::string record_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
};

/// A field of an action line as the writer cuts them (a name, a literal argument, a value token): not empty and
/// without blanks, so that a line made of fields joined by single spaces splits back into the same fields (the
/// reader builds its lines so and hands their fields over without splitting them again).
void check_field(ByteReader& r, std::string_view s, std::string_view what);
/// A string read and checked by check_field.
std::string field(ByteReader& r, std::string_view what);

inline constexpr std::uint64_t kMaxTable = std::numeric_limits<std::uint32_t>::max();
/// A table length: bounded by the bytes left (each entry takes at least one byte), so a corrupt length
/// cannot make us allocate gigabytes.
std::uint64_t table_size(ByteReader& r, std::string_view what, std::size_t bytes_left);

} // namespace tit::trace::cformat

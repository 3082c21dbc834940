// Lines, fields and numbers: LineSource, trim, next_field, parse_int, parse_double.
#include "trace/reader.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "trace_test_support.hpp"

namespace tit::trace {
namespace {

using namespace test_support;
using detail::LineSource;

struct Line {
  std::uint64_t number;
  std::string text;
  bool operator==(const Line&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Line& l) { return os << l.number << ":'" << l.text << "'"; }

std::vector<Line> read_lines(const std::filesystem::path& path, std::size_t buffer = LineSource::kDefaultBuffer)
{
  LineSource src(path.string(), buffer);
  std::vector<Line> lines;
  std::string_view line;
  while (src.next(line))
    lines.push_back(Line{src.line_number(), std::string(line)});
  return lines;
}

TEST(TraceLineSource, NumbersPhysicalLinesAndStripsNewlines)
{
  auto p = write_file(scratch_dir() / "t.txt", "a b\n\n  c\r\nd\r\r\n");
  std::vector<Line> expected = {{1, "a b"}, {2, ""}, {3, "  c"}, {4, "d\r"}};
  EXPECT_EQ(read_lines(p), expected);
}

TEST(TraceLineSource, ReadsALastLineWithoutNewline)
{
  auto p = write_file(scratch_dir() / "t.txt", "0 init\n0 finalize");
  std::vector<Line> expected = {{1, "0 init"}, {2, "0 finalize"}};
  EXPECT_EQ(read_lines(p), expected);
  auto q = write_file(scratch_dir() / "crlf.txt", "0 init\r\n0 finalize\r");
  std::vector<Line> expected_crlf = {{1, "0 init"}, {2, "0 finalize"}};
  EXPECT_EQ(read_lines(q), expected_crlf);
}

TEST(TraceLineSource, EmptyFileHasNoLine)
{
  auto p = write_file(scratch_dir() / "t.txt", "");
  EXPECT_TRUE(read_lines(p).empty());
}

TEST(TraceLineSource, LinesAcrossTinyBufferBoundaries)
{
  std::string content;
  std::vector<Line> expected;
  for (int i = 1; i <= 500; ++i) {
    std::string line = std::to_string(i % 7) + " compute " + std::string(static_cast<std::size_t>(i % 150), 'x');
    content += line + (i % 3 == 0 ? "\r\n" : "\n");
    expected.push_back(Line{static_cast<std::uint64_t>(i), line});
  }
  auto p = write_file(scratch_dir() / "t.txt", content);
  EXPECT_EQ(read_lines(p, 64), expected);
  EXPECT_EQ(read_lines(p, 100), expected);
  EXPECT_EQ(read_lines(p), expected);
}

TEST(TraceLineSource, LineLongerThanTheBuffer)
{
  std::string longline(100000, 'y');
  auto p = write_file(scratch_dir() / "t.txt", "short\n" + longline + "\nend");
  std::vector<Line> expected = {{1, "short"}, {2, longline}, {3, "end"}};
  EXPECT_EQ(read_lines(p, 64), expected);
}

TEST(TraceLineSource, ReadsGzipTransparently)
{
  std::string content;
  for (int i = 0; i < 20000; ++i)
    content += "0 compute " + std::to_string(i) + "\n";
  content += "0 finalize";
  auto gz = write_gz(scratch_dir() / "t.txt.gz", content);
  auto plain = write_file(scratch_dir() / "t.txt", content);
  std::vector<Line> lines = read_lines(gz, 4096);
  ASSERT_EQ(lines.size(), 20001u);
  EXPECT_EQ(lines[1234], (Line{1235, "0 compute 1234"}));
  EXPECT_EQ(lines.back(), (Line{20001, "0 finalize"}));
  EXPECT_EQ(lines, read_lines(plain));
}

/// The lines of `src` from where it is to its end.
std::vector<Line> rest_of(LineSource& src)
{
  std::vector<Line> lines;
  std::string_view line;
  while (src.next(line))
    lines.push_back(Line{src.line_number(), std::string(line)});
  return lines;
}

// A scan reads the first lines, and the rank's reader then reads the same opened file from its start.
TEST(TraceLineSource, RewindStartsAgainFromTheFirstLine)
{
  std::string content;
  for (int i = 0; i < 3000; ++i)
    content += "0 compute " + std::to_string(i) + "\n";
  content += "0 finalize";
  auto plain = write_file(scratch_dir() / "t.txt", content);
  auto gz = write_gz(scratch_dir() / "t.txt.gz", content);
  const std::vector<Line> all = read_lines(plain);
  ASSERT_EQ(all.size(), 3001u);
  for (const auto& path : {plain, gz})
    for (std::size_t buffer : {std::size_t{64}, std::size_t{4096}, LineSource::kDefaultBuffer})
      for (std::size_t taken : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{500}, all.size()}) {
        SCOPED_TRACE(path.string() + ", buffer " + std::to_string(buffer) + ", " + std::to_string(taken) +
                     " lines before rewinding");
        LineSource src(path.string(), buffer);
        std::string_view line;
        for (std::size_t i = 0; i < taken; ++i)
          ASSERT_TRUE(src.next(line));
        src.rewind();
        EXPECT_EQ(rest_of(src), all);
        src.rewind(); // at the end: again from the start
        EXPECT_EQ(rest_of(src), all);
      }
}

// A pipe cannot be read again once its first bytes left the buffer.
TEST(TraceLineSource, RewindOfAPipeIsAnError)
{
  auto fifo = scratch_dir() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string content;
  for (int i = 0; i < 100; ++i)
    content += "# comment " + std::to_string(i) + "\n"; // 1.5 KB: the pipe takes it all, the writer never blocks
  std::jthread writer([&] { write_file(fifo, content); }); // joined when the test ends, even on a failure
  LineSource src(fifo.string(), 64);
  std::string_view line;
  for (int i = 0; i < 20; ++i)
    ASSERT_TRUE(src.next(line));
  EXPECT_EQ(trace_error([&] { src.rewind(); }),
            fifo.string() + ": error: cannot read the trace again from its start: Illegal seek");
}

TEST(TraceLineSource, HeadIsTheFirstBytesAsStored)
{
  EXPECT_EQ(LineSource(write_file(scratch_dir() / "long.txt", "0 init 1\n0 finalize\n").string()).head(),
            "0 init 1");
  EXPECT_EQ(LineSource(write_file(scratch_dir() / "short.txt", "0 a").string()).head(), "0 a");
  EXPECT_EQ(LineSource(write_file(scratch_dir() / "empty.txt", "").string()).head(), "");
  EXPECT_EQ(LineSource(write_gz(scratch_dir() / "t.gz", "0 init\n").string()).head().substr(0, 2), "\x1f\x8b");
}

TEST(TraceLineSource, MissingFile)
{
  auto p = scratch_dir() / "nope.txt";
  EXPECT_EQ(trace_error([&] { LineSource src(p.string()); }),
            "error: cannot open trace '" + p.string() + "': No such file or directory");
}

TEST(TraceLineSource, TruncatedGzipIsAnError)
{
  std::string content;
  for (int i = 0; i < 5000; ++i)
    content += "0 compute " + std::to_string(i * 7919) + "\n";
  auto gz = write_gz(scratch_dir() / "full.gz", content);
  std::string bytes;
  {
    std::ifstream in(gz, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto cut = write_file(scratch_dir() / "cut.gz", std::string_view(bytes).substr(0, bytes.size() / 2));
  std::string err = trace_error([&] { read_lines(cut); });
  EXPECT_EQ(err.rfind(cut.string() + ":", 0), 0u) << err;
  EXPECT_NE(err.find("error: cannot read the trace"), std::string::npos) << err;
}

TEST(TraceLex, TrimBlanksAndTabs)
{
  EXPECT_EQ(detail::trim(" \t 0 init \t "), "0 init");
  EXPECT_EQ(detail::trim("\t\t"), "");
  EXPECT_EQ(detail::trim(""), "");
  EXPECT_TRUE(detail::is_skipped(""));
  EXPECT_TRUE(detail::is_skipped("# 0 init"));
  EXPECT_FALSE(detail::is_skipped("0 init # not a comment"));
}

TEST(TraceLex, FieldsSplitOnRunsOfBlanksAndTabs)
{
  std::string_view rest = "0 \t send\t\t1   2 3";
  std::vector<std::string_view> fields;
  while (!rest.empty())
    fields.push_back(detail::next_field(rest));
  EXPECT_EQ(fields, (std::vector<std::string_view>{"0", "send", "1", "2", "3"}));
}

TEST(TraceLex, IntegersMustUseTheWholeToken)
{
  EXPECT_EQ(detail::parse_int("12"), 12);
  EXPECT_EQ(detail::parse_int("-333"), -333);
  EXPECT_FALSE(detail::parse_int("12x"));
  EXPECT_FALSE(detail::parse_int("1.0"));
  EXPECT_FALSE(detail::parse_int("1e3"));
  EXPECT_FALSE(detail::parse_int(""));
  EXPECT_FALSE(detail::parse_int(" 1"));
  EXPECT_FALSE(detail::parse_int("99999999999"));
}

TEST(TraceLex, DoublesAcceptScientificNotation)
{
  EXPECT_EQ(detail::parse_double("5e4"), 5e4);
  EXPECT_EQ(detail::parse_double("1e+07"), 1e7);
  EXPECT_EQ(detail::parse_double("1.5E-3"), 1.5e-3);
  EXPECT_EQ(detail::parse_double("+3"), 3.0);
  EXPECT_EQ(detail::parse_double("-2.5"), -2.5);
  EXPECT_EQ(detail::parse_double(".5"), 0.5);
  EXPECT_FALSE(detail::parse_double("1e9x"));
  EXPECT_FALSE(detail::parse_double("x"));
  EXPECT_FALSE(detail::parse_double(""));
  EXPECT_FALSE(detail::parse_double("+-1"));
  EXPECT_FALSE(detail::parse_double("inf"));
  EXPECT_FALSE(detail::parse_double("nan"));
  EXPECT_FALSE(detail::parse_double("1e999"));
  EXPECT_FALSE(detail::parse_double("0x10"));
}

} // namespace
} // namespace tit::trace

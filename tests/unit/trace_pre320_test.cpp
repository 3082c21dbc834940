// SimGrid <= 3.19's format (Dialect::Pre320), read only when asked: dialect 1's names, counts of a datatype,
// no tags, `wait` and `test` naming no request.
#include "trace/reader.hpp"
#include "trace/writer.hpp"

#include "trace_lines_fixture.hpp"
#include "trace_test_support.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace tit::trace {
namespace {

using namespace test_support;

/// Lines of a 4-rank pre-3.20 file "pre.txt" (read as asked: no line decided).
class Pre320Lines : public testing::LinesFixture {
protected:
  Pre320Lines() : LinesFixture("pre.txt", detail::DialectGuess{Dialect::Pre320, 0, ""}) {}
};

TEST_F(Pre320Lines, PointToPointCountsOfTheDefaultDatatypeWithoutTags)
{
  const Action& a = parse("0 Isend 1 100");
  EXPECT_EQ(a.kind, Kind::Isend);
  EXPECT_EQ(a.dialect, Dialect::Pre320);
  EXPECT_EQ(a.partner, 1);
  EXPECT_EQ(a.tag, 0);
  EXPECT_EQ(a.bytes, 100.0); // byte, the default without an argument to init
  EXPECT_EQ(parse("0 send 2 100 1").bytes, 400.0);
  EXPECT_EQ(parse("0 ISsend 2 10 0").kind, Kind::Issend);
  EXPECT_EQ(action_.bytes, 80.0);
  EXPECT_EQ(parse("0 Irecv 3 0").bytes, kUnknownSize); // 3.19 probed the sender's size for a count <= 0
  EXPECT_EQ(parse("0 recv -333 -1").partner, kAnySource);
  EXPECT_EQ(action_.bytes, kUnknownSize);
}

TEST_F(Pre320Lines, InitWithAnArgumentMakesDoubleTheDefaultAndUnknownIdsMeanTheDefault)
{
  EXPECT_EQ(parse("0 send 1 10 9").bytes, 10.0); // id 9: not one of 3.19's 0..6, the default (byte)
  parse("0 init 1");
  EXPECT_EQ(parse("0 send 1 10").bytes, 80.0);
  EXPECT_EQ(parse("0 send 1 10 -1").bytes, 80.0); // -1 (a derived type): the default too, not 0 bytes
  EXPECT_EQ(parse("0 send 1 10 6").bytes, 10.0);
  EXPECT_EQ(parse("0 bcast 5").bytes, 40.0);
  EXPECT_EQ(action_.datatype_size, 8.0);
}

TEST_F(Pre320Lines, WaitAndTestNameNoRequest)
{
  EXPECT_EQ(parse("0 wait").kind, Kind::Wait);
  EXPECT_TRUE(action_.wait_last_irecv);
  EXPECT_EQ(parse("0 test").kind, Kind::Test);
  EXPECT_TRUE(action_.wait_last_irecv);
  EXPECT_EQ(parse("0 waitAll 3").kind, Kind::WaitAll);
  EXPECT_NE(error("0 waitAny 2").find("pre.txt:4: error: 'waitAny' has no equivalent"), std::string::npos);
}

TEST_F(Pre320Lines, CollectivesTakeDialectTwosArguments)
{
  EXPECT_EQ(parse("0 allToAllV 8 2 2 2 2 8 2 2 2 2 3 3").kind, Kind::AllToAllV); // no displacements; shorts
  EXPECT_EQ(action_.send_counts, (std::vector<double>{4, 4, 4, 4}));
  EXPECT_EQ(parse("0 gatherV 10 1 2 3 4 2").kind, Kind::GatherV);
  EXPECT_EQ(action_.root, 2);
  EXPECT_EQ(action_.recv_counts, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(parse("0 scatterV 1 2 3 4 10 3 1 1").kind, Kind::ScatterV);
  EXPECT_EQ(action_.send_counts, (std::vector<double>{4, 8, 12, 16}));
  EXPECT_EQ(action_.bytes2, 40.0);
  EXPECT_EQ(parse("0 allGatherV 10 1 1 1 1 4 4").kind, Kind::AllGatherV);
  EXPECT_EQ(action_.bytes, 80.0);
  EXPECT_EQ(parse("0 allGather 10 20").kind, Kind::AllGather);
  EXPECT_EQ(parse("0 scan 10 0").kind, Kind::Scan);
  EXPECT_EQ(action_.bytes, 80.0);
  EXPECT_EQ(action_.amount, 0.0);
  EXPECT_NE(error("0 allGatherV 10 1 1 1 1 0 1 2 3").find("'allGatherV' needs <sendcount> <recvcounts x 4> [dt1 dt2], "
                                                         "got 9 fields"),
            std::string::npos);
  EXPECT_NE(error("0 allreduce 10 0").find("'allreduce' is an action of dialect 2 (SimGrid), but this file is read "
                                           "as SimGrid <= 3.19's format (pre-3.20), as asked"),
            std::string::npos);
}

TEST(Pre320Files, ReadOnlyWhenAskedAndNeverWritten)
{
  auto dir = scratch_dir();
  auto f = write_file(dir / "pre.txt", "0 init 1\n1 init 1\n0 send 1 10\n1 recv 0 10\n");
  Action a;
  auto detected = TraceSet::open(f, std::nullopt); // dialect 1 ('send' with 2 arguments): bytes
  auto r0 = detected->reader(0);
  ASSERT_TRUE(r0->next(a) && r0->next(a));
  EXPECT_EQ(a.dialect, Dialect::Thesis);
  EXPECT_EQ(a.bytes, 10.0);
  auto asked = TraceSet::open(f, std::nullopt, Dialect::Pre320); // counts of double, as init's argument says
  auto p0 = asked->reader(0);
  ASSERT_TRUE(p0->next(a) && p0->next(a));
  EXPECT_EQ(a.dialect, Dialect::Pre320);
  EXPECT_EQ(a.bytes, 80.0);
  EXPECT_NE(trace_error([&] { format_action(a, Dialect::Pre320); })
                .find("pre.txt:3: error: cannot write 'send' in SimGrid <= 3.19's format (pre-3.20)"),
            std::string::npos);
  EXPECT_EQ(format_action(a, Dialect::SimGrid), "0 send 1 0 80 6");
}

} // namespace
} // namespace tit::trace

// Dialect 1 (thesis) lines: bytes, no tags, `wait` completing the last Irecv.
#include "trace/reader.hpp"

#include "trace_lines_fixture.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tit::trace {
namespace {

using detail::ActionParser;
using detail::DialectGuess;

/// Lines of a 4-rank dialect-1 file "th.txt" whose dialect line 1 ('Isend') decided.
class ThesisLines : public testing::LinesFixture {
protected:
  ThesisLines() : LinesFixture("th.txt", detail::DialectGuess{Dialect::Thesis, 1, "Isend"}) {}
};

TEST_F(ThesisLines, InitFinalizeBarrierCommSizeCompute)
{
  EXPECT_EQ(parse("0 init").kind, Kind::Init);
  EXPECT_EQ(action_.dialect, Dialect::Thesis);
  EXPECT_EQ(parse("0 comm_size 4").kind, Kind::CommSize);
  EXPECT_EQ(action_.amount, 4.0);
  EXPECT_EQ(parse("0 compute 1e6").kind, Kind::Compute);
  EXPECT_EQ(action_.amount, 1e6);
  EXPECT_EQ(parse("0 barrier").kind, Kind::Barrier);
  EXPECT_EQ(parse("0 finalize").kind, Kind::Finalize);
}

TEST_F(ThesisLines, SendsInBytes)
{
  const Action& a = parse("0 send 1 1000");
  EXPECT_EQ(a.kind, Kind::Send);
  EXPECT_EQ(a.partner, 1);
  EXPECT_EQ(a.bytes, 1000.0);
  EXPECT_EQ(a.tag, 0);
  EXPECT_EQ(parse("0 Isend 2 1e3").kind, Kind::Isend);
  EXPECT_EQ(a.partner, 2);
  EXPECT_EQ(a.bytes, 1000.0);
  EXPECT_EQ(parse("0 send 3 10 0").bytes, 80.0); // a datatype id makes it a count
  EXPECT_EQ(parse("0 Isend 3 10 3").bytes, 20.0);
  EXPECT_EQ(parse("0 send 1 99.9").bytes, 99.0);
}

TEST_F(ThesisLines, ReceivesWithAndWithoutSize)
{
  const Action& a = parse("1 recv 0");
  EXPECT_EQ(a.kind, Kind::Recv);
  EXPECT_EQ(a.partner, 0);
  EXPECT_EQ(a.bytes, kUnknownSize);
  EXPECT_EQ(a.tag, 0);
  EXPECT_EQ(parse("1 recv 0 512").bytes, 512.0);
  EXPECT_EQ(parse("1 recv 0 16 1").bytes, 64.0);
  EXPECT_EQ(parse("1 recv 0 -1").bytes, kUnknownSize);
  EXPECT_EQ(parse("1 Irecv 2 64").kind, Kind::Irecv);
  EXPECT_EQ(a.partner, 2);
  EXPECT_EQ(a.bytes, 64.0);
  EXPECT_EQ(parse("1 Irecv 2 8 6").bytes, 8.0);
  EXPECT_EQ(parse("1 recv -333 8").partner, kAnySource);
}

TEST_F(ThesisLines, WaitCompletesTheLastIrecv)
{
  const Action& a = parse("1 wait");
  EXPECT_EQ(a.kind, Kind::Wait);
  EXPECT_TRUE(a.wait_last_irecv);
  EXPECT_EQ(a.src, -1);
  parse("1 compute 1");
  EXPECT_FALSE(a.wait_last_irecv);
  EXPECT_EQ(parse("1 waitAll").kind, Kind::WaitAll);
  EXPECT_FALSE(a.wait_last_irecv);
}

TEST_F(ThesisLines, Collectives)
{
  EXPECT_EQ(parse("0 bcast 100").kind, Kind::Bcast);
  EXPECT_EQ(parse("0 bcast 100 2 0").kind, Kind::Bcast);
  EXPECT_EQ(args(), (std::vector<std::string>{"100", "2", "0"}));
  EXPECT_EQ(parse("0 reduce 100 50 1").kind, Kind::Reduce);
  EXPECT_EQ(parse("0 allReduce 100 50").kind, Kind::AllReduce);
  EXPECT_EQ(parse("0 reduceScatter 1 2 3 4 50").kind, Kind::ReduceScatter);
  EXPECT_EQ(parse("0 allToAll 100 100").kind, Kind::AllToAll);
  EXPECT_EQ(parse("0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7 9").kind, Kind::AllToAllV);
  EXPECT_EQ(action_.args.size(), 18u);
  EXPECT_EQ(parse("0 gather 10 40 0").kind, Kind::Gather);
  EXPECT_EQ(parse("0 allGatherV 10 1 2 3 4 0 1 3 6").kind, Kind::AllGatherV);
  EXPECT_EQ(args().front(), "10");
}

TEST_F(ThesisLines, InitArgumentsDoNotChangeSizes)
{
  parse("0 init 1");
  EXPECT_EQ(parse("0 send 1 10").bytes, 10.0); // bytes stay bytes in dialect 1
}

TEST_F(ThesisLines, Errors)
{
  EXPECT_EQ(error("0 Isend 1"), "th.txt:1: error: 'Isend' needs <dst> <bytes> [datatype], got 1 field\n  0 Isend 1");
  EXPECT_NE(error("0 Irecv 1").find("'Irecv' needs <src> <bytes> [datatype], got 1 field"), std::string::npos);
  EXPECT_NE(error("0 recv").find("'recv' needs <src> [<bytes>] [datatype], got 0 fields"), std::string::npos);
  EXPECT_NE(error("0 comm_size").find("'comm_size' needs <n>, got 0 fields"), std::string::npos);
  EXPECT_NE(error("0 compute -1").find("'compute' amount '-1' is negative"), std::string::npos);
  EXPECT_NE(error("0 send 1 -5").find("'send' size '-5' is negative"), std::string::npos);
  EXPECT_NE(error("0 send 1 5 7x").find("'send' datatype '7x' is not an integer"), std::string::npos);
  EXPECT_NE(error("0 send 1 5 61").find("'send' datatype '61' is not a known datatype id"), std::string::npos);
  EXPECT_NE(error("0 Isend 9 5").find("'Isend' destination 9 is not a rank of this trace set (ranks 0..3)"),
            std::string::npos);
  std::string e = error("0 sned 1 5");
  EXPECT_NE(e.find("unknown action 'sned'; known actions: init, finalize, comm_size, compute, send, Isend, recv, "
                   "Irecv, "
                   "wait, waitAll, barrier, bcast, reduce, allReduce, reduceScatter, allToAll, allToAllV, gather, "
                   "allGatherV\n"),
            std::string::npos)
      << e;
}

TEST_F(ThesisLines, DialectTwoFormsAreRefused)
{
  std::string e = error("0 isend 1 0 10");
  EXPECT_EQ(e, "th.txt:1: error: 'isend' is an action of dialect 2 (SimGrid), but line 1 ('Isend') shows that this "
               "file is in dialect 1 (thesis); one file cannot mix the two dialects\n  0 isend 1 0 10");
  EXPECT_NE(error("0 wait 0 1 2").find("'wait' takes no arguments, got 3 fields (the dialect 2 (SimGrid) form, but "
                                       "line 1 ('Isend') shows that this file is in dialect 1 (thesis))"),
            std::string::npos);
  EXPECT_NE(error("0 send 1 0 10 1").find("(the dialect 2 (SimGrid) form"), std::string::npos);
  EXPECT_NE(error("0 recv 1 0 10 1").find("(the dialect 2 (SimGrid) form"), std::string::npos);
  EXPECT_NE(error("0 sendRecv 1 1 1 1").find("'sendRecv' is an action of dialect 2"), std::string::npos);
  EXPECT_NE(error("0 sleep 1").find("'sleep' is an action of dialect 2"), std::string::npos);
}

} // namespace
} // namespace tit::trace

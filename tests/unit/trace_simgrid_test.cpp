// Dialect 2 (SimGrid) lines: every action's argument forms, datatypes, numbers and their errors.
#include "trace/reader.hpp"

#include "trace_lines_fixture.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tit::trace {
namespace {

using detail::ActionParser;
using detail::DialectGuess;

/// Lines of one rank of a 4-rank set in file "t.txt".
class SimGridLines : public testing::LinesFixture {
protected:
  SimGridLines() : LinesFixture("t.txt", detail::DialectGuess{Dialect::SimGrid, 0, ""}) {}
};

TEST_F(SimGridLines, CommonFields)
{
  const Action& a = parse("2 compute 1000");
  EXPECT_EQ(a.kind, Kind::Compute);
  EXPECT_EQ(a.dialect, Dialect::SimGrid);
  EXPECT_EQ(a.rank, 2);
  EXPECT_EQ(a.name, "compute");
  EXPECT_EQ(a.text, "2 compute 1000");
  EXPECT_EQ(a.line, 1u);
  ASSERT_NE(a.file, nullptr);
  EXPECT_EQ(*a.file, "t.txt");
  EXPECT_EQ(a.amount, 1000.0);
  EXPECT_EQ(args(), (std::vector<std::string>{"1000"}));
}

TEST_F(SimGridLines, InitFinalizeBarrierCommSize)
{
  EXPECT_EQ(parse("0 init").kind, Kind::Init);
  EXPECT_EQ(parse("0 init 1").kind, Kind::Init);
  EXPECT_EQ(parse("0 finalize").kind, Kind::Finalize);
  EXPECT_EQ(parse("0 barrier").kind, Kind::Barrier);
  EXPECT_EQ(parse("0 comm_size").kind, Kind::CommSize);
  EXPECT_EQ(action_.amount, 0.0);
  EXPECT_EQ(parse("0 comm_size 4").kind, Kind::CommSize);
  EXPECT_EQ(action_.amount, 4.0);
  EXPECT_EQ(parse("0 comm_split").kind, Kind::CommSplit); // SimGrid's: no arguments, no effect
  EXPECT_FALSE(action_.comm_args);
  EXPECT_EQ(parse("0 comm_dup").kind, Kind::CommDup);
  EXPECT_TRUE(action_.args.empty());
  EXPECT_FALSE(action_.comm_args);
}

// tit-replay's tracer extension: communicator creation with its arguments, and comm=<h> on other lines.
TEST_F(SimGridLines, Communicators)
{
  const Action& a = parse("1 comm_split 0 3 7 1 2");
  EXPECT_EQ(a.kind, Kind::CommSplit);
  EXPECT_TRUE(a.comm_args);
  EXPECT_EQ(a.comm, 0);
  EXPECT_EQ(a.color, 3);
  EXPECT_EQ(a.key, 7);
  EXPECT_EQ(a.new_comm, 1);
  // The size (fifth argument) lets the collectives of the new communicator be read.
  EXPECT_EQ(parse("1 alltoallv 2 1 1 2 1 1 comm=1").kind, Kind::AllToAllV);
  EXPECT_EQ(action_.comm, 1);
  EXPECT_EQ(action_.send_counts.size(), 2u);
  EXPECT_EQ(parse("1 bcast 10 1 comm=1").root, 1);
  EXPECT_EQ(parse("1 send 3 5 10 comm=1").partner, 3); // partners stay world ranks
  EXPECT_EQ(action_.comm, 1);
  EXPECT_EQ(parse("1 comm_dup 1 2").new_comm, 2);
  EXPECT_EQ(parse("1 gatherv 1 1 1 0 comm=2").recv_counts.size(), 2u); // a duplicate has its parent's size
  EXPECT_EQ(parse("1 comm_create 0 3 3 0 2 3").new_comm, 3);
  EXPECT_EQ(action_.group, (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(parse("1 comm_create 0 -1 1 0").new_comm, -1);
  EXPECT_EQ(parse("1 comm_split 0 -1 0 -1").new_comm, -1);
  EXPECT_EQ(parse("1 comm_split 0 1 0 4").new_comm, 4); // size unknown until declared
  EXPECT_EQ(parse("1 comm_size 3 comm=4").amount, 3.0);
  EXPECT_EQ(parse("1 allgatherv 1 1 1 1 comm=4").recv_counts.size(), 3u);
  EXPECT_EQ(parse("1 comm_free 4").kind, Kind::CommFree);
  EXPECT_EQ(parse("1 barrier").comm, 0); // the token does not stick
}

TEST_F(SimGridLines, CommunicatorErrors)
{
  EXPECT_NE(error("1 barrier comm=x").find("communicator 'comm=x' is not a communicator handle"), std::string::npos);
  EXPECT_NE(error("1 barrier comm=-2").find("is not a communicator handle"), std::string::npos);
  EXPECT_NE(error("1 comm_split 5 1 0 1").find("parent communicator 5 names no communicator this rank created"),
            std::string::npos);
  EXPECT_NE(error("1 comm_split 0 1 0").find("comm_split"), std::string::npos);
  EXPECT_NE(error("1 comm_split 0 -1 0 2").find("exactly when the color is MPI_UNDEFINED"), std::string::npos);
  EXPECT_NE(error("1 comm_dup 0 0").find("new communicator 0 is already in use"), std::string::npos);
  EXPECT_NE(error("1 comm_create 0 1 2 0").find("announces 2 members but lists 1"), std::string::npos);
  EXPECT_NE(error("1 comm_create 0 1 2 0 4").find("member 4 is not a rank of the parent communicator (0..3)"),
            std::string::npos);
  EXPECT_NE(error("1 comm_create 0 1 2 1 1").find("lists member 1 twice"), std::string::npos);
  EXPECT_NE(error("1 comm_free 0").find("cannot free MPI_COMM_WORLD"), std::string::npos);
  EXPECT_NE(error("1 comm_split 0 1 0 1 comm=1").find("not with comm="), std::string::npos);
  parse("1 comm_split 0 1 0 1");
  std::string e = error("1 alltoallv 2 1 1 2 1 1 comm=1");
  EXPECT_NE(e.find("t.txt:"), std::string::npos);
  EXPECT_NE(e.find("needs the size of communicator 1"), std::string::npos) << e;
  parse("1 comm_size 2 comm=1");
  EXPECT_NE(error("1 bcast 10 2 comm=1").find("root 2 is not a rank of the communicator (0..1)"), std::string::npos);
}

TEST_F(SimGridLines, ComputeSleepLocation)
{
  EXPECT_EQ(parse("0 compute 1.5e9").amount, 1.5e9);
  EXPECT_EQ(parse("0 compute 0").amount, 0.0);
  EXPECT_EQ(parse("0 sleep 0.25").kind, Kind::Sleep);
  EXPECT_EQ(action_.amount, 0.25);
  EXPECT_EQ(parse("0 location main.c 42").kind, Kind::Location);
  EXPECT_EQ(args(), (std::vector<std::string>{"main.c", "42"}));
}

TEST_F(SimGridLines, PointToPoint)
{
  const Action& a = parse("0 send 1 7 100");
  EXPECT_EQ(a.kind, Kind::Send);
  EXPECT_EQ(a.partner, 1);
  EXPECT_EQ(a.tag, 7);
  EXPECT_EQ(a.bytes, 100.0); // default datatype: byte, as init had no argument
  EXPECT_EQ(parse("0 isend 3 0 10 1").kind, Kind::Isend);
  EXPECT_EQ(a.bytes, 40.0);
  EXPECT_EQ(parse("0 recv 2 5 10 0").kind, Kind::Recv);
  EXPECT_EQ(a.partner, 2);
  EXPECT_EQ(a.tag, 5);
  EXPECT_EQ(a.bytes, 80.0);
  EXPECT_EQ(parse("0 irecv 1 2 3").kind, Kind::Irecv);
  EXPECT_EQ(a.tag, 2);
  EXPECT_EQ(a.bytes, 3.0);
}

TEST_F(SimGridLines, NegativeTags)
{
  EXPECT_NE(error("0 irecv 1 -1 3").find("'irecv' tag '-1' is negative (a message's tag must be >= 0)"),
            std::string::npos);
  EXPECT_NE(error("0 send 1 -7 3").find("'send' tag '-7' is negative"), std::string::npos);
  EXPECT_NE(error("0 irecv 1 -444 3").find("'irecv' tag -444 is MPI_ANY_TAG: receives from any tag are not supported"),
            std::string::npos);
  EXPECT_EQ(parse("0 wait 1 0 -3335").tag, -3335); // a nonblocking collective's request, as SimGrid writes it
}

TEST_F(SimGridLines, ReceiveFromAnySourceAndOfUnknownSize)
{
  const Action& a = parse("0 recv -333 0 10");
  EXPECT_EQ(a.partner, kAnySource);
  EXPECT_EQ(a.bytes, 10.0);
  parse("0 irecv 1 0 -1 0");
  EXPECT_EQ(a.bytes, kUnknownSize);
  parse("0 recv 1 0 -5");
  EXPECT_EQ(a.bytes, kUnknownSize);
  parse("0 recv 1 0 -0.5"); // truncated to 0: a known, empty size
  EXPECT_EQ(a.bytes, 0.0);
}

TEST_F(SimGridLines, TypedFieldsAreResetBetweenLines)
{
  parse("0 sendRecv 1 2 3 1");
  parse("0 barrier");
  EXPECT_EQ(action_.partner, -1);
  EXPECT_EQ(action_.partner2, -1);
  EXPECT_EQ(action_.bytes, 0.0);
  EXPECT_EQ(action_.bytes2, 0.0);
  parse("0 wait 0 1 2");
  parse("0 compute 5");
  EXPECT_EQ(action_.src, -1);
  EXPECT_EQ(action_.dst, -1);
  EXPECT_EQ(action_.tag, 0);
  EXPECT_FALSE(action_.wait_last_irecv);
}

TEST_F(SimGridLines, WaitTestWaitall)
{
  const Action& a = parse("1 wait 0 1 12");
  EXPECT_EQ(a.kind, Kind::Wait);
  EXPECT_EQ(a.src, 0);
  EXPECT_EQ(a.dst, 1);
  EXPECT_EQ(a.tag, 12);
  EXPECT_FALSE(a.wait_last_irecv);
  EXPECT_EQ(parse("1 test 3 1 0").kind, Kind::Test);
  EXPECT_EQ(a.src, 3);
  EXPECT_EQ(parse("1 waitall").kind, Kind::WaitAll);
  EXPECT_EQ(parse("1 waitall 4").kind, Kind::WaitAll);
}

TEST_F(SimGridLines, SendRecv)
{
  const Action& a = parse("0 sendRecv 10 1 20 3");
  EXPECT_EQ(a.kind, Kind::SendRecv);
  EXPECT_EQ(a.bytes, 10.0);
  EXPECT_EQ(a.partner, 1);
  EXPECT_EQ(a.bytes2, 20.0);
  EXPECT_EQ(a.partner2, 3);
  EXPECT_EQ(a.tag, 0);
  parse("0 sendRecv 10 1 20 3 0 1");
  EXPECT_EQ(a.bytes, 80.0);
  EXPECT_EQ(a.bytes2, 80.0);
}

TEST_F(SimGridLines, InitWithAnArgumentMakesDoubleTheDefault)
{
  EXPECT_EQ(parse("0 send 1 0 10").bytes, 10.0);
  parse("0 init 1");
  EXPECT_EQ(parse("0 send 1 0 10").bytes, 80.0);
  EXPECT_EQ(parse("0 recv 1 0 10").bytes, 80.0);
  EXPECT_EQ(parse("0 send 1 0 10 2").bytes, 10.0); // an explicit datatype wins
  parse("0 sendRecv 1 1 2 1");
  EXPECT_EQ(action_.bytes, 8.0);
  EXPECT_EQ(action_.bytes2, 16.0);
}

TEST_F(SimGridLines, EveryDatatypeId)
{
  for (int id = -1; id <= 59; ++id) {
    std::string line = "0 send 1 0 3 " + std::to_string(id);
    EXPECT_EQ(parse(line).bytes, 3.0 * datatype_size(id)) << line;
  }
  EXPECT_EQ(parse("0 send 1 0 3 14").bytes, 48.0); // long double
  EXPECT_EQ(parse("0 send 1 0 3 -1").bytes, 0.0);  // derived
}

TEST_F(SimGridLines, CountsAreTruncatedTowardZero)
{
  EXPECT_EQ(parse("0 send 1 0 2.9").bytes, 2.0);
  EXPECT_EQ(parse("0 send 1 0 2.9 1").bytes, 8.0);
  EXPECT_EQ(parse("0 send 1 0 5e4").bytes, 5e4);
  EXPECT_EQ(parse("0 send 1 0 1e+07 0").bytes, 8e7);
  EXPECT_EQ(parse("0 send 1 0 1.23456e+06").bytes, 1234560.0);
  EXPECT_EQ(parse("0 recv 1 0 -2.5").bytes, kUnknownSize);
}

TEST_F(SimGridLines, Collectives)
{
  struct Case {
    std::string line;
    Kind kind;
  };
  std::vector<Case> cases = {
      {"0 bcast 100 1 0", Kind::Bcast},           {"0 reduce 100 5 0 1", Kind::Reduce},
      {"0 allreduce 100 5", Kind::AllReduce},      {"0 alltoall 10 10 1 1", Kind::AllToAll},
      {"0 alltoallv 40 1 2 3 4 40 4 3 2 1", Kind::AllToAllV},
      {"0 gather 10 40 2", Kind::Gather},          {"0 scatter 40 10", Kind::Scatter},
      {"0 allgather 10 40", Kind::AllGather},      {"0 gatherv 10 1 2 3 4 0", Kind::GatherV},
      {"0 scatterv 1 2 3 4 10", Kind::ScatterV},   {"0 allgatherv 10 1 2 3 4 0 0", Kind::AllGatherV},
      {"0 reducescatter 1 2 3 4 50", Kind::ReduceScatter},
      {"0 scan 10 5", Kind::Scan},                 {"0 exscan 10 5 0", Kind::Exscan},
  };
  for (const Case& c : cases) {
    const Action& a = parse(c.line);
    EXPECT_EQ(a.kind, c.kind) << c.line;
    std::string joined;
    for (std::string_view arg : a.args)
      joined += " " + std::string(arg);
    EXPECT_EQ(c.line.substr(c.line.find(' ', 2)), joined) << "raw arguments of " << c.line;
  }
}

TEST_F(SimGridLines, NotYetReplayedKinds)
{
  EXPECT_EQ(parse("0 Ssend 1 0 10 1").kind, Kind::Ssend);
  EXPECT_EQ(args(), (std::vector<std::string>{"1", "0", "10", "1"}));
  EXPECT_EQ(parse("0 ISsend 1 0 10").kind, Kind::Issend);
  EXPECT_EQ(parse("0 bsend 1 0 10").kind, Kind::Bsend);
  EXPECT_EQ(parse("0 ibsend 1 0 10").kind, Kind::Ibsend);
  EXPECT_EQ(parse("0 Start 1 0 10").kind, Kind::Start);
  EXPECT_EQ(parse("0 Startall").kind, Kind::Startall);
  EXPECT_EQ(parse("0 waitAny 3").kind, Kind::WaitAny);
  EXPECT_EQ(parse("0 testany").kind, Kind::TestAny);
  EXPECT_EQ(parse("0 testall").kind, Kind::TestAll);
  EXPECT_EQ(parse("0 testsome").kind, Kind::TestSome);
}

TEST_F(SimGridLines, NonblockingCollectivesTakeTheirBlockingFormsArguments)
{
  const Action& b = parse("0 ibcast 10 1 1");
  EXPECT_EQ(b.kind, Kind::NonBlockingCollective);
  EXPECT_EQ(b.blocking, Kind::Bcast);
  EXPECT_EQ(b.bytes, 40);
  EXPECT_EQ(b.root, 1);
  EXPECT_EQ(parse("0 ibarrier").blocking, Kind::Barrier);
  EXPECT_EQ(parse("0 iallreduce 100 0 0").bytes, 800);
  const Action& rs = parse("0 ireducescatter 1 2 3 4 0 1");
  EXPECT_EQ(rs.blocking, Kind::ReduceScatter);
  EXPECT_EQ(rs.recv_counts, (std::vector<double>{4, 8, 12, 16}));
  for (std::string name : {"ireduce", "ialltoall", "igather", "iscatter", "iallgather", "iscan", "iexscan"})
    EXPECT_EQ(parse("0 " + name + " 1 2").kind, Kind::NonBlockingCollective) << name;
  EXPECT_EQ(parse("0 compute 1").blocking, Kind::Init); // reset for each line
  EXPECT_NE(error("0 ibarrier 1 2").find("'ibarrier' takes no arguments"), std::string::npos);
}

// ---- errors: "t.txt:<line>: error: <what>\n  <line>" ------------------------------------------------

TEST_F(SimGridLines, ErrorShape)
{
  EXPECT_EQ(error("0 isend 1 2"),
            "t.txt:1: error: 'isend' needs <dst> <tag> <count> [dt], got 2 fields\n  0 isend 1 2");
  EXPECT_EQ(error("0 compute 1e9x"), "t.txt:2: error: 'compute' amount '1e9x' is not a number\n  0 compute 1e9x");
  // `send` with 2 arguments is dialect 1's form: the message says so
  EXPECT_EQ(error("0 send 1 2"), "t.txt:3: error: 'send' needs <dst> <tag> <count> [dt], got 2 fields (the dialect 1 "
                                 "(thesis) form, but this file is in dialect 2 (SimGrid))\n  0 send 1 2");
}

TEST_F(SimGridLines, ArgumentCountErrors)
{
  EXPECT_NE(error("0 compute").find("'compute' needs <flops>, got 0 fields"), std::string::npos);
  EXPECT_NE(error("0 compute 1 2").find("'compute' needs <flops>, got 2 fields"), std::string::npos);
  EXPECT_NE(error("0 recv 1 2").find("'recv' needs <src> <tag> <count> [dt], got 2 fields"), std::string::npos);
  EXPECT_NE(error("0 isend 1 2 3 4 5").find("'isend' needs <dst> <tag> <count> [dt], got 5 fields"),
            std::string::npos);
  EXPECT_NE(error("0 wait 1 2").find("'wait' needs <src> <dst> <tag>, got 2 fields"), std::string::npos);
  EXPECT_NE(error("0 test").find("'test' needs <src> <dst> <tag>, got 0 fields"), std::string::npos);
  EXPECT_NE(error("0 sendRecv 1 2 3 1 0")
                .find("'sendRecv' needs <sendcount> <dst> <recvcount> <src> [dt1 dt2], got 5 fields"),
            std::string::npos);
  EXPECT_NE(error("0 barrier 1").find("'barrier' takes no arguments, got 1 field"), std::string::npos);
  EXPECT_NE(error("0 finalize x y").find("'finalize' takes no arguments, got 2 fields"), std::string::npos);
  EXPECT_NE(error("0 waitall 1 2").find("'waitall' needs [count], got 2 fields"), std::string::npos);
  EXPECT_NE(error("0 location main.c").find("'location' needs <file> <line>, got 1 field"), std::string::npos);
  EXPECT_NE(error("0 comm_size 1 2").find("'comm_size' needs [n], got 2 fields"), std::string::npos);
}

TEST_F(SimGridLines, NumberErrors)
{
  EXPECT_NE(error("0 compute -5").find("t.txt:1: error: 'compute' amount '-5' is negative"), std::string::npos);
  EXPECT_NE(error("0 sleep abc").find("'sleep' duration 'abc' is not a number"), std::string::npos);
  EXPECT_NE(error("0 compute inf").find("'compute' amount 'inf' is not a number"), std::string::npos);
  EXPECT_NE(error("0 send 1.5 0 10").find("'send' destination '1.5' is not an integer"), std::string::npos);
  EXPECT_NE(error("0 send 1 x 10").find("'send' tag 'x' is not an integer"), std::string::npos);
  EXPECT_NE(error("0 send 1 0 10k").find("'send' count '10k' is not a number"), std::string::npos);
  EXPECT_NE(error("0 send 1 0 1e30").find("'send' count '1e30' is out of range"), std::string::npos);
  EXPECT_NE(error("0 send 1 0 -10").find("'send' count '-10' is negative"), std::string::npos);
  EXPECT_NE(error("0 sendRecv -1 1 2 1").find("'sendRecv' send count '-1' is negative"), std::string::npos);
  EXPECT_NE(error("0 wait 0 x 1").find("'wait' destination 'x' is not an integer"), std::string::npos);
  EXPECT_NE(error("0 location main.c 4x").find("'location' line number '4x' is not an integer"), std::string::npos);
  EXPECT_NE(error("0 comm_size -2").find("'comm_size' size '-2' is negative"), std::string::npos);
}

TEST_F(SimGridLines, DatatypeErrors)
{
  EXPECT_NE(error("0 send 1 0 10 60").find("t.txt:1: error: 'send' datatype '60' is not a known datatype id"),
            std::string::npos);
  EXPECT_NE(error("0 recv 1 0 10 -2").find("'recv' datatype '-2' is not a known datatype id"), std::string::npos);
  EXPECT_NE(error("0 recv 1 0 -1 99").find("'recv' datatype '99' is not a known datatype id"), std::string::npos);
  EXPECT_NE(error("0 send 1 0 10 MPI_INT").find("'send' datatype 'MPI_INT' is not an integer"), std::string::npos);
  EXPECT_NE(error("0 sendRecv 1 1 1 1 0 77").find("'sendRecv' datatype '77' is not a known datatype id"),
            std::string::npos);
}

TEST_F(SimGridLines, RankErrors)
{
  EXPECT_EQ(error("x compute 1"), "t.txt:1: error: rank 'x' is not an integer\n  x compute 1");
  EXPECT_NE(error("1.0 compute 1").find("rank '1.0' is not an integer"), std::string::npos);
  EXPECT_NE(error("-1 compute 1").find("rank -1 is negative"), std::string::npos);
  EXPECT_NE(error("3").find("t.txt:4: error: the line holds a rank but no action"), std::string::npos);
  EXPECT_NE(error("0 send 4 0 10").find("'send' destination 4 is not a rank of this trace set (ranks 0..3)"),
            std::string::npos);
  EXPECT_NE(error("0 send -333 0 10").find("'send' destination -333 is not a rank"), std::string::npos);
  EXPECT_NE(error("0 recv -2 0 10").find("'recv' source -2 is not a rank"), std::string::npos);
  EXPECT_NE(error("0 sendRecv 1 7 1 1").find("'sendRecv' destination 7 is not a rank"), std::string::npos);
}

TEST_F(SimGridLines, UnknownActionListsTheDialectsNames)
{
  std::string e = error("0 sned 1 0 10");
  EXPECT_EQ(e.rfind("t.txt:1: error: unknown action 'sned'; known actions: init, finalize, comm_size, ", 0), 0u) << e;
  EXPECT_NE(e.find(", sendRecv, "), std::string::npos) << e;
  EXPECT_NE(e.find(", iexscan"), std::string::npos) << e;
  EXPECT_EQ(e.find("Isend"), std::string::npos) << e; // dialect 1's names are not offered
  EXPECT_NE(e.find("\n  0 sned 1 0 10"), std::string::npos) << e;
  EXPECT_NE(error("0 WaitAll").find("did you mean 'waitall'?"), std::string::npos);
}

TEST_F(SimGridLines, ThesisNamesAreRefused)
{
  std::string e = error("0 Isend 1 10");
  EXPECT_NE(e.find("t.txt:1: error: 'Isend' is an action of dialect 1 (thesis), "
                   "but this file is in dialect 2 (SimGrid)"),
            std::string::npos)
      << e;
  EXPECT_NE(error("0 allReduce 10 10").find("'allReduce' is an action of dialect 1 (thesis)"), std::string::npos);
}

} // namespace
} // namespace tit::trace

// Dialect 2 (SimGrid) collectives: every argument form, sizes in bytes, roots, vectors and their errors.
#include "trace/reader.hpp"

#include "trace_lines_fixture.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace tit::trace {
namespace {

using Sizes = std::vector<double>;

/// Lines of one rank of a 4-rank set in file "t.txt": n = 4.
class SimGridCollectives : public testing::LinesFixture {
protected:
  SimGridCollectives() : LinesFixture("t.txt", detail::DialectGuess{Dialect::SimGrid, 0, ""}) {}
};

/// One rank's lines in a SimGrid-dialect set of `ranks` ranks (0: rank count unknown).
struct RanksParser : testing::LineParser {
  explicit RanksParser(int ranks) : LineParser("n.txt", detail::DialectGuess{Dialect::SimGrid, 0, ""}, ranks) {}
};

// ---- rooted and fixed-size collectives --------------------------------------------------------------

TEST_F(SimGridCollectives, Bcast)
{
  const Action& a = parse("0 bcast 100");
  EXPECT_EQ(a.kind, Kind::Bcast);
  EXPECT_EQ(a.bytes, 100.0); // default datatype: byte
  EXPECT_EQ(a.root, 0);
  parse("0 bcast 100 2");
  EXPECT_EQ(a.bytes, 100.0);
  EXPECT_EQ(a.root, 2);
  parse("0 bcast 100 3 1");
  EXPECT_EQ(a.bytes, 400.0);
  EXPECT_EQ(a.root, 3);
  EXPECT_EQ(parse("0 bcast 7 0 -1").bytes, 0.0); // derived datatype
  EXPECT_EQ(args(), (std::vector<std::string>{"7", "0", "-1"}));
}

TEST_F(SimGridCollectives, Reduce)
{
  const Action& a = parse("0 reduce 100 5e3");
  EXPECT_EQ(a.kind, Kind::Reduce);
  EXPECT_EQ(a.bytes, 100.0);
  EXPECT_EQ(a.amount, 5000.0);
  EXPECT_EQ(a.root, 0);
  parse("0 reduce 100 2.5 2");
  EXPECT_EQ(a.amount, 2.5); // flops are not truncated
  EXPECT_EQ(a.root, 2);
  parse("0 reduce 100 0 1 5");
  EXPECT_EQ(a.bytes, 400.0);
  EXPECT_EQ(a.amount, 0.0);
  EXPECT_EQ(a.root, 1);
}

TEST_F(SimGridCollectives, AllreduceScanExscan)
{
  struct Case {
    std::string name;
    Kind kind;
  };
  for (const Case& c : {Case{"allreduce", Kind::AllReduce}, Case{"scan", Kind::Scan}, Case{"exscan", Kind::Exscan}}) {
    const Action& a = parse("0 " + c.name + " 10 2.5");
    EXPECT_EQ(a.kind, c.kind) << c.name;
    EXPECT_EQ(a.bytes, 10.0) << c.name;
    EXPECT_EQ(a.amount, 2.5) << c.name;
    EXPECT_EQ(a.root, 0) << c.name;
    parse("0 " + c.name + " 10 7 3");
    EXPECT_EQ(a.bytes, 20.0) << c.name;
    EXPECT_EQ(a.amount, 7.0) << c.name;
  }
}

TEST_F(SimGridCollectives, AlltoallAndAllgather)
{
  const Action& a = parse("0 alltoall 10 20");
  EXPECT_EQ(a.kind, Kind::AllToAll);
  EXPECT_EQ(a.bytes, 10.0);
  EXPECT_EQ(a.bytes2, 20.0);
  parse("0 alltoall 10 20 1 3");
  EXPECT_EQ(a.bytes, 40.0);
  EXPECT_EQ(a.bytes2, 40.0);
  EXPECT_EQ(parse("0 allgather 3 12").kind, Kind::AllGather);
  EXPECT_EQ(a.bytes, 3.0);
  EXPECT_EQ(a.bytes2, 12.0);
  parse("0 allgather 3 12 0 2");
  EXPECT_EQ(a.bytes, 24.0);
  EXPECT_EQ(a.bytes2, 12.0);
}

TEST_F(SimGridCollectives, GatherAndScatter)
{
  for (std::string name : {"gather", "scatter"}) {
    const Action& a = parse("0 " + name + " 10 40");
    EXPECT_EQ(a.kind, name == "gather" ? Kind::Gather : Kind::Scatter);
    EXPECT_EQ(a.bytes, 10.0) << name;
    EXPECT_EQ(a.bytes2, 40.0) << name;
    EXPECT_EQ(a.root, 0) << name;
    EXPECT_EQ(parse("0 " + name + " 10 40 3").root, 3) << name;
    parse("0 " + name + " 10 40 2 0 1");
    EXPECT_EQ(a.bytes, 80.0) << name;
    EXPECT_EQ(a.bytes2, 160.0) << name;
    EXPECT_EQ(a.root, 2) << name;
  }
}

TEST_F(SimGridCollectives, InitWithAnArgumentMakesDoubleTheDefault)
{
  parse("0 init 1");
  EXPECT_EQ(parse("0 bcast 10").bytes, 80.0);
  EXPECT_EQ(parse("0 bcast 10 0 2").bytes, 10.0); // an explicit datatype wins
  EXPECT_EQ(parse("0 reduce 10 1").bytes, 80.0);
  EXPECT_EQ(parse("0 scan 10 1").bytes, 80.0);
  parse("0 gather 1 2 0");
  EXPECT_EQ(action_.bytes, 8.0);
  EXPECT_EQ(action_.bytes2, 16.0);
  EXPECT_EQ(parse("0 alltoallv 10 1 2 3 4 10 4 3 2 1").send_counts, (Sizes{8, 16, 24, 32}));
  EXPECT_EQ(action_.recv_counts, (Sizes{32, 24, 16, 8}));
  EXPECT_EQ(parse("0 reducescatter 1 2 3 4 0").recv_counts, (Sizes{8, 16, 24, 32}));
  EXPECT_EQ(parse("0 allgatherv 1 1 1 1 1").bytes, 8.0);
  EXPECT_EQ(action_.recv_counts, (Sizes{8, 8, 8, 8}));
}

TEST_F(SimGridCollectives, CountsAreTruncatedTowardZero)
{
  EXPECT_EQ(parse("0 bcast 2.9").bytes, 2.0);
  EXPECT_EQ(parse("0 bcast 2.9 0 1").bytes, 8.0);
  EXPECT_EQ(parse("0 reduce 1e+07 1").bytes, 1e7);
  const Action& a = parse("0 bcast -0.5"); // truncated to 0, and not -0
  EXPECT_EQ(a.bytes, 0.0);
  EXPECT_FALSE(std::signbit(a.bytes));
  parse("0 alltoallv 10 1.9 2 3 4 10 4 3 2 1e1");
  EXPECT_EQ(a.send_counts, (Sizes{1, 2, 3, 4}));
  EXPECT_EQ(a.recv_counts, (Sizes{4, 3, 2, 10}));
}

// ---- vector collectives ------------------------------------------------------------------------------

TEST_F(SimGridCollectives, Alltoallv)
{
  const Action& a = parse("0 alltoallv 10 1 2 3 4 10 4 3 2 0");
  EXPECT_EQ(a.kind, Kind::AllToAllV);
  EXPECT_EQ(a.send_counts, (Sizes{1, 2, 3, 4}));
  EXPECT_EQ(a.recv_counts, (Sizes{4, 3, 2, 0}));
  EXPECT_EQ(a.bytes, 0.0);
  parse("0 alltoallv 10 1 2 3 4 10 4 3 2 1 0 1");
  EXPECT_EQ(a.send_counts, (Sizes{8, 16, 24, 32}));
  EXPECT_EQ(a.recv_counts, (Sizes{16, 12, 8, 4}));
  EXPECT_EQ(args().size(), 12u);
}

TEST_F(SimGridCollectives, Gatherv)
{
  const Action& a = parse("0 gatherv 10 1 2 3 4");
  EXPECT_EQ(a.kind, Kind::GatherV);
  EXPECT_EQ(a.bytes, 10.0);
  EXPECT_EQ(a.recv_counts, (Sizes{1, 2, 3, 4}));
  EXPECT_TRUE(a.send_counts.empty());
  EXPECT_EQ(a.root, 0);
  EXPECT_EQ(parse("0 gatherv 10 1 2 3 4 3").root, 3);
  EXPECT_EQ(a.bytes, 10.0);
  parse("0 gatherv 10 1 2 3 4 2 1 0");
  EXPECT_EQ(a.bytes, 40.0);
  EXPECT_EQ(a.recv_counts, (Sizes{8, 16, 24, 32}));
  EXPECT_EQ(a.root, 2);
}

TEST_F(SimGridCollectives, Scatterv)
{
  const Action& a = parse("0 scatterv 1 2 3 4 10");
  EXPECT_EQ(a.kind, Kind::ScatterV);
  EXPECT_EQ(a.send_counts, (Sizes{1, 2, 3, 4}));
  EXPECT_TRUE(a.recv_counts.empty());
  EXPECT_EQ(a.bytes2, 10.0);
  EXPECT_EQ(a.root, 0);
  EXPECT_EQ(parse("0 scatterv 1 2 3 4 10 1").root, 1);
  parse("0 scatterv 1 2 3 4 10 3 0 1");
  EXPECT_EQ(a.send_counts, (Sizes{8, 16, 24, 32}));
  EXPECT_EQ(a.bytes2, 40.0);
  EXPECT_EQ(a.root, 3);
}

TEST_F(SimGridCollectives, Reducescatter)
{
  const Action& a = parse("0 reducescatter 1 2 3 4 50");
  EXPECT_EQ(a.kind, Kind::ReduceScatter);
  EXPECT_EQ(a.recv_counts, (Sizes{1, 2, 3, 4}));
  EXPECT_EQ(a.amount, 50.0);
  parse("0 reducescatter 1 2 3 4 0.5 1");
  EXPECT_EQ(a.recv_counts, (Sizes{4, 8, 12, 16}));
  EXPECT_EQ(a.amount, 0.5);
}

// allgatherv: SimGrid tells the forms apart by the number r of fields after the counts:
// r > n: datatypes and displacements; else r > 2: displacements; else datatypes.
TEST_F(SimGridCollectives, AllgathervForms)
{
  const Action& a = parse("0 allgatherv 10 1 2 3 4");
  EXPECT_EQ(a.kind, Kind::AllGatherV);
  EXPECT_EQ(a.bytes, 10.0);
  EXPECT_EQ(a.recv_counts, (Sizes{1, 2, 3, 4}));
  parse("0 allgatherv 10 1 2 3 4 1 0"); // dt1 dt2
  EXPECT_EQ(a.bytes, 40.0);
  EXPECT_EQ(a.recv_counts, (Sizes{8, 16, 24, 32}));
  parse("0 allgatherv 10 1 2 3 4 0 1 3 6"); // displs: not datatypes
  EXPECT_EQ(a.bytes, 10.0);
  EXPECT_EQ(a.recv_counts, (Sizes{1, 2, 3, 4}));
  parse("0 allgatherv 10 1 2 3 4 1 0 0 1 3 6"); // dt1 dt2 displs
  EXPECT_EQ(a.bytes, 40.0);
  EXPECT_EQ(a.recv_counts, (Sizes{8, 16, 24, 32}));
}

TEST(SimGridAllgathervSmallCommunicators, TwoRanksReadTwoFieldsAsDatatypes)
{
  RanksParser p(2);
  const Action& a = p.parse("0 allgatherv 10 1 2 0 1"); // as SimGrid: r = 2 = n, datatypes
  EXPECT_EQ(a.bytes, 80.0);
  EXPECT_EQ(a.recv_counts, (Sizes{4, 8}));
  p.parse("0 allgatherv 10 1 2 1 0 0 1"); // r = 4 > n: datatypes and displacements
  EXPECT_EQ(a.bytes, 40.0);
  EXPECT_EQ(a.recv_counts, (Sizes{8, 16}));
  EXPECT_EQ(p.error("0 allgatherv 10 1 2 0 1 5"),
            "n.txt:3: error: 'allgatherv' needs <sendcount> <recvcounts x 2> [dt1 dt2] [displs x 2], got 6 fields\n"
            "  0 allgatherv 10 1 2 0 1 5");
}

TEST(SimGridAllgathervSmallCommunicators, OneRank)
{
  RanksParser p(1);
  const Action& a = p.parse("0 allgatherv 10 5");
  EXPECT_EQ(a.bytes, 10.0);
  EXPECT_EQ(a.recv_counts, (Sizes{5}));
  p.parse("0 allgatherv 10 5 1 0"); // SimGrid asserts here (r = 2 > n asks for displs too): read as datatypes
  EXPECT_EQ(a.bytes, 40.0);
  EXPECT_EQ(a.recv_counts, (Sizes{40}));
  p.parse("0 allgatherv 10 5 1 0 0"); // dt1 dt2 displs
  EXPECT_EQ(a.bytes, 40.0);
  EXPECT_EQ(a.recv_counts, (Sizes{40}));
  EXPECT_NE(p.error("0 allgatherv 10 5 7").find("'allgatherv' needs <sendcount> <recvcounts x 1> [dt1 dt2] "
                                                "[displs x 1], got 3 fields"),
            std::string::npos); // one field: a lone datatype, refused
  EXPECT_NE(p.error("0 bcast 10 1").find("'bcast' root 1 is not a rank of the communicator (0..0)"), std::string::npos);
}

TEST_F(SimGridCollectives, CommSizeDoesNotChangeTheCommunicator)
{
  parse("0 comm_size 2");
  EXPECT_EQ(parse("0 alltoallv 10 1 2 3 4 10 4 3 2 1").send_counts.size(), 4u);
  EXPECT_EQ(parse("0 bcast 1 3").root, 3);
  EXPECT_NE(error("0 reducescatter 1 2 5").find("'reducescatter' needs <recvcounts x 4> <comp> [dt], got 3 fields"),
            std::string::npos);
}

TEST_F(SimGridCollectives, TypedFieldsAreResetAndVectorsKeepTheirCapacity)
{
  const Action& a = parse("0 alltoallv 10 1 2 3 4 10 4 3 2 1");
  const double* send = a.send_counts.data();
  const double* recv = a.recv_counts.data();
  parse("0 gather 10 40 3");
  EXPECT_TRUE(a.send_counts.empty());
  EXPECT_TRUE(a.recv_counts.empty());
  EXPECT_GE(a.send_counts.capacity(), 4u);
  parse("0 barrier");
  EXPECT_EQ(a.root, 0);
  EXPECT_EQ(a.bytes, 0.0);
  EXPECT_EQ(a.bytes2, 0.0);
  parse("0 reduce 10 5 1");
  parse("0 compute 3");
  EXPECT_EQ(a.root, 0);
  EXPECT_EQ(a.amount, 3.0);
  parse("0 alltoallv 10 4 3 2 1 10 1 2 3 4");
  EXPECT_EQ(a.send_counts.data(), send); // no allocation: the same buffers
  EXPECT_EQ(a.recv_counts.data(), recv);
  EXPECT_EQ(a.send_counts, (Sizes{4, 3, 2, 1}));
}

TEST_F(SimGridCollectives, UnknownRankCount)
{
  RanksParser p(0);
  EXPECT_EQ(p.parse("0 bcast 10 7").root, 7); // only >= 0 can be checked
  EXPECT_NE(p.error("0 bcast 10 -1").find("'bcast' root -1 is not a rank of the communicator\n"), std::string::npos);
  EXPECT_NE(p.error("0 alltoallv 1 1 1 1").find("'alltoallv' needs the communicator size, which is unknown"),
            std::string::npos);
}

// ---- errors ---------------------------------------------------------------------------------------------

TEST_F(SimGridCollectives, BadCounts)
{
  EXPECT_EQ(error("0 bcast x"), "t.txt:1: error: 'bcast' count 'x' is not a number\n  0 bcast x");
  EXPECT_NE(error("0 reduce 10 1e3x").find("'reduce' comp '1e3x' is not a number"), std::string::npos);
  EXPECT_NE(error("0 gather 10 1e30").find("'gather' recvcount '1e30' is out of range"), std::string::npos);
  EXPECT_NE(error("0 alltoallv 10 1 2 z 4 10 4 3 2 1").find("'alltoallv' sendcounts[2] 'z' is not a number"),
            std::string::npos);
  EXPECT_NE(error("0 alltoallv 1x 1 2 3 4 10 4 3 2 1").find("'alltoallv' sendbufsize '1x' is not a number"),
            std::string::npos);
  EXPECT_NE(error("0 alltoallv 1 1 2 3 4 b 4 3 2 1").find("'alltoallv' recvbufsize 'b' is not a number"),
            std::string::npos);
  EXPECT_NE(error("0 gatherv 10 1 2 3 4.5.6").find("'gatherv' recvcounts[3] '4.5.6' is not a number"),
            std::string::npos);
  EXPECT_NE(error("0 allgatherv 10 1 2 3 4 0 x 3 6").find("'allgatherv' displs[1] 'x' is not a number"),
            std::string::npos);
  EXPECT_NE(error("0 allgatherv 10 1 2 3 4 1 1 0 1 3 y").find("'allgatherv' displs[3] 'y' is not a number"),
            std::string::npos);
  EXPECT_NE(error("0 scan 10 inf").find("'scan' comp 'inf' is not a number"), std::string::npos);
}

TEST_F(SimGridCollectives, NegativeCounts)
{
  EXPECT_EQ(error("0 bcast -1"), "t.txt:1: error: 'bcast' count '-1' is negative\n  0 bcast -1");
  EXPECT_NE(error("0 reduce 10 -5").find("'reduce' comp '-5' is negative"), std::string::npos);
  EXPECT_NE(error("0 allreduce -8 1").find("'allreduce' count '-8' is negative"), std::string::npos);
  EXPECT_NE(error("0 alltoall 1 -2").find("'alltoall' recvcount '-2' is negative"), std::string::npos);
  EXPECT_NE(error("0 scatter -1.5 2").find("'scatter' sendcount '-1.5' is negative"), std::string::npos);
  EXPECT_NE(error("0 scatterv 1 2 -3 4 10").find("'scatterv' sendcounts[2] '-3' is negative"), std::string::npos);
  EXPECT_NE(error("0 scatterv 1 2 3 4 -10").find("'scatterv' recvcount '-10' is negative"), std::string::npos);
  EXPECT_NE(error("0 reducescatter -1 2 3 4 5").find("'reducescatter' recvcounts[0] '-1' is negative"),
            std::string::npos);
  EXPECT_NE(error("0 alltoallv -1 1 2 3 4 10 4 3 2 1").find("'alltoallv' sendbufsize '-1' is negative"),
            std::string::npos);
  EXPECT_NE(error("0 alltoallv 1 1 2 3 4 10 4 3 2 -1").find("'alltoallv' recvcounts[3] '-1' is negative"),
            std::string::npos);
  EXPECT_NE(error("0 allgatherv 10 1 -2 3 4").find("'allgatherv' recvcounts[1] '-2' is negative"),
            std::string::npos);
  EXPECT_EQ(error("0 allgatherv 10 1 2 3 4 0 -1 3 6"), "<no error>"); // displacements may be negative
}

TEST_F(SimGridCollectives, WrongNumberOfFields)
{
  EXPECT_EQ(error("0 alltoallv 10 1 2 3 10 1 2"),
            "t.txt:1: error: 'alltoallv' needs <sendbufsize> <sendcounts x 4> <recvbufsize> <recvcounts x 4> "
            "[dt1 dt2], got 7 fields\n  0 alltoallv 10 1 2 3 10 1 2");
  EXPECT_NE(error("0 alltoallv 10 1 2 3 4 10 4 3 2 1 0").find("'alltoallv' needs <sendbufsize> <sendcounts x 4> "
                                                             "<recvbufsize> <recvcounts x 4> [dt1 dt2], got 11 fields"),
            std::string::npos);
  EXPECT_NE(error("0 gatherv 10 1 2 3").find("'gatherv' needs <sendcount> <recvcounts x 4> [root [dt1 dt2]], "
                                             "got 4 fields"),
            std::string::npos);
  EXPECT_NE(error("0 gatherv 10 1 2 3 4 0 1").find("got 7 fields"), std::string::npos); // a lone datatype
  EXPECT_NE(error("0 gatherv 10 1 2 3 4 0 1 1 1").find("got 9 fields"), std::string::npos);
  EXPECT_NE(error("0 scatterv 1 2 10").find("'scatterv' needs <sendcounts x 4> <recvcount> [root [dt1 dt2]], "
                                            "got 3 fields"),
            std::string::npos);
  EXPECT_NE(error("0 reducescatter 1 2 3 4").find("'reducescatter' needs <recvcounts x 4> <comp> [dt], got 4 fields"),
            std::string::npos);
  EXPECT_NE(error("0 reducescatter 1 2 3 4 5 0 0").find("got 7 fields"), std::string::npos);
  EXPECT_NE(error("0 allgatherv 10 1 2 3").find("'allgatherv' needs <sendcount> <recvcounts x 4> [dt1 dt2] "
                                                "[displs x 4], got 4 fields"),
            std::string::npos);
  // fields after the counts: 1 (a lone datatype), 3 (too few displs), 5 (datatypes, too few displs), 7
  for (std::string tail : {" 1", " 0 1 2", " 0 1 2 3 4", " 0 0 1 2 3 4 5"}) {
    std::string line = "0 allgatherv 10 1 2 3 4" + tail;
    EXPECT_NE(error(line).find("'allgatherv' needs <sendcount> <recvcounts x 4> [dt1 dt2] [displs x 4], got"),
              std::string::npos)
        << line;
  }
  // fixed forms: too few, too many, or half of a datatype pair
  EXPECT_NE(error("0 bcast").find("'bcast' needs <count> [root [dt]], got 0 fields"), std::string::npos);
  EXPECT_NE(error("0 bcast 1 0 0 0").find("'bcast' needs <count> [root [dt]], got 4 fields"), std::string::npos);
  EXPECT_NE(error("0 reduce 1").find("'reduce' needs <count> <comp> [root [dt]], got 1 field"), std::string::npos);
  EXPECT_NE(error("0 allreduce 1 2 0 0").find("'allreduce' needs <count> <comp> [dt], got 4 fields"),
            std::string::npos);
  EXPECT_NE(error("0 alltoall 1 2 0").find("'alltoall' needs <sendcount> <recvcount> [dt1 dt2], got 3 fields"),
            std::string::npos);
  EXPECT_NE(error("0 allgather 1 2 0").find("'allgather' needs <sendcount> <recvcount> [dt1 dt2], got 3 fields"),
            std::string::npos);
  EXPECT_NE(error("0 gather 1 2 0 1").find("'gather' needs <sendcount> <recvcount> [root [dt1 dt2]], got 4 fields"),
            std::string::npos);
  EXPECT_NE(error("0 scatter 1 2 0 1 1 1").find("got 6 fields"), std::string::npos);
  EXPECT_NE(error("0 scan 1").find("'scan' needs <count> <comp> [dt], got 1 field"), std::string::npos);
  EXPECT_NE(error("0 exscan 1 2 3 4").find("'exscan' needs <count> <comp> [dt], got 4 fields"), std::string::npos);
}

TEST_F(SimGridCollectives, RootOutOfRange)
{
  EXPECT_EQ(error("0 bcast 10 4"),
            "t.txt:1: error: 'bcast' root 4 is not a rank of the communicator (0..3)\n  0 bcast 10 4");
  EXPECT_NE(error("0 bcast 10 -1").find("'bcast' root -1 is not a rank of the communicator (0..3)"), std::string::npos);
  EXPECT_NE(error("0 reduce 10 1 7 0").find("'reduce' root 7 is not a rank"), std::string::npos);
  EXPECT_NE(error("0 gather 10 10 4").find("'gather' root 4 is not a rank"), std::string::npos);
  EXPECT_NE(error("0 scatter 10 10 9 0 0").find("'scatter' root 9 is not a rank"), std::string::npos);
  EXPECT_NE(error("0 gatherv 10 1 2 3 4 4").find("'gatherv' root 4 is not a rank"), std::string::npos);
  EXPECT_NE(error("0 scatterv 1 2 3 4 10 -2").find("'scatterv' root -2 is not a rank"), std::string::npos);
  EXPECT_NE(error("0 reduce 10 1 1.5").find("'reduce' root '1.5' is not an integer"), std::string::npos);
}

TEST_F(SimGridCollectives, UnknownDatatypes)
{
  EXPECT_EQ(error("0 bcast 10 0 60"),
            "t.txt:1: error: 'bcast' datatype '60' is not a known datatype id (known ids: -1 and 0..59)\n"
            "  0 bcast 10 0 60");
  EXPECT_NE(error("0 reduce 10 1 0 -2").find("'reduce' datatype '-2' is not a known datatype id"), std::string::npos);
  EXPECT_NE(error("0 allreduce 10 1 x").find("'allreduce' datatype 'x' is not an integer"), std::string::npos);
  EXPECT_NE(error("0 alltoall 1 1 0 99").find("'alltoall' datatype '99' is not a known"), std::string::npos);
  EXPECT_NE(error("0 gather 1 1 0 99 0").find("'gather' datatype '99' is not a known"), std::string::npos);
  EXPECT_NE(error("0 alltoallv 10 1 2 3 4 10 4 3 2 1 0 99").find("'alltoallv' datatype '99' is not a known"),
            std::string::npos);
  EXPECT_NE(error("0 gatherv 10 1 2 3 4 0 77 0").find("'gatherv' datatype '77' is not a known"), std::string::npos);
  EXPECT_NE(error("0 scatterv 1 2 3 4 10 0 0 77").find("'scatterv' datatype '77' is not a known"), std::string::npos);
  EXPECT_NE(error("0 allgatherv 10 1 2 3 4 0 77").find("'allgatherv' datatype '77' is not a known"),
            std::string::npos);
  EXPECT_NE(error("0 allgatherv 10 1 2 3 4 88 0 0 1 2 3").find("'allgatherv' datatype '88' is not a known"),
            std::string::npos);
  EXPECT_NE(error("0 reducescatter 1 2 3 4 5 60").find("'reducescatter' datatype '60' is not a known"),
            std::string::npos);
  EXPECT_NE(error("0 scan 1 1 61").find("'scan' datatype '61' is not a known"), std::string::npos);
}

} // namespace
} // namespace tit::trace

namespace tit::trace {
namespace {
TEST_F(SimGridCollectives, ReduceScatterKeepsItsDatatypeSize)
{
  const Action& a = parse("1 reducescatter 1 2 3 4 10 1");
  EXPECT_EQ(a.datatype_size, 4); // MPI_INT: the algorithm choice counts elements, not bytes
  EXPECT_EQ(a.recv_counts, (std::vector<double>{4, 8, 12, 16}));
  EXPECT_EQ(parse("1 bcast 3").datatype_size, 1); // reset for each line
}
} // namespace
} // namespace tit::trace

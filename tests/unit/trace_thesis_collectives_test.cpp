// Dialect 1 (thesis) collectives: sizes in bytes unless a datatype is given, n from the latest comm_size.
#include "trace/reader.hpp"

#include "trace_lines_fixture.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tit::trace {
namespace {

using Sizes = std::vector<double>;

/// Lines of one rank of a 4-rank dialect-1 file "th.txt": n = 4 until a comm_size line says otherwise.
class ThesisCollectives : public testing::LinesFixture {
protected:
  ThesisCollectives() : LinesFixture("th.txt", detail::DialectGuess{Dialect::Thesis, 1, "Isend"}) {}
};

TEST_F(ThesisCollectives, Bcast)
{
  const Action& a = parse("0 bcast 100");
  EXPECT_EQ(a.kind, Kind::Bcast);
  EXPECT_EQ(a.bytes, 100.0);
  EXPECT_EQ(a.root, 0);
  parse("0 bcast 100 3");
  EXPECT_EQ(a.bytes, 100.0);
  EXPECT_EQ(a.root, 3);
  parse("0 bcast 10 1 0"); // a datatype makes it a count
  EXPECT_EQ(a.bytes, 80.0);
  EXPECT_EQ(a.root, 1);
  EXPECT_EQ(parse("0 bcast 99.9").bytes, 99.0);
}

TEST_F(ThesisCollectives, ReduceAndAllReduce)
{
  const Action& a = parse("0 reduce 100 50");
  EXPECT_EQ(a.kind, Kind::Reduce);
  EXPECT_EQ(a.bytes, 100.0);
  EXPECT_EQ(a.amount, 50.0);
  EXPECT_EQ(a.root, 0);
  parse("0 reduce 100 2.5 2");
  EXPECT_EQ(a.amount, 2.5);
  EXPECT_EQ(a.root, 2);
  parse("0 reduce 10 50 3 1");
  EXPECT_EQ(a.bytes, 40.0);
  EXPECT_EQ(a.root, 3);
  EXPECT_EQ(parse("0 allReduce 100 1e6").kind, Kind::AllReduce);
  EXPECT_EQ(a.bytes, 100.0);
  EXPECT_EQ(a.amount, 1e6);
  EXPECT_EQ(a.root, 0);
  EXPECT_EQ(parse("0 allReduce 10 5 5").bytes, 40.0);
}

TEST_F(ThesisCollectives, ReduceScatter)
{
  const Action& a = parse("0 reduceScatter 1 2 3 4 50");
  EXPECT_EQ(a.kind, Kind::ReduceScatter);
  EXPECT_EQ(a.recv_counts, (Sizes{1, 2, 3, 4}));
  EXPECT_EQ(a.amount, 50.0);
}

TEST_F(ThesisCollectives, AllToAllAndGather)
{
  const Action& a = parse("0 allToAll 100 200");
  EXPECT_EQ(a.kind, Kind::AllToAll);
  EXPECT_EQ(a.bytes, 100.0);
  EXPECT_EQ(a.bytes2, 200.0);
  EXPECT_EQ(parse("0 gather 10 40").kind, Kind::Gather);
  EXPECT_EQ(a.bytes, 10.0);
  EXPECT_EQ(a.bytes2, 40.0);
  EXPECT_EQ(a.root, 0);
  EXPECT_EQ(parse("0 gather 10 40 3").root, 3);
}

TEST_F(ThesisCollectives, AllToAllV)
{
  //                    buf  send_counts send_displs buf  recv_counts recv_displs
  const Action& a = parse("0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7 9");
  EXPECT_EQ(a.kind, Kind::AllToAllV);
  EXPECT_EQ(a.send_counts, (Sizes{1, 2, 3, 4}));
  EXPECT_EQ(a.recv_counts, (Sizes{4, 3, 2, 1}));
  parse("0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7 9 0"); // one datatype for both sides
  EXPECT_EQ(a.send_counts, (Sizes{8, 16, 24, 32}));
  EXPECT_EQ(a.recv_counts, (Sizes{32, 24, 16, 8}));
}

TEST_F(ThesisCollectives, AllGatherV)
{
  const Action& a = parse("0 allGatherV 10 1 2 3 4 0 1 3 6");
  EXPECT_EQ(a.kind, Kind::AllGatherV);
  EXPECT_EQ(a.bytes, 10.0);
  EXPECT_EQ(a.recv_counts, (Sizes{1, 2, 3, 4}));
  EXPECT_TRUE(a.send_counts.empty());
}

TEST_F(ThesisCollectives, InitArgumentsDoNotChangeSizes)
{
  parse("0 init 1");
  EXPECT_EQ(parse("0 bcast 10").bytes, 10.0);
  EXPECT_EQ(parse("0 reduceScatter 1 2 3 4 0").recv_counts, (Sizes{1, 2, 3, 4}));
}

TEST_F(ThesisCollectives, CommSizeSetsTheCommunicatorOfTheNextCollectives)
{
  const Action& a = parse("0 comm_size 2");
  EXPECT_EQ(a.amount, 2.0);
  parse("0 allGatherV 10 1 2 0 1");
  EXPECT_EQ(a.recv_counts, (Sizes{1, 2}));
  parse("0 allToAllV 3 1 2 0 1 3 2 1 0 2");
  EXPECT_EQ(a.send_counts, (Sizes{1, 2}));
  EXPECT_EQ(a.recv_counts, (Sizes{2, 1}));
  EXPECT_EQ(parse("0 reduceScatter 5 6 7").recv_counts, (Sizes{5, 6}));
  EXPECT_EQ(parse("0 bcast 10 1").root, 1);
  EXPECT_EQ(error("0 bcast 10 2"),
            "th.txt:6: error: 'bcast' root 2 is not a rank of the communicator (0..1)\n  0 bcast 10 2");
  EXPECT_NE(error("0 allGatherV 10 1 2 3 4 0 1 3 6")
                .find("'allGatherV' needs <send_count> <recv_counts x 2> <recv_displs x 2>, got 9 fields"),
            std::string::npos);
  parse("0 comm_size 4"); // the latest line counts
  EXPECT_EQ(parse("0 allGatherV 10 1 2 3 4 0 1 3 6").recv_counts.size(), 4u);
  EXPECT_EQ(parse("0 gather 1 1 3").root, 3);
  parse("0 comm_size 1");
  EXPECT_EQ(parse("0 reduceScatter 5 7").recv_counts, (Sizes{5}));
  EXPECT_NE(error("0 reduce 1 1 1").find("'reduce' root 1 is not a rank of the communicator (0..0)"),
            std::string::npos);
}

TEST_F(ThesisCollectives, TypedFieldsAreReset)
{
  const Action& a = parse("0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7 9");
  parse("0 bcast 10 2");
  EXPECT_TRUE(a.send_counts.empty());
  EXPECT_TRUE(a.recv_counts.empty());
  EXPECT_EQ(a.root, 2);
  parse("0 allToAll 1 2");
  EXPECT_EQ(a.root, 0);
  parse("0 barrier");
  EXPECT_EQ(a.bytes, 0.0);
  EXPECT_EQ(a.bytes2, 0.0);
}

// ---- errors ------------------------------------------------------------------------------------------

TEST_F(ThesisCollectives, CommSizeErrors)
{
  EXPECT_EQ(error("0 comm_size 0"),
            "th.txt:1: error: 'comm_size' size 0 is not a communicator size of this trace set (1..4)\n  0 comm_size 0");
  EXPECT_NE(error("0 comm_size 5").find("'comm_size' size 5 is not a communicator size of this trace set (1..4)"),
            std::string::npos);
  EXPECT_NE(error("0 comm_size 0.9").find("'comm_size' size 0.9 is not a communicator size"), std::string::npos);
  EXPECT_NE(error("0 comm_size -1").find("'comm_size' size '-1' is negative"), std::string::npos);
  EXPECT_NE(error("0 comm_size x").find("'comm_size' size 'x' is not a number"), std::string::npos);
  EXPECT_EQ(parse("0 reduceScatter 1 2 3 4 0").recv_counts.size(), 4u); // refused lines leave n alone
}

TEST_F(ThesisCollectives, BadAndNegativeSizes)
{
  EXPECT_EQ(error("0 bcast -1"), "th.txt:1: error: 'bcast' bytes '-1' is negative\n  0 bcast -1");
  EXPECT_NE(error("0 bcast 1k").find("'bcast' bytes '1k' is not a number"), std::string::npos);
  EXPECT_NE(error("0 reduce -5 1").find("'reduce' vcomm '-5' is negative"), std::string::npos);
  EXPECT_NE(error("0 reduce 5 x").find("'reduce' vcomp 'x' is not a number"), std::string::npos);
  EXPECT_NE(error("0 allReduce 5 -1").find("'allReduce' vcomp '-1' is negative"), std::string::npos);
  EXPECT_NE(error("0 allToAll 5 -1").find("'allToAll' recv_volume '-1' is negative"), std::string::npos);
  EXPECT_NE(error("0 gather x 1").find("'gather' send_volume 'x' is not a number"), std::string::npos);
  EXPECT_NE(error("0 reduceScatter 1 2 3 -4 5").find("'reduceScatter' recv_counts[3] '-4' is negative"),
            std::string::npos);
  EXPECT_NE(error("0 allGatherV -10 1 2 3 4 0 1 3 6").find("'allGatherV' send_count '-10' is negative"),
            std::string::npos);
  EXPECT_NE(error("0 allGatherV 10 1 2 3 4 0 1 z 6").find("'allGatherV' recv_displs[2] 'z' is not a number"),
            std::string::npos);
  EXPECT_NE(error("0 allToAllV 10 1 -2 3 4 0 1 3 6 10 4 3 2 1 0 4 7 9").find("'allToAllV' send_counts[1] '-2'"),
            std::string::npos);
  EXPECT_NE(error("0 allToAllV 10 1 2 3 4 0 x 3 6 10 4 3 2 1 0 4 7 9").find("'allToAllV' send_displs[1] 'x' is not"),
            std::string::npos);
  EXPECT_NE(error("0 allToAllV 10 1 2 3 4 0 1 3 6 -1 4 3 2 1 0 4 7 9").find("'allToAllV' recv_buf_size '-1'"),
            std::string::npos);
  EXPECT_NE(error("0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1e99 0 4 7 9").find("recv_counts[3] '1e99' is out of"),
            std::string::npos);
}

TEST_F(ThesisCollectives, WrongNumberOfFields)
{
  EXPECT_EQ(error("0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7"),
            "th.txt:1: error: 'allToAllV' needs <send_buf_size> <send_counts x 4> <send_displs x 4> <recv_buf_size> "
            "<recv_counts x 4> <recv_displs x 4> [<datatype>], got 17 fields\n"
            "  0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7");
  EXPECT_NE(error("0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7 9 0 0").find("got 20 fields"), std::string::npos);
  EXPECT_NE(error("0 reduceScatter 1 2 3 50").find("'reduceScatter' needs <recv_counts x 4> <vcomp>, got 4 fields"),
            std::string::npos);
  EXPECT_NE(error("0 reduceScatter 1 2 3 4 50 0").find("got 6 fields"), std::string::npos); // no datatype here
  EXPECT_NE(error("0 allGatherV 10 1 2 3 4")
                .find("'allGatherV' needs <send_count> <recv_counts x 4> <recv_displs x 4>, got 5 fields"),
            std::string::npos);
  EXPECT_NE(error("0 allToAll 1 2 0").find("'allToAll' needs <send_volume> <recv_volume>, got 3 fields"),
            std::string::npos);
  EXPECT_NE(error("0 gather 1 2 0 0").find("'gather' needs <send_volume> <recv_volume> [<root>], got 4 fields"),
            std::string::npos);
  EXPECT_NE(error("0 bcast").find("'bcast' needs <bytes> [<root> [<datatype>]], got 0 fields"), std::string::npos);
  EXPECT_NE(error("0 reduce 1 2 0 0 0").find("'reduce' needs <vcomm> <vcomp> [<root> [<datatype>]], got 5 fields"),
            std::string::npos);
  EXPECT_NE(error("0 allReduce 1").find("'allReduce' needs <vcomm> <vcomp> [<datatype>], got 1 field"),
            std::string::npos);
}

TEST_F(ThesisCollectives, RootsAndDatatypes)
{
  EXPECT_EQ(error("0 bcast 10 4"),
            "th.txt:1: error: 'bcast' root 4 is not a rank of the communicator (0..3)\n  0 bcast 10 4");
  EXPECT_NE(error("0 reduce 10 1 -1").find("'reduce' root -1 is not a rank of the communicator (0..3)"),
            std::string::npos);
  EXPECT_NE(error("0 gather 10 10 4").find("'gather' root 4 is not a rank"), std::string::npos);
  EXPECT_NE(error("0 gather 10 10 r").find("'gather' root 'r' is not an integer"), std::string::npos);
  EXPECT_NE(error("0 bcast 10 0 60").find("'bcast' datatype '60' is not a known datatype id"), std::string::npos);
  EXPECT_NE(error("0 reduce 10 1 0 -2").find("'reduce' datatype '-2' is not a known datatype id"), std::string::npos);
  EXPECT_NE(error("0 allReduce 10 1 dbl").find("'allReduce' datatype 'dbl' is not an integer"), std::string::npos);
  EXPECT_NE(error("0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7 9 61").find("'allToAllV' datatype '61' is not"),
            std::string::npos);
}

} // namespace
} // namespace tit::trace

// Conformance of the trace writer and reader: every action of both dialects (and the extensions: comm=,
// nonblocking collectives, any-source receives, unknown sizes, derived datatypes) written by
// format_action() reads back into the same typed action, and what dialect 1 cannot say is refused by name.
#include "trace/reader.hpp"
#include "trace/writer.hpp"

#include "trace_lines_fixture.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace tit::trace {
namespace {

using detail::DialectGuess;
using testing::LineParser;

/// Every typed field of an action (not its text, line or name spelling).
void expect_same_typed(const Action& a, const Action& b, const std::string& context)
{
  SCOPED_TRACE(context);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.partner, b.partner);
  EXPECT_EQ(a.partner2, b.partner2);
  EXPECT_EQ(a.tag, b.tag);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.bytes2, b.bytes2);
  EXPECT_EQ(a.src, b.src);
  EXPECT_EQ(a.dst, b.dst);
  EXPECT_EQ(a.wait_last_irecv, b.wait_last_irecv);
  EXPECT_EQ(a.amount, b.amount);
  EXPECT_EQ(a.root, b.root);
  EXPECT_EQ(a.datatype_size, b.datatype_size);
  EXPECT_EQ(a.send_counts, b.send_counts);
  EXPECT_EQ(a.recv_counts, b.recv_counts);
  EXPECT_EQ(a.blocking, b.blocking);
  EXPECT_EQ(a.comm, b.comm);
  EXPECT_EQ(a.new_comm, b.new_comm);
  EXPECT_EQ(a.comm_args, b.comm_args);
  EXPECT_EQ(a.color, b.color);
  EXPECT_EQ(a.key, b.key);
  EXPECT_EQ(a.new_size, b.new_size);
  EXPECT_EQ(a.group, b.group);
  // the kinds the reader keeps raw: their arguments are their typed fields
  bool raw = a.kind == Kind::Init || a.kind == Kind::Location || a.kind == Kind::WaitAll || a.kind == Kind::Start ||
             a.kind == Kind::Startall || a.kind == Kind::WaitAny || a.kind == Kind::TestAny ||
             a.kind == Kind::TestAll || a.kind == Kind::TestSome;
  if (raw) {
    EXPECT_EQ(std::vector<std::string>(a.args.begin(), a.args.end()),
              std::vector<std::string>(b.args.begin(), b.args.end()));
  }
}

/// Reads `lines` (one rank of a 4-rank set, in order), writes each action back in the same dialect, reads the
/// written line with a second parser, and compares; writing the read-back action again gives the same text.
/// Returns the names of the actions seen.
std::set<std::string> round_trip(Dialect dialect, const std::vector<std::string>& lines)
{
  DialectGuess guess{dialect, 0, ""};
  LineParser original("in.txt", guess, 4);
  LineParser reread("out.txt", guess, 4);
  std::set<std::string> names;
  for (const std::string& line : lines) {
    const Action& a = original.parse(line);
    names.insert(std::string(a.name));
    std::string written = format_action(a, dialect);
    const Action& b = reread.parse(written);
    expect_same_typed(a, b, line + "  ->  " + written);
    EXPECT_EQ(b.name, a.name) << line;
    EXPECT_EQ(format_action(b, dialect), written) << line;
  }
  return names;
}

/// Each name of the dialect's action table.
std::set<std::string> every_name(Dialect dialect)
{
  std::set<std::string> names;
  for (const detail::ActionSpec& spec : detail::action_specs(dialect))
    names.insert(std::string(spec.name));
  return names;
}

const std::vector<std::string> kSimGridLines = {
    "0 init 1", // double becomes the default datatype: the writer's explicit datatypes must not depend on it
    "0 comm_size 4",
    "0 comm_size",
    "0 comm_split",
    "0 comm_split 0 1 0 1 2",
    "0 comm_split 0 -1 0 -1",
    "0 comm_dup",
    "0 comm_dup 0 2",
    "0 comm_create 0 3 2 0 1",
    "0 comm_size 2 comm=3",
    "0 comm_free 3",
    "0 compute 1.5e9",
    "0 compute 123.25",
    "0 compute 0.1",
    "0 sleep 0.5",
    "0 location foo.c 12",
    "0 send 1 7 100",
    "0 send 1 7 100 1",
    "0 send 1 7 1e18 0", // 8e18 bytes, written as 8e18 MPI_BYTEs (below the 2^63 limit of counts)
    "0 isend 2 3 10 0",
    "0 recv 1 7 100 1",
    "0 recv -333 7 -1",
    "0 irecv 3 0 5 2",
    "0 irecv -333 0 -3 2",
    "0 send 1 7 10 0 comm=1",
    "0 recv 1 7 10 0 comm=1",
    "0 wait 0 1 7",
    "0 test 1 0 3",
    "0 wait 1 0 7 comm=1",
    "0 waitall",
    "0 waitall 3",
    "0 sendRecv 10 1 20 2",
    "0 sendRecv 10 1 20 -333 0 1",
    "0 barrier",
    "0 barrier comm=1",
    "0 bcast 5",
    "0 bcast 5 1 1",
    "0 bcast 5 0 -1",
    "0 bcast 3 1 0 comm=1",
    "0 reduce 10 200",
    "0 reduce 10 200 2 0",
    "0 allreduce 10 300",
    "0 allreduce 10 300.5 5",
    "0 allreduce 10 300 3 comm=2",
    "0 alltoall 4 4",
    "0 alltoall 4 4 1 0",
    "0 alltoallv 10 1 2 3 4 10 4 3 2 1",
    "0 alltoallv 10 1 2 3 4 10 4 3 2 1 0 1",
    "0 alltoallv 3 1 2 3 2 1 0 1 comm=1",
    "0 gather 3 3",
    "0 gather 3 3 1 0 1",
    "0 scatter 3 3 2",
    "0 scatter 3 3 2 1 0",
    "0 allgather 2 2 0 0",
    "0 gatherv 2 1 2 3 4",
    "0 gatherv 2 1 2 3 4 1 0 1",
    "0 scatterv 1 2 3 4 2 3",
    "0 scatterv 1 2 3 4 2 0 1 1",
    "0 allgatherv 2 1 2 3 4",
    "0 allgatherv 2 1 2 3 4 0 1",
    "0 allgatherv 2 1 2 3 4 0 1 3 6",
    "0 allgatherv 2 1 2 3 4 0 1 0 1 3 6",
    "0 allgatherv 2 1 2 1 0 comm=1", // two communicator members: the two fields are datatypes
    "0 reducescatter 1 2 3 4 100",
    "0 reducescatter 1 2 3 4 100 1",
    "0 scan 3 10",
    "0 exscan 3 10 1",
    "0 Ssend 1 0 8",
    "0 ISsend 1 0 8 1",
    "0 bsend 1 0 8",
    "0 ibsend 1 0 8",
    "0 Start 1 0 8",
    "0 Startall",
    "0 waitAny 2",
    "0 testany",
    "0 testall",
    "0 testsome",
    "0 ibcast 5 0 1",
    "0 ibarrier",
    "0 ibarrier comm=1",
    "0 iallreduce 10 300 0",
    "0 ireduce 10 300 1 0",
    "0 ialltoall 4 4",
    "0 ialltoallv 10 1 2 3 4 10 4 3 2 1",
    "0 igather 3 3 1",
    "0 iscatter 3 3 1",
    "0 iallgather 2 2",
    "0 igatherv 2 1 2 3 4 1",
    "0 iscatterv 1 2 3 4 2 1",
    "0 iallgatherv 2 1 2 3 4 1 1",
    "0 ireducescatter 1 2 3 4 100 0",
    "0 iscan 3 10 comm=2",
    "0 iexscan 3 10",
    "0 finalize",
};

const std::vector<std::string> kThesisLines = {
    "0 init",
    "0 comm_size 4",
    "0 compute 1e6",
    "0 compute 0.25",
    "0 send 1 100",
    "0 send 1 100 1",
    "0 Isend 2 50",
    "0 recv 1",
    "0 recv 1 100",
    "0 recv -333 100",
    "0 recv 2 -1",
    "0 Irecv 3 64",
    "0 Irecv 3 8 0",
    "0 wait",
    "0 waitAll",
    "0 waitAll 2",
    "0 barrier",
    "0 bcast 100",
    "0 bcast 100 1",
    "0 bcast 100 1 0",
    "0 reduce 100 50",
    "0 reduce 100 50 2",
    "0 allReduce 100 50",
    "0 allReduce 100 50 1",
    "0 reduceScatter 1 2 3 4 100",
    "0 allToAll 10 10",
    "0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7 9",
    "0 allToAllV 10 1 2 3 4 0 1 3 6 10 4 3 2 1 0 4 7 9 1",
    "0 gather 10 40",
    "0 gather 10 40 3",
    "0 allGatherV 10 1 2 3 4 0 1 3 6",
    "0 comm_size 2",
    "0 bcast 10 1",
    "0 allGatherV 10 1 2 0 1",
    "0 finalize",
};

TEST(TraceConformance, EverySimGridActionReadsBackTheSame)
{
  std::set<std::string> seen = round_trip(Dialect::SimGrid, kSimGridLines);
  EXPECT_EQ(seen, every_name(Dialect::SimGrid)) << "every action of the table has a line here";
}

TEST(TraceConformance, EveryThesisActionReadsBackTheSame)
{
  std::set<std::string> seen = round_trip(Dialect::Thesis, kThesisLines);
  EXPECT_EQ(seen, every_name(Dialect::Thesis)) << "every action of the table has a line here";
}

TEST(TraceConformance, WriterSpellsExplicitDatatypes)
{
  LineParser p("in.txt", DialectGuess{Dialect::SimGrid, 0, ""}, 4);
  p.parse("0 init 1");
  EXPECT_EQ(format_action(p.parse("0 send 1 7 100"), Dialect::SimGrid), "0 send 1 7 800 6");
  EXPECT_EQ(format_action(p.parse("0 bcast 5"), Dialect::SimGrid), "0 bcast 5 0 0");
  EXPECT_EQ(format_action(p.parse("0 recv -333 7 -1"), Dialect::SimGrid), "0 recv -333 7 -1 6");
  EXPECT_EQ(format_action(p.parse("0 compute 1.5e9"), Dialect::SimGrid), "0 compute 1500000000");
  EXPECT_EQ(format_action(p.parse("0 barrier comm=0"), Dialect::SimGrid), "0 barrier");
  std::string args;
  append_arguments(args, p.parse("0 allreduce 2 30 1"), Dialect::SimGrid);
  EXPECT_EQ(args, "2 30 1");
}

TEST(TraceConformance, AcrossDialectsWhatBothSay)
{
  // A dialect-1 action written in dialect 2 reads back the same, as far as dialect 2 sizes the same things.
  LineParser thesis("t.txt", DialectGuess{Dialect::Thesis, 0, ""}, 4);
  LineParser simgrid("s.txt", DialectGuess{Dialect::SimGrid, 0, ""}, 4);
  for (std::string line : {"0 send 1 100", "0 Irecv 2 64", "0 bcast 100 1", "0 allReduce 8 5", "0 gather 4 16 2",
                           "0 allToAll 3 3", "0 compute 1e6", "0 reduceScatter 1 2 3 4 100"}) {
    const Action& a = thesis.parse(line);
    std::string written = format_action(a, Dialect::SimGrid);
    expect_same_typed(a, simgrid.parse(written), line + "  ->  " + written);
  }
}

std::string write_error(Dialect from, std::vector<std::string> lines, Dialect to)
{
  LineParser p("in.txt", DialectGuess{from, 0, ""}, 4);
  const Action* last = nullptr;
  for (const std::string& l : lines)
    last = &p.parse(l);
  try {
    format_action(*last, to);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(TraceConformance, WhatDialectOneCannotSayIsRefusedByName)
{
  EXPECT_EQ(write_error(Dialect::SimGrid, {"0 send 1 7 10"}, Dialect::Thesis),
            "in.txt:1: error: cannot write 'send' in dialect 1 (thesis): it has tag 7, and dialect 1 has no tags\n"
            "  0 send 1 7 10");
  EXPECT_EQ(write_error(Dialect::SimGrid, {"0 sleep 1"}, Dialect::Thesis),
            "in.txt:1: error: cannot write 'sleep' in dialect 1 (thesis): the dialect has no such action\n"
            "  0 sleep 1");
  EXPECT_EQ(write_error(Dialect::SimGrid, {"0 ibarrier"}, Dialect::Thesis),
            "in.txt:1: error: cannot write 'ibarrier' in dialect 1 (thesis): dialect 1 has no nonblocking "
            "collectives\n  0 ibarrier");
  EXPECT_EQ(write_error(Dialect::SimGrid, {"0 wait 0 1 0"}, Dialect::Thesis),
            "in.txt:1: error: cannot write 'wait' in dialect 1 (thesis): it names its request; dialect 1's 'wait' "
            "completes the most recent Irecv\n  0 wait 0 1 0");
  EXPECT_EQ(write_error(Dialect::SimGrid, {"0 comm_split 0 1 0 1 2", "0 barrier comm=1"}, Dialect::Thesis),
            "in.txt:2: error: cannot write 'barrier' in dialect 1 (thesis): it acts on communicator 1; dialect 1 "
            "has only MPI_COMM_WORLD\n  0 barrier comm=1");
  EXPECT_EQ(write_error(Dialect::SimGrid, {"0 irecv 1 0 -1"}, Dialect::Thesis),
            "in.txt:1: error: cannot write 'irecv' in dialect 1 (thesis): its size is unknown; in dialect 1 only "
            "'recv' may omit its size\n  0 irecv 1 0 -1");
  EXPECT_EQ(write_error(Dialect::Thesis, {"0 wait"}, Dialect::SimGrid),
            "in.txt:1: error: cannot write 'wait' in dialect 2 (SimGrid): it completes the most recent Irecv "
            "(dialect 1's 'wait'); dialect 2's names its request\n  0 wait");
}

TEST(TraceConformance, ActionsBuiltByHand)
{
  Action a;
  a.kind = Kind::Bcast;
  a.rank = 3;
  a.bytes = 12;
  a.datatype_size = 8; // 12 bytes are not whole doubles
  try {
    format_action(a, Dialect::SimGrid);
    ADD_FAILURE() << "no error";
  } catch (const TraceError& e) {
    EXPECT_STREQ(e.what(), "error: cannot write 'bcast' in dialect 2 (SimGrid): it moves 12 bytes, not a whole "
                           "number of its 8-byte elements");
  }
  a.bytes = 16;
  EXPECT_EQ(format_action(a, Dialect::SimGrid), "3 bcast 2 0 0");
  EXPECT_EQ(action_name(Kind::NonBlockingCollective, Dialect::SimGrid, Kind::AllToAllV), "ialltoallv");
  EXPECT_EQ(action_name(Kind::AllReduce, Dialect::Thesis), "allReduce");
  EXPECT_FALSE(action_name(Kind::Sleep, Dialect::Thesis));
  // outputs name an action built without a name (a compressed trace's) by its kind, in its dialect
  EXPECT_EQ(display_name(a), "bcast");
  a.kind = Kind::NonBlockingCollective;
  a.blocking = Kind::AllReduce;
  EXPECT_EQ(display_name(a), "iallreduce");
  a.kind = Kind::AllReduce;
  a.dialect = Dialect::Thesis;
  EXPECT_EQ(display_name(a), "allReduce");
  a.name = "as_read";
  EXPECT_EQ(display_name(a), "as_read");
}

} // namespace
} // namespace tit::trace

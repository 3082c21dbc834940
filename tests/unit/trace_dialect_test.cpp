// Dialect detection per file: deciding lines, ambiguous files, files mixing the dialects.
#include "trace/reader.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "trace_test_support.hpp"

namespace tit::trace {
namespace {

using namespace test_support;
using detail::line_dialect;

struct Read {
  std::uint64_t line;
  Kind kind;
  Dialect dialect;
  int partner;
  int tag;
  double bytes;
};

/// Every action of rank 0 of a one-rank trace holding `content`.
std::vector<Read> read_rank0(std::string_view content)
{
  auto path = write_file(scratch_dir() / "t.txt", content);
  auto set = TraceSet::open(path, 1);
  auto reader = set->reader(0);
  std::vector<Read> all;
  Action a;
  while (reader->next(a))
    all.push_back(Read{a.line, a.kind, a.dialect, a.partner, a.tag, a.bytes});
  return all;
}

Dialect dialect_of(std::string_view content)
{
  std::vector<Read> all = read_rank0(content);
  EXPECT_FALSE(all.empty());
  for (const Read& r : all)
    EXPECT_EQ(r.dialect, all.front().dialect) << "line " << r.line;
  return all.empty() ? Dialect::SimGrid : all.front().dialect;
}

TEST(TraceDialect, NamesOfOneDialectOnly)
{
  for (std::string_view name :
       {"Isend", "Irecv", "allReduce", "waitAll", "allToAll", "allToAllV", "allGatherV", "reduceScatter"})
    EXPECT_EQ(line_dialect(name, 2), Dialect::Thesis) << name;
  for (std::string_view name :
       {"isend", "irecv", "allreduce", "waitall", "alltoall", "alltoallv", "allgatherv", "reducescatter", "sendRecv",
        "sleep", "location", "test", "scatter", "allgather", "gatherv", "scatterv", "scan", "exscan", "comm_split",
        "comm_dup", "Ssend", "ISsend", "bsend", "ibsend", "Start", "Startall", "waitAny", "testany", "testall",
        "testsome", "ibcast", "ibarrier", "iallreduce", "ireduce", "ialltoall", "ialltoallv", "igather", "iscatter",
        "iallgather", "igatherv", "iscatterv", "iallgatherv", "ireducescatter", "iscan", "iexscan"})
    EXPECT_EQ(line_dialect(name, 2), Dialect::SimGrid) << name;
  for (std::string_view name : {"init", "finalize", "comm_size", "compute", "barrier", "bcast", "reduce", "gather"})
    EXPECT_FALSE(line_dialect(name, 1)) << name;
  EXPECT_FALSE(line_dialect("nonsense", 1));
}

TEST(TraceDialect, SharedNamesByTheirArguments)
{
  EXPECT_EQ(line_dialect("wait", 0), Dialect::Thesis);
  EXPECT_EQ(line_dialect("wait", 3), Dialect::SimGrid);
  EXPECT_FALSE(line_dialect("wait", 1));
  EXPECT_EQ(line_dialect("send", 2), Dialect::Thesis);
  EXPECT_FALSE(line_dialect("send", 3));
  EXPECT_EQ(line_dialect("send", 4), Dialect::SimGrid);
  EXPECT_EQ(line_dialect("recv", 1), Dialect::Thesis);
  EXPECT_EQ(line_dialect("recv", 2), Dialect::Thesis);
  EXPECT_FALSE(line_dialect("recv", 3));
  EXPECT_EQ(line_dialect("recv", 4), Dialect::SimGrid);
}

TEST(TraceDialect, DecidedByAFileLine)
{
  EXPECT_EQ(dialect_of("0 init\n0 Isend 0 10\n0 wait\n"), Dialect::Thesis);
  EXPECT_EQ(dialect_of("0 init\n0 isend 0 0 10\n0 wait 0 0 0\n"), Dialect::SimGrid);
  EXPECT_EQ(dialect_of("0 init\n0 compute 5\n0 wait\n"), Dialect::Thesis);
  EXPECT_EQ(dialect_of("0 init\n0 compute 5\n0 wait 0 0 1\n"), Dialect::SimGrid);
  EXPECT_EQ(dialect_of("0 send 0 10\n"), Dialect::Thesis);
  EXPECT_EQ(dialect_of("0 send 0 1 10 1\n"), Dialect::SimGrid);
  EXPECT_EQ(dialect_of("0 recv 0\n"), Dialect::Thesis);
  EXPECT_EQ(dialect_of("0 recv 0 10\n"), Dialect::Thesis);
  EXPECT_EQ(dialect_of("0 recv 0 1 10 1\n"), Dialect::SimGrid);
  EXPECT_EQ(dialect_of("0 sleep 1\n"), Dialect::SimGrid);
  EXPECT_EQ(dialect_of("0 waitAll\n"), Dialect::Thesis);
}

TEST(TraceDialect, UndecidedFilesAreDialect2)
{
  EXPECT_EQ(dialect_of("0 init\n0 compute 1\n0 barrier\n0 bcast 10\n0 finalize\n"), Dialect::SimGrid);
  // `send` with 3 arguments fits both; dialect 2 reads <dst> <tag> <count>
  std::vector<Read> all = read_rank0("0 send 0 5 100\n");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].dialect, Dialect::SimGrid);
  EXPECT_EQ(all[0].tag, 5);
  EXPECT_EQ(all[0].bytes, 100.0);
}

TEST(TraceDialect, DecidedLateStillAppliesFromTheFirstLine)
{
  std::string content = "0 init\n";
  for (int i = 0; i < 3000; ++i)
    content += "0 compute 10\n0 send 0 64 6\n"; // 3 arguments: fits both dialects
  content += "0 Irecv 0 64\n0 wait\n";
  std::vector<Read> all = read_rank0(content);
  ASSERT_EQ(all.size(), 6003u);
  for (const Read& r : all)
    ASSERT_EQ(r.dialect, Dialect::Thesis) << "line " << r.line;
  EXPECT_EQ(all[2].kind, Kind::Send);
  EXPECT_EQ(all[2].bytes, 64.0); // dialect 1: 64 of datatype 6 (byte), no tag
  EXPECT_EQ(all[2].tag, 0);
}

TEST(TraceDialect, CommentsDoNotDecide)
{
  EXPECT_EQ(dialect_of("# 0 Isend 1 10\n0 init\n0 compute 1\n"), Dialect::SimGrid);
  EXPECT_EQ(dialect_of("  # 0 isend 1 0 10\n0 Isend 0 10\n"), Dialect::Thesis);
}

TEST(TraceDialect, MixingNamesIsAnErrorAtTheOffendingLine)
{
  auto p = write_file(scratch_dir() / "mix.txt", "0 init\n0 Isend 0 10\n0 compute 1\n0 isend 0 0 10\n");
  std::string e = trace_error([&] {
    auto reader = TraceSet::open(p, std::nullopt)->reader(0);
    Action a;
    while (reader->next(a)) {
    }
  });
  EXPECT_EQ(e, p.string() + ":4: error: 'isend' is an action of dialect 2 (SimGrid), but line 2 ('Isend') shows "
                            "that this file is in dialect 1 (thesis); one file cannot mix the two dialects\n"
                            "  0 isend 0 0 10");
}

TEST(TraceDialect, MixingFormsIsAnErrorAtTheOffendingLine)
{
  auto p = write_file(scratch_dir() / "mix.txt", "0 init\n0 irecv 0 0 10\n\n0 wait\n");
  std::string e = trace_error([&] {
    auto reader = TraceSet::open(p, std::nullopt)->reader(0);
    Action a;
    while (reader->next(a)) {
    }
  });
  EXPECT_EQ(e, p.string() + ":4: error: 'wait' needs <src> <dst> <tag>, got 0 fields (the dialect 1 (thesis) form, "
                            "but line 2 ('irecv') shows that this file is in dialect 2 (SimGrid))\n  0 wait");
}

TEST(TraceDialect, EachFileOfASetHasItsOwn)
{
  auto dir = scratch_dir() / "set";
  write_file(dir / "a.txt", "0 init\n0 Isend 1 10\n0 wait\n");
  write_file(dir / "b.txt", "1 init\n1 irecv 0 0 10\n1 wait 0 1 0\n");
  auto set = TraceSet::open(dir, std::nullopt);
  Action a;
  auto r0 = set->reader(0);
  ASSERT_TRUE(r0->next(a));
  EXPECT_EQ(a.dialect, Dialect::Thesis);
  auto r1 = set->reader(1);
  ASSERT_TRUE(r1->next(a));
  EXPECT_EQ(a.dialect, Dialect::SimGrid);
  ASSERT_TRUE(r1->next(a));
  ASSERT_TRUE(r1->next(a));
  EXPECT_EQ(a.kind, Kind::Wait);
  EXPECT_EQ(a.src, 0);
  EXPECT_EQ(a.dst, 1);
}

} // namespace
} // namespace tit::trace

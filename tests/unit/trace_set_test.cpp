// TraceSet::open: directories of per-rank files, trace lists, merged files, and their errors.
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "trace_test_support.hpp"

namespace tit::trace {
namespace {

namespace fs = std::filesystem;
using namespace test_support;

const fs::path kData = fs::path(TIT_TEST_DATA_DIR) / "traces";

/// "<line>:<rank> <name>" of every action of a stream.
std::vector<std::string> lines_of(RankReader& reader)
{
  std::vector<std::string> out;
  Action a;
  while (reader.next(a))
    out.push_back(std::to_string(a.line) + ":" + std::to_string(a.rank) + " " + std::string(a.name));
  return out;
}

std::vector<std::string> lines_of(TraceSet& set, int rank) { return lines_of(*set.reader(rank)); }

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// ---- directories ------------------------------------------------------------------------------------

TEST(TraceSetDirectory, RanksComeFromTheFirstActionLine)
{
  auto dir = scratch_dir() / "traces";
  write_file(dir / "x.txt", "# rank one\n\n1 init\n1 recv 0 0 8\n1 finalize\n");
  write_file(dir / "y.txt", "0 init\n0 send 1 0 8\n0 finalize");
  write_file(dir / ".hidden", "7 init\n");
  fs::create_directories(dir / "subdir");
  write_file(dir / "subdir" / "z.txt", "9 init\n");
  auto set = TraceSet::open(dir, std::nullopt);
  EXPECT_EQ(set->rank_count(), 2);
  EXPECT_TRUE(set->has_own_rank_count());
  EXPECT_EQ(set->describe(), "2 per-rank files in " + dir.string());
  auto r1 = set->reader(1);
  EXPECT_EQ(r1->file(), (dir / "x.txt").string());
  EXPECT_EQ(lines_of(*r1), (std::vector<std::string>{"3:1 init", "4:1 recv", "5:1 finalize"}));
  EXPECT_EQ(lines_of(*set, 0), (std::vector<std::string>{"1:0 init", "2:0 send", "3:0 finalize"}));
}

// What our tracer writes: per-rank files, their trace list and timings side files (TIT_TRACE_TIMINGS=1).
TEST(TraceSetDirectory, TracerOutputUsesItsTraceList)
{
  auto dir = scratch_dir() / "tit-traces";
  write_file(dir / "rank-0.txt", "0 init\n0 send 1 0 8\n0 finalize\n");
  write_file(dir / "rank-1.txt", "1 init\n1 recv 0 0 8\n1 finalize\n");
  write_file(dir / "timings-0.csv", "line,action,start_s,end_s\n1,init,0,0\n");
  write_file(dir / "timings-1.csv", "line,action,start_s,end_s\n1,init,0,0\n");
  write_file(dir / "trace.list", (dir / "rank-0.txt").string() + "\n" + (dir / "rank-1.txt").string() + "\n");
  auto set = TraceSet::open(dir, std::nullopt);
  EXPECT_EQ(set->rank_count(), 2);
  EXPECT_EQ(set->reader(1)->file(), (dir / "rank-1.txt").string());
  // Without the list, the side files are still not taken for traces.
  fs::remove(dir / "trace.list");
  EXPECT_EQ(TraceSet::open(dir, std::nullopt)->rank_count(), 2);
}

TEST(TraceSetDirectory, SmpiTiTraces)
{
  auto set = TraceSet::open(kData / "smpi-ti", 2);
  ASSERT_EQ(set->rank_count(), 2);
  auto r0 = set->reader(0);
  Action a;
  ASSERT_TRUE(r0->next(a));
  ASSERT_TRUE(r0->next(a));
  EXPECT_EQ(a.kind, Kind::Compute);
  EXPECT_EQ(a.amount, 2.5e7);
  ASSERT_TRUE(r0->next(a));
  EXPECT_EQ(a.kind, Kind::Isend);
  EXPECT_EQ(a.bytes, 4096.0 * 4);
  EXPECT_EQ(lines_of(*set, 1).size(), 8u);
}

TEST(TraceSetDirectory, GzipFiles)
{
  auto dir = scratch_dir() / "gz";
  write_gz(dir / "0.txt.gz", "0 init\n0 compute 5\n0 finalize\n");
  write_gz(dir / "1.txt.gz", "1 init\n1 finalize");
  auto set = TraceSet::open(dir, std::nullopt);
  EXPECT_EQ(lines_of(*set, 0), (std::vector<std::string>{"1:0 init", "2:0 compute", "3:0 finalize"}));
  EXPECT_EQ(lines_of(*set, 1), (std::vector<std::string>{"1:1 init", "2:1 finalize"}));
}

TEST(TraceSetDirectory, DuplicateRank)
{
  auto dir = scratch_dir() / "dup";
  write_file(dir / "a.txt", "0 init\n");
  write_file(dir / "b.txt", "1 init\n");
  write_file(dir / "c.txt", "1 init\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(dir, std::nullopt); }),
            "error: rank 1 is held by two files: '" + (dir / "b.txt").string() + "' and '" + (dir / "c.txt").string() +
                "'");
}

TEST(TraceSetDirectory, MissingRank)
{
  auto dir = scratch_dir() / "missing";
  write_file(dir / "a.txt", "0 init\n");
  write_file(dir / "b.txt", "3 init\n");
  write_file(dir / "c.txt", "2 init\n");
  std::string e = trace_error([&] { TraceSet::open(dir, std::nullopt); });
  EXPECT_TRUE(starts_with(e, "error: no file in '" + dir.string() +
                                 "' holds rank 1 (3 per-rank files must hold ranks 0..2; '" +
                                 (dir / "b.txt").string() + "' holds rank 3)"))
      << e;
}

TEST(TraceSetDirectory, FileWithoutActions)
{
  auto dir = scratch_dir() / "empty-file";
  write_file(dir / "a.txt", "0 init\n");
  write_file(dir / "b.txt", "# nothing\n\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(dir, std::nullopt); }),
            "error: trace '" + (dir / "b.txt").string() + "' holds no action line, so its rank is unknown");
}

TEST(TraceSetDirectory, EmptyDirectory)
{
  auto dir = scratch_dir() / "nothing";
  fs::create_directories(dir);
  EXPECT_EQ(trace_error([&] { TraceSet::open(dir, std::nullopt); }),
            "error: trace directory '" + dir.string() + "' holds no trace file");
}

TEST(TraceSetDirectory, DeployedRanksMustMatch)
{
  auto dir = scratch_dir() / "three";
  for (int r = 0; r < 3; ++r)
    write_file(dir / ("rank-" + std::to_string(r) + ".txt"), std::to_string(r) + " init\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(dir, 4); }),
            "error: rank mismatch: '" + dir.string() + "' has 3 rank traces but 4 ranks are deployed");
  EXPECT_EQ(TraceSet::open(dir, 3)->rank_count(), 3);
}

TEST(TraceSetDirectory, LineOfAnotherRank)
{
  auto dir = scratch_dir() / "mismatch";
  write_file(dir / "rank-2.txt", "2 init\n2 finalize\n");
  write_file(dir / "rank-3.txt", "3 init\n3 compute 1\n\n# x\n2 compute 5\n3 finalize\n");
  write_file(dir / "rank-0.txt", "0 init\n");
  write_file(dir / "rank-1.txt", "1 init\n");
  auto set = TraceSet::open(dir, std::nullopt);
  auto r3 = set->reader(3);
  std::string e = trace_error([&] { lines_of(*r3); });
  EXPECT_EQ(e, (dir / "rank-3.txt").string() +
                   ":5: error: line is for rank 2 but this file holds rank 3's actions\n  2 compute 5");
}

TEST(TraceSetDirectory, OneFileOfSeveralRanksIsMerged)
{
  auto dir = scratch_dir() / "one";
  write_file(dir / "all.txt", "0 init\n1 init\n2 init\n0 finalize\n");
  auto set = TraceSet::open(dir, std::nullopt);
  EXPECT_EQ(set->rank_count(), 3);
  EXPECT_FALSE(set->has_own_rank_count());
  EXPECT_EQ(set->describe(), "merged file " + (dir / "all.txt").string());
  EXPECT_EQ(lines_of(*set, 0), (std::vector<std::string>{"1:0 init", "4:0 finalize"}));
}

TEST(TraceSetDirectory, OneFileOfOneRankIsThatRanksTrace)
{
  auto dir = scratch_dir() / "one";
  write_file(dir / "only.txt", "0 init\n0 finalize\n");
  auto set = TraceSet::open(dir, std::nullopt);
  EXPECT_EQ(set->rank_count(), 1);
  EXPECT_TRUE(set->has_own_rank_count());
  EXPECT_EQ(trace_error([&] { TraceSet::open(dir, 2); }),
            "error: rank mismatch: '" + dir.string() + "' has 1 rank traces but 2 ranks are deployed");
}

// ---- trace lists --------------------------------------------------------------------------------------

TEST(TraceSetList, PathsRelativeToTheListsDirectory)
{
  auto set = TraceSet::open(kData / "list" / "traces.txt", std::nullopt);
  EXPECT_EQ(set->rank_count(), 2);
  EXPECT_TRUE(set->has_own_rank_count());
  EXPECT_EQ(set->describe(), "2 per-rank files listed in " + (kData / "list" / "traces.txt").string());
  auto r1 = set->reader(1);
  EXPECT_EQ(r1->file(), (kData / "list" / "rank-1.txt").string());
  EXPECT_EQ(lines_of(*r1), (std::vector<std::string>{"1:1 init", "2:1 recv", "3:1 finalize"}));
  Action a;
  auto r0 = set->reader(0);
  ASSERT_TRUE(r0->next(a) && r0->next(a) && r0->next(a));
  EXPECT_EQ(a.kind, Kind::Send);
  EXPECT_EQ(a.bytes, 1024.0);
}

TEST(TraceSetList, CurrentDirectoryFirst)
{
  auto dir = scratch_dir();
  write_file(dir / "cwd" / "r0.txt", "0 init\n0 compute 1\n");
  write_file(dir / "cwd" / "r1.txt", "1 init\n");
  write_file(dir / "lists" / "r0.txt", "0 init\n");
  write_file(dir / "lists" / "r1.txt", "1 init\n");
  write_file(dir / "lists" / "l.txt", "r0.txt\nr1.txt\n");
  fs::path old = fs::current_path();
  fs::current_path(dir / "cwd");
  std::string e = trace_error([&] {
    auto set = TraceSet::open(dir / "lists" / "l.txt", std::nullopt);
    auto r0 = set->reader(0);
    EXPECT_EQ(r0->file(), "r0.txt");
    EXPECT_EQ(lines_of(*r0).size(), 2u); // the current directory's r0.txt
  });
  fs::current_path(old);
  EXPECT_EQ(e, "<no error>");
}

TEST(TraceSetList, MissingListedFile)
{
  auto dir = scratch_dir();
  write_file(dir / "r0.txt", "0 init\n");
  auto list = write_file(dir / "l.txt", "r0.txt\n\nnot-there.txt\n");
  std::string e = trace_error([&] { TraceSet::open(list, std::nullopt); });
  EXPECT_TRUE(starts_with(e, list.string() + ":3: error: cannot find trace 'not-there.txt': neither 'not-there.txt'"))
      << e;
  EXPECT_TRUE(contains(e, "nor '" + (dir / "not-there.txt").string() + "' exists\n  not-there.txt")) << e;
}

TEST(TraceSetList, OneLineIsAMergedFile)
{
  auto dir = scratch_dir();
  write_file(dir / "merged.txt", "0 init\n1 init\n1 finalize\n0 finalize\n");
  auto list = write_file(dir / "l.txt", "merged.txt\n");
  auto set = TraceSet::open(list, std::nullopt);
  EXPECT_EQ(set->rank_count(), 2);
  EXPECT_FALSE(set->has_own_rank_count());
  EXPECT_EQ(lines_of(*set, 1), (std::vector<std::string>{"2:1 init", "3:1 finalize"}));
}

TEST(TraceSetList, FileHoldingAnotherRank)
{
  auto dir = scratch_dir();
  write_file(dir / "a.txt", "0 init\n");
  write_file(dir / "b.txt", "# b\n2 init\n");
  write_file(dir / "c.txt", "1 init\n");
  auto list = write_file(dir / "l.txt", "a.txt\nb.txt\nc.txt\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(list, std::nullopt); }),
            (dir / "b.txt").string() + ":2: error: line is for rank 2 but this file holds rank 1's actions (line 2 of "
                                       "trace list '" + list.string() + "')\n  2 init");
}

TEST(TraceSetList, DeployedRanksMustMatch)
{
  auto list = kData / "list" / "traces.txt";
  EXPECT_EQ(trace_error([&] { TraceSet::open(list, 3); }),
            "error: rank mismatch: '" + list.string() + "' has 2 rank traces but 3 ranks are deployed");
}

TEST(TraceSetList, ListedDirectory)
{
  auto dir = scratch_dir();
  write_file(dir / "r0.txt", "0 init\n");
  fs::create_directories(dir / "sub");
  auto list = write_file(dir / "l.txt", "r0.txt\nsub\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(list, std::nullopt); }),
            list.string() + ":2: error: trace '" + (dir / "sub").string() + "' is a directory; a trace list names "
                            "files\n  sub");
}

TEST(TraceSetList, EmptyList)
{
  auto list = write_file(scratch_dir() / "l.txt", "\n# nothing\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(list, std::nullopt); }),
            "error: '" + list.string() + "' holds neither trace lines nor trace file names");
}

// ---- merged files and general errors -------------------------------------------------------------------

TEST(TraceSetMerged, RankCountFromTheFileOrFromRanks)
{
  auto merged = kData / "thesis-merged.txt";
  auto set = TraceSet::open(merged, std::nullopt);
  EXPECT_EQ(set->rank_count(), 2);
  EXPECT_FALSE(set->has_own_rank_count());
  EXPECT_EQ(set->describe(), "merged file " + merged.string());
  EXPECT_EQ(lines_of(*set, 1), (std::vector<std::string>{"3:1 init", "5:1 comm_size", "7:1 Irecv", "9:1 wait",
                                                         "10:1 compute", "12:1 allReduce", "14:1 finalize"}));
  auto given = TraceSet::open(merged, 2);
  EXPECT_EQ(given->rank_count(), 2);
  EXPECT_EQ(lines_of(*given, 0).size(), 6u);
  // A count given by --np or a placement is checked against the file's: ranks without lines would replay as
  // ranks without actions, ranks beyond the count would be unread.
  for (int n : {1, 4, 2000000000})
    EXPECT_EQ(trace_error([&] { TraceSet::open(merged, n); }),
              fmt::format("error: rank mismatch: merged trace '{}' holds the lines of ranks 0 to 1 (2 ranks) but --np or "
                          "the placement gives {}",
                          merged.string(), n));
}

TEST(TraceSetMerged, RanksMissingOrBeyondAGivenCount)
{
  auto p = write_file(scratch_dir() / "m.txt", "0 init\n1 init\n3 init\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(p, 2); }),
            "error: merged trace '" + p.string() +
                "' has lines of rank 3 but none of rank 2 (3 ranks have lines): a merged trace holds the lines of every "
                "rank from 0 to its highest");
  auto dense = write_file(scratch_dir() / "dense.txt", "0 init\n1 init\n2 init\n");
  EXPECT_TRUE(contains(trace_error([&] { TraceSet::open(dense, 2); }), "(3 ranks) but --np or the placement gives 2"));
}

TEST(TraceSetMerged, BadRankField)
{
  auto p = write_file(scratch_dir() / "m.txt", "0 init\n1 init\n1x init\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(p, std::nullopt); }),
            p.string() + ":3: error: rank '1x' is not an integer\n  1x init");
  EXPECT_EQ(trace_error([&] { TraceSet::open(p, 2); }), p.string() + ":3: error: rank '1x' is not an integer\n  1x init");
}

TEST(TraceSetMerged, NoActionLine)
{
  auto dir = scratch_dir();
  write_file(dir / "empty.txt", "# 0 init\n\n");
  auto list = write_file(dir / "l.txt", "empty.txt\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(list, std::nullopt); }),
            "error: merged trace '" + (dir / "empty.txt").string() +
                "' holds no action line, so its number of ranks is unknown");
  EXPECT_TRUE(contains(trace_error([&] { TraceSet::open(list, 2); }), "holds no action line")); // a count does not help
}

// A fuzz finding: one stray rank of 100000006 made the reader allocate a queue per rank (4 GB) before any check.
TEST(TraceSetMerged, RanksWithoutLinesBelowTheHighest)
{
  auto dir = scratch_dir();
  auto file = write_file(dir / "all.txt", "0 init\n1 init\n100000006 init\n3 init\n0 finalize\n");
  EXPECT_EQ(trace_error([&] { TraceSet::open(file, std::nullopt); }),
            "error: merged trace '" + file.string() +
                "' has lines of rank 100000006 but none of rank 2 (4 ranks have lines): a merged trace holds the "
                "lines of every rank from 0 to its highest");
  auto dense = write_file(dir / "dense.txt", "1 init\n0 init\n2 init\n");
  EXPECT_EQ(TraceSet::open(dense, std::nullopt)->rank_count(), 3);
}

TEST(TraceSetMerged, Gzip)
{
  auto p = write_gz(scratch_dir() / "m.txt.gz", "0 init\n1 init\n0 send 1 0 10\n1 recv 0 0 10\n");
  auto set = TraceSet::open(p, std::nullopt);
  EXPECT_EQ(set->rank_count(), 2);
  EXPECT_EQ(lines_of(*set, 1), (std::vector<std::string>{"2:1 init", "4:1 recv"}));
}

TEST(TraceSetOpen, MissingPath)
{
  auto p = scratch_dir() / "x";
  EXPECT_EQ(trace_error([&] { TraceSet::open(p, std::nullopt); }),
            "error: cannot open trace '" + p.string() + "': No such file or directory");
}

TEST(TraceSetOpen, RanksMustBePositive)
{
  EXPECT_TRUE(contains(trace_error([&] { TraceSet::open(kData / "thesis-merged.txt", 0); }),
                       "error: the number of ranks to replay must be positive, got 0"));
}

TEST(TraceSetOpen, EachStreamIsHandedOutOnce)
{
  auto set = TraceSet::open(kData / "smpi-ti", std::nullopt);
  auto r0 = set->reader(0);
  EXPECT_THROW(set->reader(0), std::logic_error);
  EXPECT_THROW(set->reader(2), std::logic_error);
  auto merged = TraceSet::open(kData / "thesis-merged.txt", std::nullopt);
  auto m1 = merged->reader(1);
  EXPECT_THROW(merged->reader(1), std::logic_error);
  EXPECT_THROW(merged->reader(-1), std::logic_error);
}

TEST(TraceSetOpen, EndOfStreamIsSticky)
{
  auto set = TraceSet::open(kData / "list" / "traces.txt", std::nullopt);
  auto r1 = set->reader(1);
  EXPECT_EQ(lines_of(*r1).size(), 3u);
  Action a;
  EXPECT_FALSE(r1->next(a));
  EXPECT_FALSE(r1->next(a));
}

// ---- what compute volumes count ---------------------------------------------------------------------

TEST(TraceSetUnit, FromTheHeaderInEitherDialect)
{
  auto dir = scratch_dir() / "units";
  const std::string cpu = "# tit-trace 0.1.0\n# compute: cpu-time x rate (ESTIMATE)\n# rate: 1e9 instructions/s\n";
  write_file(dir / "rank-0.txt", cpu + "0 init\n0 compute 5\n0 finalize\n");
  write_file(dir / "rank-1.txt", "1 init\n1 compute 5\n1 finalize\n"); // says nothing: takes the others'
  EXPECT_EQ(TraceSet::open(dir, std::nullopt)->compute_unit(), "cpu-time x 1e+09");
  auto thesis = write_file(scratch_dir() / "thesis-unit.txt",
                           "# compute: instructions (user-space instructions retired)\n0 init\n0 compute 5\n"
                           "0 Isend 1 10\n1 init\n1 Irecv 0 10\n1 wait\n0 finalize\n1 finalize\n");
  EXPECT_EQ(TraceSet::open(thesis, std::nullopt)->compute_unit(), "instructions");
  // A `# compute:` comment after the first action is no header.
  auto late = write_file(scratch_dir() / "late.txt", "0 init\n# compute: instructions\n0 finalize\n");
  EXPECT_EQ(TraceSet::open(late, std::nullopt)->compute_unit(), "");
  EXPECT_EQ(TraceSet::open(kData / "list" / "traces.txt", std::nullopt)->compute_unit(), "");
}

TEST(TraceSetUnit, FilesInDifferentUnitsAreRefused)
{
  auto dir = scratch_dir() / "mixed-units";
  write_file(dir / "rank-0.txt", "# compute: instructions\n0 init\n0 finalize\n");
  write_file(dir / "rank-1.txt", "# compute: wall-time x rate\n# rate: 2e9\n1 init\n1 finalize\n");
  std::string e = trace_error([&] { TraceSet::open(dir, std::nullopt); });
  EXPECT_TRUE(contains(e, "error: the trace files count compute volumes in different units: 'instructions' in ")) << e;
  EXPECT_TRUE(contains(e, "'wall-time x 2e+09' in ")) << e;
}

TEST(TraceSetUnit, CanonicalForm)
{
  EXPECT_EQ(compute_unit("", "1e9"), "");
  EXPECT_EQ(compute_unit("instructions", "1e9"), "instructions");
  EXPECT_EQ(compute_unit("cpu-time", "1000000000"), "cpu-time x 1e+09");
  EXPECT_EQ(compute_unit("cpu-time", "2.5e9"), "cpu-time x 2.5e+09");
  EXPECT_EQ(compute_unit("cpu-time", ""), "cpu-time");
}

TEST(TraceSetUnit, RateOfAUnit)
{
  EXPECT_EQ(compute_unit_rate("cpu-time x 1e+09"), 1e9);
  EXPECT_EQ(compute_unit_rate("cpu-time x 2.5e+09", "cpu-time"), 2.5e9);
  EXPECT_EQ(compute_unit_rate("wall-time x 1e+09", "cpu-time"), std::nullopt); // another mode
  EXPECT_EQ(compute_unit_rate("instructions"), std::nullopt);
  EXPECT_EQ(compute_unit_rate("cpu-time"), std::nullopt);
  EXPECT_EQ(compute_unit_rate("cpu-time x 0"), std::nullopt);
  EXPECT_EQ(compute_unit_rate("cpu-time x fast"), std::nullopt);
}

} // namespace
} // namespace tit::trace

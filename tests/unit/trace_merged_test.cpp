// Merged files: every rank pulls from one shared file; other ranks' lines wait in per-rank queues.
#include "trace/reader.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "trace_test_support.hpp"

namespace tit::trace {
namespace {

namespace fs = std::filesystem;
using namespace test_support;

/// `rounds` rounds of 4 ranks, interleaved: line 4k + r + 1 is rank r's action k ("compute k").
fs::path write_round_robin(int rounds, int ranks = 4)
{
  std::string content;
  for (int k = 0; k < rounds; ++k)
    for (int r = 0; r < ranks; ++r)
      content += std::to_string(r) + " compute " + std::to_string(k) + "\n";
  return write_file(scratch_dir() / "merged.txt", content);
}

struct Merged {
  explicit Merged(const fs::path& path, int ranks) : source(detail::make_merged_source(path.string(), ranks))
  {
    for (int r = 0; r < ranks; ++r)
      readers.push_back(detail::make_merged_reader(source, r, detail::DialectGuess{}, ranks));
  }
  std::size_t backlog() const { return detail::merged_backlog(*source); }

  std::shared_ptr<detail::MergedSource> source;
  std::vector<std::unique_ptr<RankReader>> readers;
};

TEST(TraceMerged, LockstepReadingKeepsNoBacklog)
{
  const int rounds = 20000;
  Merged m(write_round_robin(rounds), 4);
  Action a;
  std::size_t worst = 0;
  for (int k = 0; k < rounds; ++k)
    for (int r = 0; r < 4; ++r) {
      ASSERT_TRUE(m.readers[r]->next(a));
      ASSERT_EQ(a.rank, r);
      ASSERT_EQ(a.amount, k);
      ASSERT_EQ(a.line, static_cast<std::uint64_t>(4 * k + r + 1));
      worst = std::max(worst, m.backlog());
    }
  EXPECT_LT(worst, 200u); // at most a few lines wait, never the file
  for (int r = 0; r < 4; ++r)
    EXPECT_FALSE(m.readers[r]->next(a));
}

TEST(TraceMerged, SkewedReadingQueuesTheOtherRanks)
{
  const int rounds = 5000;
  Merged m(write_round_robin(rounds), 4);
  Action a;
  for (int k = 0; k < rounds; ++k) {
    ASSERT_TRUE(m.readers[3]->next(a));
    ASSERT_EQ(a.amount, k);
  }
  EXPECT_FALSE(m.readers[3]->next(a));
  EXPECT_GT(m.backlog(), 3u * rounds * 10); // ranks 0..2 wait in their queues
  for (int r : {1, 0, 2})
    for (int k = 0; k < rounds; ++k) {
      ASSERT_TRUE(m.readers[r]->next(a));
      ASSERT_EQ(a.rank, r);
      ASSERT_EQ(a.amount, k);
      ASSERT_EQ(a.line, static_cast<std::uint64_t>(4 * k + r + 1));
      ASSERT_EQ(a.text, std::to_string(r) + " compute " + std::to_string(k));
    }
  EXPECT_EQ(m.backlog(), 0u);
}

TEST(TraceMerged, AnActionSurvivesOtherRanksReading)
{
  Merged m(write_round_robin(3000), 4);
  Action a0;
  Action a1;
  ASSERT_TRUE(m.readers[0]->next(a0));
  for (int k = 0; k < 3000; ++k) // pulls most of the file through the shared buffer
    ASSERT_TRUE(m.readers[1]->next(a1));
  EXPECT_EQ(a0.text, "0 compute 0");
  EXPECT_EQ(a0.name, "compute");
  ASSERT_EQ(a0.args.size(), 1u);
  EXPECT_EQ(a0.args[0], "0");
  EXPECT_EQ(*a0.file, (scratch_dir() / "merged.txt").string());
}

TEST(TraceMerged, LinesAreParsedWhenTheirRankTakesThem)
{
  auto p = write_file(scratch_dir() / "m.txt", "0 init\n1 bogus 1\n0 compute 1\n1 init\n0 finalize\n");
  auto set = TraceSet::open(p, std::nullopt);
  auto r0 = set->reader(0);
  auto r1 = set->reader(1);
  Action a;
  int n0 = 0;
  while (r0->next(a))
    ++n0;
  EXPECT_EQ(n0, 3);
  std::string e = trace_error([&] { r1->next(a); });
  EXPECT_EQ(e.rfind(p.string() + ":2: error: unknown action 'bogus'; known actions: ", 0), 0u) << e;
}

TEST(TraceMerged, ADestroyedStreamsLinesAreDropped)
{
  Merged m(write_round_robin(2000), 4);
  m.readers[2].reset();
  m.readers[1].reset();
  Action a;
  for (int k = 0; k < 2000; ++k)
    ASSERT_TRUE(m.readers[3]->next(a));
  EXPECT_EQ(m.backlog(), 2000u * (sizeof(std::uint64_t) + sizeof(std::uint32_t)) +
                             [] { // only rank 0's lines wait
                               std::size_t bytes = 0;
                               for (int k = 0; k < 2000; ++k)
                                 bytes += ("0 compute " + std::to_string(k)).size();
                               return bytes;
                             }());
}

TEST(TraceMerged, DefaultDatatypeIsPerRank)
{
  auto p = write_file(scratch_dir() / "m.txt", "0 init 1\n1 init\n0 send 1 0 10\n1 recv 0 0 10\n");
  auto set = TraceSet::open(p, std::nullopt);
  auto r0 = set->reader(0);
  auto r1 = set->reader(1);
  Action a;
  ASSERT_TRUE(r1->next(a) && r1->next(a));
  EXPECT_EQ(a.bytes, 10.0); // rank 1's init had no argument: byte
  ASSERT_TRUE(r0->next(a) && r0->next(a));
  EXPECT_EQ(a.bytes, 80.0); // rank 0's init had one: double
}

// ---- many ranks, many open files --------------------------------------------------------------------------

fs::path write_per_rank_dir(int ranks)
{
  auto dir = scratch_dir() / "many";
  for (int r = 0; r < ranks; ++r) {
    std::string s = std::to_string(r);
    write_file(dir / ("r-" + s + ".txt"), s + " init\n" + s + " compute " + s + "\n" + s + " finalize\n");
  }
  return dir;
}

TEST(TraceManyRanks, RaisesTheOpenFileLimit)
{
  const int ranks = 1100;
  rlimit lim{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &lim), 0);
  if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < ranks + 100)
    GTEST_SKIP() << "hard limit of open files below " << ranks + 100;
  auto dir = write_per_rank_dir(ranks);
  rlimit low = lim;
  low.rlim_cur = 256;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  std::string e = trace_error([&] {
    auto set = TraceSet::open(dir, ranks);
    std::vector<std::unique_ptr<RankReader>> readers;
    for (int r = 0; r < ranks; ++r) // every stream open at once, as in a replay
      readers.push_back(set->reader(r));
    Action a;
    for (int r = 0; r < ranks; ++r) {
      ASSERT_TRUE(readers[r]->next(a) && readers[r]->next(a));
      ASSERT_EQ(a.amount, r);
    }
  });
  setrlimit(RLIMIT_NOFILE, &lim);
  EXPECT_EQ(e, "<no error>");
}

TEST(TraceManyRanksDeathTest, TooManyOpenFilesSaysWhichLimitToRaise)
{
  auto dir = write_per_rank_dir(100);
  auto run = [&] {
    rlimit lim{64, 64};
    setrlimit(RLIMIT_NOFILE, &lim);
    try {
      auto set = TraceSet::open(dir, std::nullopt);
      std::vector<std::unique_ptr<RankReader>> readers;
      for (int r = 0; r < set->rank_count(); ++r)
        readers.push_back(set->reader(r));
    } catch (const TraceError& e) {
      std::cerr << e.what() << std::endl;
      std::exit(3);
    }
    std::exit(0);
  };
  // Stopped before any file is opened, with the limit to raise.
  EXPECT_EXIT(run(), ::testing::ExitedWithCode(3),
              "error: .*many: 100 per-rank trace files are read at once, one open file each, but this process may "
              "open at most 64 files \\(hard limit 64\\); expected a limit of at least 164: raise it with `ulimit -n "
              "164`");
}

} // namespace
} // namespace tit::trace

// tit-calibrate compare's library: a replay's actions log joined with the traced run's timings (data/trace-timings:
// rank 0 computes 1 s, sends 100 bytes in 0.5 s, computes 0.5 and 1.5 s; rank 1 receives in 1.5 s, computes 2 s).
#include "compare.hpp"
#include "csv.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using tit::calib::compare_replay;
using tit::calib::InputError;

namespace {

const fs::path kTrace = fs::path(TIT_CALIB_TEST_DATA) / "trace-timings" / "traces.txt";

/// A scratch file removed at the end of the test.
class ScratchLog {
public:
  explicit ScratchLog(const std::string& text)
      : path_(fs::temp_directory_path() / ("tit-compare-test-" + std::to_string(::testing::UnitTest::GetInstance()
                                                                                     ->random_seed()) +
                                           "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name()))
  {
    std::ofstream(path_) << text;
  }
  ~ScratchLog() { fs::remove(path_); }
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

// A replay of the trace in which the send took 0.2 s instead of 0.5, the receive 1.1 s instead of 1.5, rank 1's
// compute 2.1 s instead of 2 (the rows of the two ranks interleaved, as the replay writes them).
const char* kLog = "# tit-replay actions-log v1: rank<TAB>start<TAB>end<TAB>action line (simulated seconds)\n"
                   "0\t0.0\t0.0\t0 init\n"
                   "1\t0.0\t0.0\t1 init\n"
                   "0\t0.0\t1.0\t0 compute 2000000000\n"
                   "0\t1.0\t1.2\t0 send 1 0 100 6\n"
                   "1\t0.0\t1.1\t1 recv 0 0 100 6\n"
                   "0\t1.2\t1.7\t0 compute 1000000000\n"
                   "0\t1.7\t3.2\t0 compute 3000000000\n"
                   "0\t3.2\t3.2\t0 finalize\n"
                   "1\t1.1\t3.2\t1 compute 4000000000\n"
                   "1\t3.2\t3.2\t1 finalize\n";

std::string error_of(const std::string& log)
{
  ScratchLog f(log);
  try {
    compare_replay(kTrace, kTrace.parent_path(), f.path(), {64}, 3);
  } catch (const InputError& e) {
    std::string what = e.what();
    auto at = what.find(f.path().string());
    return at == std::string::npos ? what : what.replace(at, f.path().string().size(), "LOG");
  }
  return "no error";
}

} // namespace

TEST(Compare, SumsByActionAndBandAndFindsTheSpans)
{
  ScratchLog f(kLog);
  auto c = compare_replay(kTrace, kTrace.parent_path(), f.path(), {64, 1000}, 2);
  EXPECT_EQ(c.ranks, 2);
  EXPECT_EQ(c.actions, 10U);
  EXPECT_DOUBLE_EQ(c.measured_span, 3.5);
  EXPECT_DOUBLE_EQ(c.replayed_span, 3.2);
  EXPECT_DOUBLE_EQ(c.rank_replayed[0], 3.2);
  ASSERT_EQ(c.groups.size(), 5U); // init, compute, send, recv, finalize
  // largest |difference| first: recv (-0.4) and send (-0.3) in the 100-byte band, compute (+0.1), then the zeros
  EXPECT_EQ(c.groups[0].action, "recv");
  EXPECT_EQ(c.groups[0].band, "[64, 1000)");
  EXPECT_NEAR(c.groups[0].replayed - c.groups[0].measured, -0.4, 1e-12);
  EXPECT_EQ(c.groups[1].action, "send");
  EXPECT_NEAR(c.groups[1].replayed - c.groups[1].measured, -0.3, 1e-12);
  EXPECT_EQ(c.groups[2].action, "compute");
  EXPECT_EQ(c.groups[2].band, "");
  EXPECT_EQ(c.groups[2].count, 4U);
  EXPECT_NEAR(c.groups[2].measured, 5.0, 1e-12);
  EXPECT_NEAR(c.groups[2].replayed, 5.1, 1e-12);
  ASSERT_EQ(c.outliers.size(), 2U);
  EXPECT_EQ(c.outliers[0].rank, 1); // rank 1's receive (0.4 s short), then rank 0's send (0.3 s)
  EXPECT_EQ(c.outliers[0].line, 2U);
  EXPECT_EQ(c.outliers[1].rank, 0);
  EXPECT_EQ(c.outliers[1].line, 3U);
  std::ostringstream csv;
  tit::calib::write_comparison_csv(csv, c);
  EXPECT_NE(csv.str().find("send,\"[64, 1000)\",1,0.5,0.2,-0.3"), std::string::npos) << csv.str();
  std::ostringstream report;
  tit::calib::write_comparison(report, c);
  EXPECT_NE(report.str().find("measured 3.500000 s, replayed 3.200000 s, -8.6 %"), std::string::npos) << report.str();
}

TEST(Compare, RanksThatLeftMpiInitApartSpanFromTheFirstOne)
{
  // The same run on one host's clock, rank 1 back from MPI_Init 0.25 s after rank 0: the run spans from rank 0's
  // start to rank 1's finalize, 0.25 + 3.5 s; each rank's own span stays 3.5 s.
  fs::path dir = fs::temp_directory_path() / ("tit-compare-test-starts-" +
                                              std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::create_directories(dir);
  for (int r = 0; r < 2; ++r) {
    auto name = "timings-" + std::to_string(r) + ".csv";
    std::ifstream in(kTrace.parent_path() / name);
    std::ofstream(dir / name) << "# origin: " << (r == 0 ? "100" : "100.25") << " s (CLOCK_MONOTONIC)\n# host: h\n"
                              << in.rdbuf();
  }
  ScratchLog together(kLog);
  auto c = compare_replay(kTrace, dir, together.path(), {64, 1000}, 0);
  EXPECT_DOUBLE_EQ(c.measured_span, 3.75);
  EXPECT_DOUBLE_EQ(c.rank_measured[1], 3.5);
  EXPECT_DOUBLE_EQ(c.replayed_span, 3.2);
  EXPECT_EQ(tit::calib::rank_start_config(c), "1:0.25");
  std::ostringstream report;
  tit::calib::write_comparison(report, c);
  EXPECT_NE(report.str().find("the ranks left MPI_Init up to 250.000 ms apart (rank 1 last); the replay started them "
                              "together: --cfg=tit/rank-start:'1:0.25' starts them as they did"),
            std::string::npos)
      << report.str();
  std::ostringstream csv;
  tit::calib::write_comparison_csv(csv, c);
  EXPECT_NE(csv.str().find("# rank_start: 1:0.25\n"), std::string::npos) << csv.str();
  // replayed with tit/rank-start: rank 1's rows 0.25 s later; its own span is from its start
  std::string shifted = kLog;
  for (auto [from, to] : {std::pair{"1\t0.0\t0.0\t1 init", "1\t0.25\t0.25\t1 init"},
                          std::pair{"1\t0.0\t1.1\t1 recv", "1\t0.25\t1.35\t1 recv"},
                          std::pair{"1\t1.1\t3.2\t1 compute", "1\t1.35\t3.45\t1 compute"},
                          std::pair{"1\t3.2\t3.2\t1 finalize", "1\t3.45\t3.45\t1 finalize"}})
    shifted.replace(shifted.find(from), std::string(from).size(), to);
  ScratchLog apart(shifted);
  auto d = compare_replay(kTrace, dir, apart.path(), {64, 1000}, 0);
  EXPECT_DOUBLE_EQ(d.replayed_span, 3.45);
  EXPECT_DOUBLE_EQ(d.rank_replayed[1], 3.2);
  std::ostringstream again;
  tit::calib::write_comparison(again, d);
  EXPECT_NE(again.str().find("the replay started them so (tit/rank-start)"), std::string::npos) << again.str();
  fs::remove_all(dir);
}

TEST(Compare, TheTimeARankWasDescheduledInItsComputations)
{
  // data/trace-off-cpu: the same run, its volumes CPU time (cpu-time x 1e9). Rank 0's computations took 1, 0.5 and
  // 1.5 s of wall time for 0.8, 0.5 and 1.2 s of CPU time: it was off its CPU 0.5 s. Rank 1's 2 s were all CPU.
  ScratchLog f(kLog);
  auto c = compare_replay(fs::path(TIT_CALIB_TEST_DATA) / "trace-off-cpu" / "traces.txt",
                          fs::path(TIT_CALIB_TEST_DATA) / "trace-off-cpu", f.path(), {64, 1000}, 0);
  ASSERT_EQ(c.rank_off_cpu.size(), 2U);
  EXPECT_NEAR(c.rank_off_cpu[0], 0.5, 1e-12);
  EXPECT_NEAR(c.rank_off_cpu[1], 0.0, 1e-12);
  std::ostringstream report;
  tit::calib::write_comparison(report, c);
  EXPECT_NE(report.str().find("off CPU (s)"), std::string::npos) << report.str();
  EXPECT_NE(report.str().find("-8.6 %      0.500000\n1 "), std::string::npos) << report.str();
  EXPECT_NE(report.str().find("\noff CPU: the computations' wall time less their CPU time"), std::string::npos)
      << report.str();
  std::ostringstream csv;
  tit::calib::write_comparison_csv(csv, c);
  EXPECT_NE(csv.str().find("\n# off_cpu_s: 0.5,0\naction,band,"), std::string::npos) << csv.str();
  // Volumes of another unit (data/trace-timings: none given) say nothing of it.
  EXPECT_TRUE(compare_replay(kTrace, kTrace.parent_path(), f.path(), {64}, 0).rank_off_cpu.empty());
}

TEST(Compare, RefusesALogOfAnotherTrace)
{
  std::string log = kLog;
  // rank 1's receive logged as a send: another trace
  log.replace(log.find("1 recv 0 0 100 6"), 16, "1 send 0 0 100 6");
  EXPECT_EQ(error_of(log), "LOG:6: error: rank 1's action 2 is 'send' here and 'recv' at " +
                               (kTrace.parent_path() / "rank-1.txt").string() +
                               ":2: the log is not a replay of this trace");
  // rank 0's last rows missing (a replay cut short)
  std::string shorter = kLog;
  shorter.erase(shorter.find("0\t1.7"), shorter.find("1\t1.1\t3.2") - shorter.find("0\t1.7"));
  EXPECT_EQ(error_of(shorter), "LOG: error: rank 0 has 4 actions there, its trace has more (the next one at " +
                                   (kTrace.parent_path() / "rank-0.txt").string() +
                                   ":6): the log is not a replay of this trace, or it was cut short");
  // a row too many (computations merged elsewhere, or another trace)
  EXPECT_EQ(error_of(std::string(kLog) + "1\t3.3\t3.4\t1 compute 5\n"),
            "LOG:12: error: rank 1 has 5 actions in the log, 4 in its trace: the log is not a replay of this trace "
            "(or tit-replay merged computations)");
  EXPECT_EQ(error_of(std::string(kLog) + "2\t0\t0\t2 init\n"),
            "LOG:12: error: rank 2 is beyond the trace's 2 ranks: the log is not a replay of this trace");
}

TEST(Compare, RefusesMalformedRows)
{
  EXPECT_EQ(error_of("0 0.0 0.0 0 init\n"),
            "LOG:1: error: fewer than 4 tab-separated fields: expected rank<TAB>start<TAB>end<TAB>action line, as "
            "tit-replay --actions-log writes it; got '0 0.0 0.0 0 init'");
  EXPECT_EQ(error_of("x\t0\t0\t0 init\n"),
            "LOG:1: error: the rank is not a rank number: expected rank<TAB>start<TAB>end<TAB>action line, as "
            "tit-replay --actions-log writes it; got 'x\t0\t0\t0 init'");
  EXPECT_EQ(error_of("0\t2\t1\t0 init\n"),
            "LOG:1: error: start and end are not two times in order: expected rank<TAB>start<TAB>end<TAB>action "
            "line, as tit-replay --actions-log writes it; got '0\t2\t1\t0 init'");
  try {
    compare_replay(kTrace, kTrace.parent_path(), "/nonexistent/log", {}, 0);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/log: error: cannot open the actions log");
  }
}

namespace {

/// A run of 3 ranks written into a scratch folder: a world allreduce, then a split into {0, 1} (colour 0) and {2}
/// (colour 1) and an allreduce on each. Measured on one clock (origins 100, 99.5 and 100.2 s: the files hold times
/// from each rank's own origin): the world call's last rank (2) enters at 101.4 and leaves at 101.6 (0.2 s), the pair's
/// last (1) enters at 102.1 and leaves at 102.3 (0.2 s). Replayed: 0.05 s for each last rank (1, then 0).
class CollectiveRun {
public:
  explicit CollectiveRun(const std::string& host2)
      : dir_(fs::temp_directory_path() / ("tit-compare-colls-" + std::string(::testing::UnitTest::GetInstance()
                                                                                ->current_test_info()
                                                                                ->name())))
  {
    fs::create_directories(dir_);
    const double origin[] = {100, 99.5, 100.2};
    const double calls[3][4] = {{1.0, 1.5, 2.0, 2.3}, {1.2, 1.5, 2.1, 2.3}, {1.4, 1.6, 2.0, 2.05}};
    std::ofstream list(dir_ / "traces.txt");
    std::ofstream log(dir_ / "actions.log");
    const double replayed[3][4] = {{1.0, 1.05, 2.0, 2.05}, {1.2, 1.25, 2.0, 2.05}, {1.1, 1.25, 2.0, 2.0}};
    for (int r = 0; r < 3; ++r) {
      list << "rank-" << r << ".txt\n";
      std::ofstream(dir_ / ("rank-" + std::to_string(r) + ".txt"))
          << r << " init\n" << r << " allreduce 8 0 0\n" << r << " comm_split 0 " << (r == 2) << " 0 1 " << (r == 2 ? 1 : 2)
          << "\n" << r << " allreduce 8 0 0 comm=1\n" << r << " finalize\n";
      auto rel = [&](double t) { return 100 + t - origin[r]; };
      std::ofstream(dir_ / ("timings-" + std::to_string(r) + ".csv"))
          << "# origin: " << origin[r] << " s\n# host: " << (r == 2 ? host2 : "a") << "\nline,action,start_s,end_s\n"
          << "1,init,0,0\n2,allreduce," << rel(calls[r][0]) << "," << rel(calls[r][1]) << "\n3,comm_split,"
          << rel(calls[r][1]) << "," << rel(calls[r][1]) << "\n4,allreduce," << rel(calls[r][2]) << ","
          << rel(calls[r][3]) << "\n5,finalize,3,3\n";
      log << r << "\t0\t0\t" << r << " init\n"
          << r << "\t" << replayed[r][0] << "\t" << replayed[r][1] << "\t" << r << " allreduce 8 0 0\n"
          << r << "\t" << replayed[r][1] << "\t" << replayed[r][1] << "\t" << r << " comm_split\n"
          << r << "\t" << replayed[r][2] << "\t" << replayed[r][3] << "\t" << r << " allreduce 8 0 0\n"
          << r << "\t3\t3\t" << r << " finalize\n";
    }
  }
  ~CollectiveRun() { fs::remove_all(dir_); }
  tit::calib::Comparison compare() const
  {
    return compare_replay(dir_ / "traces.txt", dir_, dir_ / "actions.log", {1024}, 0);
  }

private:
  fs::path dir_;
};

} // namespace

TEST(Compare, ACollectivesCostOnceItsLastRankIsInIt)
{
  auto c = CollectiveRun("a").compare();
  ASSERT_EQ(c.collectives.size(), 1U) << "the world call and the pair's; rank 2's communicator of one rank left out";
  auto const& g = c.collectives[0];
  EXPECT_EQ(g.action, "allreduce");
  EXPECT_EQ(g.band, "[0, 1024)");
  EXPECT_EQ(g.calls, 2U);
  EXPECT_NEAR(g.measured, 0.2, 1e-9);
  EXPECT_NEAR(g.replayed, 0.05, 1e-9);
  EXPECT_NEAR(g.difference, 0.15, 1e-9);
  EXPECT_EQ(c.collective_calls_left_out, 0U);
  EXPECT_EQ(tit::calib::coll_overhead_config(c), "allreduce:0:0.15:0");
  std::ostringstream report;
  tit::calib::write_comparison(report, c);
  EXPECT_NE(report.str().find("allreduce       [0, 1024)                    2      200000.000       50000.000"),
            std::string::npos)
      << report.str();
}

TEST(Compare, CollectiveCallsOfRanksWithoutACommonClockAreLeftOut)
{
  // Rank 2 on another host: the world call cannot say who came last; the pair's still can.
  auto c = CollectiveRun("b").compare();
  ASSERT_EQ(c.collectives.size(), 1U);
  EXPECT_EQ(c.collectives[0].calls, 1U);
  EXPECT_EQ(c.collective_calls_left_out, 1U);
  std::ostringstream report;
  tit::calib::write_comparison(report, c);
  EXPECT_NE(report.str().find("1 collective call(s) left out"), std::string::npos) << report.str();
}

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

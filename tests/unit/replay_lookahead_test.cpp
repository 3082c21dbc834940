// Lookahead: the fate of a request in the rest of a rank's trace, and actions read ahead replayed intact.
#include "replay/lookahead.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "trace_test_support.hpp"

namespace {

using tit::replay::Fate;
using tit::replay::Lookahead;
namespace ts = tit::trace::test_support;

/// Rank 0's stream of a two-rank trace (rank 0: `lines`), positioned after its first `skip` actions.
Lookahead stream_of(const std::string& lines, int skip, std::size_t window = Lookahead::kDefaultWindow)
{
  auto dir = ts::scratch_dir() / "trace";
  ts::write_file(dir / "rank-0.txt", lines);
  ts::write_file(dir / "rank-1.txt", "1 init\n");
  auto set = tit::trace::TraceSet::open(dir, std::nullopt);
  Lookahead stream(set->reader(0), window);
  tit::trace::Action a;
  for (int i = 0; i < skip; ++i)
    EXPECT_TRUE(stream.next(a));
  return stream;
}

const std::string kRing = "0 init\n"
                          "0 irecv 1 0 8\n"   // key (1, 0, 0)
                          "0 isend 1 0 8\n"   // key (0, 1, 0)
                          "0 test 1 0 0\n"
                          "0 compute 10\n"
                          "0 wait 0 1 0\n"    // names the send
                          "0 irecv 1 0 8\n"   // posts the receive's key again
                          "0 wait 1 0 0\n"
                          "0 finalize\n";

TEST(Lookahead, AReceivePostedAgainBeforeAnyWaitWasCompleteAndTheWaitedSendStillPending)
{
  Lookahead s = stream_of(kRing, 4); // after the test
  auto fates = s.fates(0, {{0, 1, 0, 0}, {0, 0, 1, 0}});
  EXPECT_EQ(fates, (std::vector<Fate>{Fate::Forgotten, Fate::Named}));
  EXPECT_FALSE(s.window_exhausted());
}

TEST(Lookahead, ActionsReadAheadAreReplayedIntactAndInOrder)
{
  Lookahead s = stream_of(kRing, 4);
  s.fates(0, {{0, 9, 9, 9}}); // never mentioned: reads to the end of the trace
  tit::trace::Action a;
  std::vector<std::string> rest;
  while (s.next(a))
    rest.push_back(std::string(a.text) + "|" + std::string(a.name) + "|" + std::to_string(a.line));
  EXPECT_EQ(rest, (std::vector<std::string>{"0 compute 10|compute|5", "0 wait 0 1 0|wait|6",
                                            "0 irecv 1 0 8|irecv|7", "0 wait 1 0 0|wait|8",
                                            "0 finalize|finalize|9"}));
}

TEST(Lookahead, TheEndOfTheTraceMeansComplete)
{
  Lookahead s = stream_of("0 init\n0 irecv 1 0 8\n0 test 1 0 0\n0 compute 1\n", 3);
  EXPECT_EQ(s.fates(0, {{0, 1, 0, 0}}), std::vector<Fate>{Fate::Forgotten});
}

TEST(Lookahead, ACallOnEveryRequestFirstLeavesItUnknown)
{
  for (const char* call : {"waitall", "waitAny 1", "testany", "testall", "testsome"}) {
    Lookahead s = stream_of(std::string("0 init\n0 irecv 1 0 8\n0 test 1 0 0\n0 ") + call + "\n0 wait 1 0 0\n", 3);
    EXPECT_EQ(s.fates(0, {{0, 1, 0, 0}}), std::vector<Fate>{Fate::Unknown}) << call;
  }
}

TEST(Lookahead, NothingDecidedWithinTheWindowIsUnknownAndSaidSo)
{
  Lookahead s = stream_of("0 init\n0 irecv 1 0 8\n0 test 1 0 0\n0 compute 1\n0 compute 1\n0 wait 1 0 0\n", 3, 2);
  EXPECT_EQ(s.fates(0, {{0, 1, 0, 0}}), std::vector<Fate>{Fate::Unknown});
  EXPECT_TRUE(s.window_exhausted());
  tit::trace::Action a;
  ASSERT_TRUE(s.next(a));
  EXPECT_EQ(a.text, "0 compute 1");
}

TEST(Lookahead, AKeyIsItsCommunicatorsToo)
{
  // The request (comm 3, 1 -> 0, tag 0): a wait on communicator 4 does not name it, nor does a post of the same
  // ranks and tag on communicator 4 forget it; a wait naming no communicator may (traces before `comm=`).
  const std::string lines = "0 init\n0 irecv 1 0 8 comm=3\n0 test 1 0 0 comm=3\n"
                            "0 irecv 1 0 8 comm=4\n0 wait 1 0 0 comm=4\n0 wait 1 0 0\n";
  Lookahead named = stream_of(lines, 3);
  EXPECT_EQ(named.fates(0, {{3, 1, 0, 0}}), std::vector<Fate>{Fate::Named});
  Lookahead exact = stream_of("0 init\n0 irecv 1 0 8 comm=3\n0 test 1 0 0 comm=3\n"
                              "0 irecv 1 0 8 comm=4\n0 wait 1 0 0 comm=4\n0 irecv 1 0 8 comm=3\n",
                              3);
  EXPECT_EQ(exact.fates(0, {{3, 1, 0, 0}}), std::vector<Fate>{Fate::Forgotten});
}

} // namespace

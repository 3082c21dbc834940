// The symbolic execution `tit-trace proxy` runs before writing a program (tools/proxy/proxy_check.hpp): traces that
// would deadlock (exit 3), that it cannot run (exit 2), and traces that complete.
#include "proxy/proxy_check.hpp"

#include "trace_test_support.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

namespace tit::tracetool {
namespace {

namespace ts = trace::test_support;

struct Outcome {
  std::string deadlock; ///< ProxyDeadlock's message
  std::string error;    ///< another TraceError's message
  std::string warnings;
  TraceFacts facts;
};

/// Checks the merged trace `text` with rendez-vous from `thresh` bytes on.
Outcome check(const std::string& name, const std::string& text, double thresh = 65536)
{
  auto path = ts::write_file(ts::scratch_dir() / (name + ".txt"), text);
  Outcome o;
  std::ostringstream warnings;
  try {
    o.facts = check_trace(path, {thresh}, warnings);
  } catch (const ProxyDeadlock& e) {
    o.deadlock = e.what();
  } catch (const trace::TraceError& e) {
    o.error = e.what();
  }
  o.warnings = warnings.str();
  return o;
}

/// Every rank sends BYTES to its right with a blocking KIND, then receives from its left.
std::string circular(const char* kind, int bytes)
{
  std::string t;
  for (int r = 0; r < 3; ++r)
    t += std::to_string(r) + " init\n" + std::to_string(r) + " " + kind + " " + std::to_string((r + 1) % 3) + " 7 " +
         std::to_string(bytes) + " 6\n" + std::to_string(r) + " recv " + std::to_string((r + 2) % 3) + " 7 " +
         std::to_string(bytes) + " 6\n" + std::to_string(r) + " finalize\n";
  return t;
}

TEST(ProxyCheck, CircularRendezVousDeadlocks)
{
  Outcome o = check("circular", circular("send", 100000));
  ASSERT_NE(o.deadlock, "") << o.error;
  EXPECT_NE(o.deadlock.find("error: the trace deadlocks: no rank can progress"), std::string::npos) << o.deadlock;
  for (int r = 0; r < 3; ++r)
    EXPECT_NE(o.deadlock.find("rank " + std::to_string(r) + " blocked in " + (ts::scratch_dir() / "circular.txt").string() +
                              ":" + std::to_string(4 * r + 2) + ": " + std::to_string(r) + " send " +
                              std::to_string((r + 1) % 3) + " 7 100000 6\n    waits for rank " +
                              std::to_string((r + 1) % 3) +
                              " to receive its message of 100000 bytes with tag 7 on MPI_COMM_WORLD"),
              std::string::npos)
        << o.deadlock;
}

TEST(ProxyCheck, CircularSmallMessagesComplete)
{
  Outcome o = check("circular-small", circular("send", 1000));
  EXPECT_EQ(o.deadlock, "");
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.warnings, "");
  EXPECT_EQ(o.facts.actions, 12u);
}

TEST(ProxyCheck, ThresholdIsTheOption)
{
  EXPECT_NE(check("circular-thresh", circular("send", 1000), 1000).deadlock, "");
  EXPECT_EQ(check("circular-thresh2", circular("send", 999), 1000).deadlock, "");
}

TEST(ProxyCheck, SynchronousAndBufferedSends)
{
  EXPECT_NE(check("circular-ssend", circular("Ssend", 8)).deadlock, ""); // Ssend always needs the match
  Outcome b = check("circular-bsend", circular("bsend", 100000));       // bsend returns at once
  EXPECT_EQ(b.deadlock, "");
  EXPECT_EQ(b.facts.bsend_bytes, 100000);
  EXPECT_EQ(b.facts.bsend_count, 1u);
}

TEST(ProxyCheck, NonblockingRingCompletes)
{
  std::string t;
  for (int r = 0; r < 3; ++r) {
    auto R = std::to_string(r), right = std::to_string((r + 1) % 3), left = std::to_string((r + 2) % 3);
    t += R + " isend " + right + " 1 100000 6\n" + R + " irecv " + left + " 1 100000 6\n" + R + " wait " + R + " " +
         right + " 1\n" + R + " waitall\n";
  }
  Outcome o = check("nbring", t);
  EXPECT_EQ(o.deadlock, "");
  EXPECT_EQ(o.error, "");
}

TEST(ProxyCheck, AnySourceTakesEveryMessage)
{
  Outcome o = check("anysource", "0 recv -333 3 10 6\n0 recv -333 3 10 6\n0 recv 2 3 10 6\n"
                                 "1 send 0 3 100000 6\n2 send 0 3 100000 6\n2 send 0 3 10 6\n");
  EXPECT_EQ(o.deadlock, "");
  EXPECT_EQ(o.error, "");
  // the first receive took rank 1's message; rank 2's first one could have come first (then the second receive takes
  // rank 1's: the same outcome here, but the check follows one order only)
  EXPECT_EQ(o.warnings, "tit-trace: warning: 1 receive(s) from any source could take another message than in the "
                        "order checked (first: rank 0's receive from any source at " +
                            (ts::scratch_dir() / "anysource.txt").string() +
                            ":1 took the message of rank 1 with tag 3; the one rank 2 sent at " +
                            (ts::scratch_dir() / "anysource.txt").string() +
                            ":5 could have come first): the other matches of the first 16 are explored, one at a "
                            "time, not together, so a deadlock that needs another choice is not excluded "
                            "(docs/proxy.md#receives-from-any-source)\n"
                            "tit-trace: note: explored 1 other match(es) of receives from any source, one at a time: "
                            "0 deadlock(s)\n");
}

// The order checked completes; had rank 2's message come first, rank 0's `recv 2` would wait forever: the other
// match is explored and its deadlock said (the proxy is still written: the traced run took one that completes).
TEST(ProxyCheck, AnySourceWhoseMatchDecidesADeadlockIsWarned)
{
  Outcome o = check("anysource-hang", "0 recv -333 3 10 6\n0 recv 2 3 10 6\n1 send 0 3 10 6\n2 send 0 3 10 6\n");
  EXPECT_EQ(o.deadlock, "");
  EXPECT_NE(o.warnings.find("tit-trace: warning: the proxy may hang: if rank 0's receive from any source at " +
                            (ts::scratch_dir() / "anysource-hang.txt").string() +
                            ":1 takes the message of rank 2 (another run may deliver it first), no rank can progress "
                            "(docs/proxy.md#receives-from-any-source). Blocked ranks and their action:\n  rank 0 "
                            "blocked in " + (ts::scratch_dir() / "anysource-hang.txt").string() +
                            ":2: 0 recv 2 3 10 6\n    waits for a message from rank 2 with tag 3 on MPI_COMM_WORLD\n"),
            std::string::npos)
      << o.warnings;
  EXPECT_NE(o.warnings.find("explored 1 other match(es) of receives from any source, one at a time: 1 deadlock(s)"),
            std::string::npos);
  EXPECT_NE(o.warnings.find("1 receive(s) from any source could take another message than in the order checked "
                            "(first: rank 0's receive from any source at " +
                            (ts::scratch_dir() / "anysource-hang.txt").string() +
                            ":1 took the message of rank 1 with tag 3; the one rank 2 sent at " +
                            (ts::scratch_dir() / "anysource-hang.txt").string() + ":4 could have come first)"),
            std::string::npos)
      << o.warnings;
}

// Messages sent only after their sender learnt that the receive completed (through a message, or a barrier) cannot
// be taken by it: no warning.
TEST(ProxyCheck, AnySourceOrderedByCausalityIsNotWarned)
{
  Outcome m = check("anysource-msg", "0 recv -333 3 10 6\n0 send 2 9 10 6\n0 recv -333 3 10 6\n"
                                     "1 send 0 3 10 6\n2 recv 0 9 10 6\n2 send 0 3 10 6\n");
  EXPECT_EQ(m.deadlock, "");
  EXPECT_EQ(m.warnings, "");
  Outcome b = check("anysource-barrier", "0 recv -333 3 10 6\n0 barrier\n0 recv -333 3 10 6\n"
                                         "1 send 0 3 10 6\n1 barrier\n2 barrier\n2 send 0 3 10 6\n");
  EXPECT_EQ(b.deadlock, "");
  EXPECT_EQ(b.warnings, "");
  // an irecv not yet waited for when rank 0 sends to rank 2: rank 2's message can still be the one it takes
  Outcome i = check("anysource-irecv", "0 irecv -333 3 10 6\n0 send 2 9 10 6\n0 wait -333 0 3\n"
                                       "0 recv -333 3 10 6\n1 send 0 3 10 6\n2 recv 0 9 10 6\n2 send 0 3 10 6\n");
  EXPECT_EQ(i.deadlock, "");
  EXPECT_NE(i.warnings.find("1 receive(s) from any source could take another message"), std::string::npos)
      << i.warnings;
  // a bcast tells its members what its root knew, not the other way round: rank 2, the root, sends after the bcast
  // without knowing that rank 0's receive completed
  Outcome c = check("anysource-bcast", "0 recv -333 3 10 6\n0 bcast 10 2\n0 recv -333 3 10 6\n"
                                       "1 send 0 3 10 6\n1 bcast 10 2\n2 bcast 10 2\n2 send 0 3 10 6\n");
  EXPECT_EQ(c.deadlock, "");
  EXPECT_NE(c.warnings.find("1 receive(s) from any source could take another message"), std::string::npos)
      << c.warnings;
}

// A small bcast's root may leave before the others arrive: the root's rendez-vous send then meets its receive.
// With synchronising collectives it deadlocks; with the members waiting only for the root, it completes: written,
// with a warning. An allreduce needs every member: a deadlock whatever the algorithm.
TEST(ProxyCheck, CollectivesThatNeedNotSynchronise)
{
  Outcome b = check("bcast-early", "0 bcast 10 0\n0 send 1 0 100000 6\n1 recv 0 0 100000 6\n1 bcast 10 0\n");
  EXPECT_EQ(b.deadlock, "");
  EXPECT_EQ(b.error, "");
  EXPECT_NE(b.warnings.find("tit-trace: warning: the trace completes only if a collective lets some members leave "
                            "before every member arrived"),
            std::string::npos)
      << b.warnings;
  EXPECT_NE(b.warnings.find("rank 0 blocked in " + (ts::scratch_dir() / "bcast-early.txt").string() +
                            ":1: 0 bcast 10 0\n    waits for collective number 1 on MPI_COMM_WORLD, which rank(s) 1 "
                            "have not reached"),
            std::string::npos)
      << b.warnings;
  // a bcast of 65536 bytes or more is rendez-vous: its root waits for the others
  Outcome large = check("bcast-large", "0 bcast 100000 0\n0 send 1 0 100000 6\n1 recv 0 0 100000 6\n1 bcast 100000 0\n");
  EXPECT_NE(large.deadlock.find("rank 0 blocked in"), std::string::npos) << large.warnings;
  EXPECT_EQ(large.warnings, "");
  // a reduce's other members leave at once; its root waits for them all
  Outcome r = check("reduce-early", "1 reduce 10 0 0\n1 send 0 0 100000 6\n0 recv 1 0 100000 6\n0 reduce 10 0 0\n");
  EXPECT_EQ(r.deadlock, "");
  EXPECT_NE(r.warnings.find("completes only if a collective lets some members leave"), std::string::npos);
  Outcome root = check("reduce-root", "0 reduce 10 0 0\n0 send 1 0 100000 6\n1 recv 0 0 100000 6\n1 reduce 10 0 0\n");
  EXPECT_NE(root.deadlock.find("rank 0 blocked in"), std::string::npos) << root.warnings;
  Outcome a = check("allreduce-early", "0 allreduce 10 0\n0 send 1 0 100000 6\n1 recv 0 0 100000 6\n1 allreduce 10 0\n");
  EXPECT_NE(a.deadlock.find("error: the trace deadlocks"), std::string::npos);
  EXPECT_EQ(a.warnings, "");
  // a scan's member waits for the lower ranks only: rank 0 leaves at once
  Outcome s = check("scan-early", "0 scan 10 0\n0 send 1 0 100000 6\n1 recv 0 0 100000 6\n1 scan 10 0\n");
  EXPECT_EQ(s.deadlock, "");
  Outcome s2 = check("scan-late", "1 scan 10 0\n1 send 0 0 100000 6\n0 recv 1 0 100000 6\n0 scan 10 0\n");
  EXPECT_NE(s2.deadlock, "");
  // a bcast some member never calls stays a deadlock, even though the root could leave it
  Outcome u = check("bcast-unbalanced", "0 bcast 10 0\n0 bcast 10 0\n1 bcast 10 0\n");
  EXPECT_NE(u.deadlock.find("waits for collective number 2 on MPI_COMM_WORLD, which rank(s) 1 (ended its trace) have "
                            "not reached"),
            std::string::npos)
      << u.deadlock;
}

TEST(ProxyCheck, UnmatchedReceiveNamesItsSource)
{
  Outcome o = check("unmatched", "0 send 1 5 10 6\n1 recv 0 5 10 6\n1 recv 0 5 10 6\n");
  EXPECT_NE(o.deadlock.find("unmatched.txt:3: 1 recv 0 5 10 6\n    waits for a message from rank 0 with tag 5 on "
                            "MPI_COMM_WORLD"),
            std::string::npos)
      << o.deadlock;
}

TEST(ProxyCheck, UnfinishedCollectiveNamesTheMissingRank)
{
  Outcome o = check("colls", "0 barrier\n0 barrier\n1 barrier\n");
  EXPECT_NE(o.deadlock.find("rank 0 blocked in " + (ts::scratch_dir() / "colls.txt").string() +
                            ":2: 0 barrier\n    waits for collective number 2 on MPI_COMM_WORLD, which rank(s) 1 "
                            "(ended its trace) have not reached"),
            std::string::npos)
      << o.deadlock;
}

TEST(ProxyCheck, CollectivesInDifferentOrdersOnTwoCommunicators)
{
  // ranks 0 and 1 share a duplicate of MPI_COMM_WORLD (handle 1) and call the collectives in opposite orders
  Outcome o = check("order", "0 comm_dup 0 1\n0 barrier\n0 barrier comm=1\n"
                             "1 comm_dup 0 1\n1 barrier comm=1\n1 barrier\n");
  EXPECT_NE(o.deadlock.find("waits for collective number 2 on MPI_COMM_WORLD, which rank(s) 1 have not reached"),
            std::string::npos)
      << o.deadlock;
}

TEST(ProxyCheck, AWaitNamesTheRequestOfItsOwnCommunicator)
{
  // Rank 0 posts receives of the same ranks and tag on two duplicates of MPI_COMM_WORLD (handles 1 and 2) and waits
  // for the one on 2 first: the message on 1 comes only after rank 0's next send. By trace::named_request (the
  // replay's rule) the wait takes the request on 2 and the trace completes; a wait taking the oldest request of
  // (1, 0, 0) whatever its communicator, as the checker and the proxy's runtime once did, deadlocks here.
  Outcome o = check("own-comm", "0 comm_dup 0 1\n0 comm_dup 0 2\n0 irecv 1 0 8 6 comm=1\n0 irecv 1 0 8 6 comm=2\n"
                                "0 wait 1 0 0 comm=2\n0 send 1 0 8 6\n0 wait 1 0 0 comm=1\n"
                                "1 comm_dup 0 1\n1 comm_dup 0 2\n1 send 0 0 8 6 comm=2\n1 recv 0 0 8 6\n"
                                "1 send 0 0 8 6 comm=1\n");
  EXPECT_EQ(o.deadlock, "");
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.warnings, "");
  // A wait naming no communicator takes the world's request first, then any communicator's.
  Outcome w = check("no-comm", "0 comm_dup 0 1\n0 irecv 1 0 8 6 comm=1\n0 wait 1 0 0\n"
                               "1 comm_dup 0 1\n1 send 0 0 8 6 comm=1\n");
  EXPECT_EQ(w.deadlock, "");
  EXPECT_EQ(w.warnings, "");
}

TEST(ProxyCheck, SubCommunicatorImbalanceDeadlocks)
{
  // comm_split into {0, 1} (handle 1 on both); rank 1 receives twice on it what rank 0 sends once
  Outcome o = check("subcomm", "0 comm_split 0 0 0 1\n0 send 1 5 10 6 comm=1\n"
                               "1 comm_split 0 0 1 1\n1 recv 0 5 10 6 comm=1\n1 recv 0 5 10 6 comm=1\n");
  EXPECT_NE(o.deadlock.find("waits for a message from rank 0 with tag 5 on the communicator of world ranks {0, 1}"),
            std::string::npos)
      << o.deadlock;
  // the same message on MPI_COMM_WORLD does not match a receive on the sub-communicator
  Outcome w = check("subcomm-world", "0 comm_split 0 0 0 1\n0 send 1 5 10 6\n0 send 1 5 10 6 comm=1\n"
                                     "1 comm_split 0 0 1 1\n1 recv 0 5 10 6 comm=1\n1 recv 0 5 10 6 comm=1\n");
  EXPECT_NE(w.deadlock, "");
  EXPECT_NE(w.deadlock.find("rank 1 blocked in"), std::string::npos) << w.deadlock;
}

TEST(ProxyCheck, UnreceivedMessagesWarnWithTheirCommunicator)
{
  Outcome o = check("unreceived", "0 comm_split 0 0 0 1\n0 send 1 5 10 6 comm=1\n0 send 1 5 10 6\n"
                                  "1 comm_split 0 0 1 1\n");
  EXPECT_EQ(o.deadlock, "");
  EXPECT_EQ(o.warnings, "tit-trace: warning: rank 0 sends 1 message(s) with tag 5 to rank 1 that it never receives\n"
                        "tit-trace: warning: rank 0 sends 1 message(s) with tag 5 to rank 1 that it never receives "
                        "(on the communicator of world ranks {0, 1})\n");
}

TEST(ProxyCheck, PendingRendezVousAtTheEndDeadlocks)
{
  // the proxy waits for its pending requests at the end: an isend nobody receives never completes
  Outcome o = check("pending", "0 isend 1 5 100000 6\n1 init\n");
  EXPECT_NE(o.deadlock.find("rank 0 blocked in the end of its trace"), std::string::npos) << o.deadlock;
  EXPECT_NE(o.deadlock.find("waits for rank 1 to receive its message of 100000 bytes with tag 5"), std::string::npos)
      << o.deadlock;
}

TEST(ProxyCheck, WaitsNamingNoRequestAreWarned)
{
  Outcome o = check("nowait", "0 wait 0 1 5\n0 test 0 1 5\n0 wait 0 1 5\n");
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.deadlock, "");
  EXPECT_EQ(o.warnings, "tit-trace: warning: rank 0 waits or tests 3 time(s) for a request it has not pending (first "
                        "at " + (ts::scratch_dir() / "nowait.txt").string() + ":1: 0 wait 0 1 5); the proxy does "
                        "nothing there, as tit-replay\n");
}

TEST(ProxyCheck, SimGridNamesNonblockingCollectivesByANegativeTag)
{
  // SimGrid's tracer: `wait -333 -333 -3335` after an ibcast waits for the collective (else it would be warned)
  Outcome o = check("ibcast", "0 ibcast 99984 0 6\n0 wait -333 -333 -3335\n0 barrier\n"
                              "1 ibcast 99984 0 6\n1 barrier\n1 wait -333 -333 -3335\n");
  EXPECT_EQ(o.deadlock, "");
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.warnings, "");
}

TEST(ProxyCheck, WhatTheProxyCannotRun)
{
  EXPECT_NE(check("start", "0 Start 1 5 10\n").error.find(":1: error: SimGrid's Start and Startall lines name too "
                                                           "little"),
            std::string::npos);
  EXPECT_NE(check("counts", "0 comm_split 0 0 0 1 3\n0 gatherv 1 1 1 1 0 comm=1\n1 comm_split 0 0 1 1 3\n"
                            "1 gatherv 1 1 1 1 0 comm=1\n")
                .error.find(":4: error: 3 counts for a communicator of 2 ranks (communicator 1 of this rank)"),
            std::string::npos);
  EXPECT_NE(check("nocomm", "0 barrier comm=4\n").error.find("communicator 4 does not exist on rank 0"),
            std::string::npos);
  EXPECT_NE(check("disagree", "0 bcast 10 0 6\n1 bcast 10 1 6\n").error.find("ranks disagree on their collective "
                                                                             "number 1 on MPI_COMM_WORLD"),
            std::string::npos);
}

TEST(ProxyCheck, TracedProgramsComplete)
{
  // the golden traces of our tracer's test programs (every call kind, communicators): none deadlocks
  // (their nonblocking collectives' waits are normalised to `wait NBC`: written back as the tracer writes them)
  for (const auto& e : std::filesystem::directory_iterator(TIT_TEST_DATA_DIR "/../tracer/golden")) {
    std::ifstream in(e.path());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t at = text.find(" wait NBC\n"); at != std::string::npos; at = text.find(" wait NBC\n", at))
      text.replace(at, 9, " wait -333 -333 -1");
    auto path = ts::write_file(ts::scratch_dir() / e.path().filename(), text);
    std::ostringstream warnings;
    EXPECT_NO_THROW(check_trace(path, {65536}, warnings)) << e.path();
  }
}

} // namespace
} // namespace tit::tracetool

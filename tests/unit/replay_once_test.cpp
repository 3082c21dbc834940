// replay::run in one process: the first replay runs; a second one is refused with a message (SimGrid cannot
// create a second engine in a process) instead of crashing. Runs in a child process of its own.
#include "replay/child.hpp"
#include "replay/replayer.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

std::string root() { return TIT_TEST_DATA_DIR "/../.."; }

TEST(ReplayOnce, SecondRunInAProcessIsRefused)
{
  auto out = tit::replay::in_child([] {
    tit::replay::Options o;
    o.platform = root() + "/platforms/small-hetero.xml";
    o.hostfile = root() + "/platforms/small-hetero.hosts";
    o.traces = root() + "/traces/ring4";
    o.log = {"root.thresh:critical"};
    // Thread contexts, as the e2e tests use under the sanitizers: at the end of the run SimGrid unwinds the ranks
    // that wait for their last buffered sends (daemons), which AddressSanitizer cannot follow on raw contexts.
    o.cfg = {"contexts/factory:thread"};
    auto first = tit::replay::run(o);
    auto second = tit::replay::run(o);
    return std::to_string(first.exit_code) + " " + std::to_string(first.simulated_time > 0) + " " +
           std::to_string(second.exit_code) + " " + second.error;
  });
  ASSERT_TRUE(out); // the child ended and answered
  EXPECT_EQ(out->substr(0, 6), "0 1 2 ");
  EXPECT_NE(out->find("one replay per process"), std::string::npos) << *out;
}

} // namespace

#include "replay/placement.hpp"
#include "trace_test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using tit::replay::InputError;

namespace {

fs::path write_temp(const std::string& name, const std::string& content)
{
  auto p = tit::trace::test_support::scratch_dir() / name; // removed at the process' exit
  std::ofstream(p) << content;
  return p;
}

std::string error_of(auto&& fn)
{
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(Hostfile, RoundRobinOverUnrolledSlots)
{
  auto f = write_temp("hosts", "# comment\nA:2\n\nB\n");
  auto p = tit::replay::read_hostfile(f, 5);
  ASSERT_EQ(p.hosts, (std::vector<std::string>{"A", "A", "B", "A", "A"}));
  EXPECT_EQ(tit::replay::read_hostfile(f, 2).hosts, (std::vector<std::string>{"A", "A"}));
}

TEST(Hostfile, Errors)
{
  auto bad = write_temp("bad-hosts", "A\nB:x\n");
  auto msg = error_of([&] { tit::replay::read_hostfile(bad, 2); });
  EXPECT_NE(msg.find("bad-hosts:2: error:"), std::string::npos) << msg;
  EXPECT_NE(error_of([&] { tit::replay::read_hostfile(write_temp("empty", "# nothing\n"), 2); }).find("no host"),
            std::string::npos);
  EXPECT_NE(error_of([] { tit::replay::read_hostfile("/nonexistent/hosts", 2); }).find("cannot open"),
            std::string::npos);
  EXPECT_NE(error_of([&] { tit::replay::read_hostfile(bad, 0); })
                .find("error: 0 ranks to place on hostfile '" + bad.string() + "': expected at least 1"),
            std::string::npos);
}

TEST(Deployment, ActorsAndProcesses)
{
  auto f = write_temp("d.xml", R"(<?xml version='1.0'?>
<platform version="4.1">
  <actor host="h1" function="1"/>
  <process host="h0" function="p0"/>
  <actor host="h2" function="rank2"><argument value="x"/></actor>
</platform>)");
  auto p = tit::replay::read_deployment(f);
  EXPECT_EQ(p.hosts, (std::vector<std::string>{"h0", "h1", "h2"}));
}

TEST(Deployment, Errors)
{
  auto missing = write_temp("gap.xml", R"(<platform><actor host="a" function="0"/><actor host="b" function="2"/></platform>)");
  EXPECT_NE(error_of([&] { tit::replay::read_deployment(missing); }).find("rank 1 is not deployed"), std::string::npos);
  auto twice = write_temp("twice.xml", R"(<platform><actor host="a" function="0"/><actor host="b" function="0"/></platform>)");
  EXPECT_NE(error_of([&] { tit::replay::read_deployment(twice); }).find("deployed twice"), std::string::npos);
  auto badxml = write_temp("bad.xml", "<platform><actor host=\"a\"");
  EXPECT_NE(error_of([&] { tit::replay::read_deployment(badxml); }).find("bad XML"), std::string::npos);
  auto nofn = write_temp("nofn.xml", R"(<platform><actor host="a" function="main"/></platform>)");
  EXPECT_NE(error_of([&] { tit::replay::read_deployment(nofn); }).find("must be the rank number"), std::string::npos);
  EXPECT_NE(error_of([] { tit::replay::read_deployment("/nonexistent.xml"); }).find("cannot open deployment"),
            std::string::npos);
}

TEST(Hostfile, HugeSlotCountsAreNotUnrolled)
{
  // Found by fuzz-placement: "host:N" with a large N used to allocate N host names; and slots never make ranks
  // (a hostfile read without a rank count unrolled up to 2^24 names: 17 s and 850 MB per input under ASan).
  auto f = write_temp("huge-hosts", "A:1000000000\nB:2147483647\n");
  EXPECT_EQ(tit::replay::read_hostfile(f, 3).hosts, (std::vector<std::string>{"A", "A", "A"}));
}

// Protocol rules of the simulated MPI layer, each checked on a tiny simulation with hand-computed times.
// SimGrid has one engine per process, so every scenario runs in a child process (replay::in_child) and returns
// what it printed.
#include "model/params.hpp"
#include "mpi/world.hpp"
#include "replay/child.hpp"

#include <gtest/gtest.h>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <smpi/smpi.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

namespace s4u = simgrid::s4u;
using tit::mpi::Rank;

namespace {

// Two 1 flop/s hosts, one 1000 B/s link of 1 s latency; with the options below a message of S payload
// bytes takes 1 + (S + 16) / 1000 s.
constexpr const char* kPlatform = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="A" speed="1f"/><host id="B" speed="1f"/>
    <link id="l" bandwidth="1000Bps" latency="1s"/>
    <route src="A" dst="B"><link_ctn id="l"/></route>
  </zone>
</platform>)";

using Body = std::function<void(Rank&)>;

/// What the ranks' bodies printed (print below), in the child process that runs them.
std::string printed;

/// Runs rank 0 and rank 1 with the given bodies and extra --cfg options; returns what the bodies printed.
std::string simulate(const std::vector<std::string>& cfg, Body rank0, Body rank1)
{
  auto out = tit::replay::in_child([&] {
    auto platform = std::string("/tmp/tit-protocol-") + std::to_string(getpid()) + ".xml";
    std::ofstream(platform) << kPlatform;
    std::vector<std::string> args{"test",
                                  "--cfg=network/model:SMPI",
                                  "--cfg=smpi/bw-factor:0:1",
                                  "--cfg=smpi/lat-factor:0:1",
                                  "--cfg=network/crosstraffic:0",
                                  "--cfg=network/TCP-gamma:1e12",
                                  "--log=root.thresh:critical"};
    args.insert(args.end(), cfg.begin(), cfg.end());
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(a.data());
    int argc = static_cast<int>(argv.size());
    smpi_init_options();
    s4u::Engine engine(&argc, argv.data());
    engine.load_platform(platform);
    std::remove(platform.c_str()); // read: nothing is left behind, whatever the run does
    tit::mpi::World world(tit::model::MpiParams::from_config(), 2);
    Rank r0(world, 0, engine.host_by_name("A"));
    Rank r1(world, 1, engine.host_by_name("B"));
    // As the replay's rank actors: a rank lets its buffered messages arrive before its actor ends.
    world.prepare({s4u::Actor::create("0", engine.host_by_name("A"), [&] { rank0(r0); r0.drain_buffered(); }),
                   s4u::Actor::create("1", engine.host_by_name("B"), [&] { rank1(r1); r1.drain_buffered(); })});
    engine.run();
    return printed;
  });
  return out ? *out : std::string("[child failed]");
}

void print(const char* label)
{
  char text[128];
  std::snprintf(text, sizeof text, "%s=%.9f ", label, s4u::Engine::get_clock());
  printed += text;
}

} // namespace

TEST(Protocol, DetachedThresholdIsStrict)
{
  // 65535 B is buffered: the sender goes on at once. 65536 B is rendez-vous: the sender waits for the
  // transfer, which starts when the receiver posts at t=10 and takes 1 + 65552/1000 s.
  auto out = simulate(
      {},
      [](Rank& r) {
        r.send(1, 0, 65535);
        print("buffered");
        r.send(1, 1, 65536);
        print("rendezvous");
      },
      [](Rank& r) {
        s4u::this_actor::sleep_for(10);
        r.recv(0, 1, 65536);
        r.recv(0, 0, 65535);
      });
  EXPECT_EQ(out, "buffered=0.000000000 rendezvous=76.552000000 ");
}

TEST(Protocol, EagerMessagesTravelBeforeTheReceiveIsPosted)
{
  auto receive_at_10 = [](Rank& r) {
    s4u::this_actor::sleep_for(10);
    r.recv(0, 0, 484);
    print("received");
  };
  auto send = [](Rank& r) { r.send(1, 0, 484); };
  // 484 + 16 B: 1.5 s of transfer. Regular: it starts when the receive is posted at 10.
  EXPECT_EQ(simulate({}, send, receive_at_10), "received=11.500000000 ");
  // Eager: it starts at once and is over when the receive is posted.
  EXPECT_EQ(simulate({"--cfg=smpi/async-small-thresh:1000"}, send, receive_at_10), "received=10.000000000 ");
  // At the eager threshold the message is regular again.
  EXPECT_EQ(simulate({"--cfg=smpi/async-small-thresh:484"}, send, receive_at_10), "received=11.500000000 ");
}

TEST(Protocol, OverheadsApplyToTheirOperationsOnly)
{
  std::vector<std::string> ovh{"--cfg=smpi/os:0:2:0", "--cfg=smpi/ois:0:3:0", "--cfg=smpi/or:0:5:0"};
  // os for a buffered blocking send; or when the receive of a buffered message completes.
  EXPECT_EQ(simulate(
                ovh, [](Rank& r) { r.send(1, 0, 984); print("sent"); },
                [](Rank& r) {
                  r.recv(0, 0, 984);
                  print("received");
                }),
            "sent=2.000000000 received=9.000000000 ");
  // A rendez-vous blocking send pays no os, and its receive no or.
  EXPECT_EQ(simulate(
                ovh, [](Rank& r) { r.send(1, 0, 99984); print("sent"); },
                [](Rank& r) {
                  r.recv(0, 0, 99984);
                  print("received");
                }),
            "sent=101.000000000 received=101.000000000 ");
  // ois for every isend, rendez-vous included.
  EXPECT_EQ(simulate(
                ovh,
                [](Rank& r) {
                  auto req = r.isend(1, 0, 99984);
                  print("posted");
                  r.wait(req);
                },
                [](Rank& r) { r.recv(0, 0, 99984); }),
            "posted=3.000000000 ");
}

TEST(Protocol, TestInjectsAGrowingTimeThatResetsOnSuccess)
{
  auto out = simulate(
      {"--cfg=smpi/test:0.5"},
      [](Rank& r) {
        auto req = r.irecv(1, 0, 984); // arrives at 1 + 2 = 3
        while (not r.test(req))
          print("failed");
        print("done");
        auto again = r.irecv(1, 1, 984);
        r.test(again);
        print("next");
      },
      [](Rank& r) {
        s4u::this_actor::sleep_for(1);
        r.send(0, 0, 984);
        r.send(0, 1, 984);
      });
  // Tests sleep 0.5, 1.0, 1.5 (failing at 0.5 and 1.5), then 1.5 succeeds at 3.0 >= 3; the counter resets:
  // the next test sleeps 0.5 again.
  EXPECT_EQ(out, "failed=0.500000000 failed=1.500000000 done=3.000000000 next=3.500000000 ");
}

TEST(Protocol, MessagesOfAKeyMatchInOrder)
{
  // Two messages with the same key: the first receive gets the first (small) message, so it ends first.
  auto out = simulate(
      {"--cfg=smpi/send-is-detached-thresh:1000000"},
      [](Rank& r) {
        r.send(1, 7, 84);
        r.send(1, 7, 9984);
      },
      [](Rank& r) {
        auto a = r.irecv(0, 7, 9984);
        auto b = r.irecv(0, 7, 9984);
        r.wait(a);
        print("first");
        r.wait(b);
        print("second");
      });
  // 100 B: 1.1 s; 10000 B: 11 s, both transfers sharing the link from t=0 (84 B posted first).
  ASSERT_NE(out.find("first="), std::string::npos) << out;
  double first = std::stod(out.substr(out.find("first=") + 6));
  double second = std::stod(out.substr(out.find("second=") + 7));
  EXPECT_LT(first, second) << out;
  EXPECT_LT(first, 2.0) << out;
}

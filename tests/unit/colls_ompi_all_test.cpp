// Message schedules of the allreduce, barrier and reduce_scatter algorithms of the Open MPI selector, recorded
// without an engine; the small exact schedules were derived by hand from SimGrid 3.32's sources.
#include "coll_recorder.hpp"
#include "colls/ompi_all.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using tit::colls::Algorithm;
using tit::colls::Call;
using Ops = std::vector<std::string>;

namespace {

using namespace tit::colls::testing;

struct Named {
  const char* name;
  Algorithm algorithm;
  bool exact = true; ///< receives posted with the message's size (else: with the largest possible one)
};

/// Every message sent is received, in order per (source, destination, tag), by a receive of the same size or,
/// unless `exact`, a larger one. Reports the first mismatch only. Messages a rank sends itself are left out:
/// the Open MPI bcast that redbcast calls sends one, never received, on a single rank (as SimGrid's does).
void expect_received(const std::vector<Recorder>& ranks, bool exact, const std::string& what)
{
  std::map<std::tuple<int, int, int>, std::vector<double>> sent, received;
  for (auto const& r : ranks) {
    for (auto const& [key, sizes] : r.sent)
      if (std::get<0>(key) != std::get<1>(key))
        sent[key] = sizes;
    for (auto const& [key, sizes] : r.received)
      if (std::get<0>(key) != std::get<1>(key))
        received[key] = sizes;
  }
  std::string problem;
  for (auto const& [key, sizes] : sent) {
    auto [src, dst, tag] = key;
    auto it = received.find(key);
    std::size_t got = it == received.end() ? 0 : it->second.size();
    if (got != sizes.size()) {
      problem = fmt::format("{} -> {} tag {}: {} sends, {} receives", src, dst, tag, sizes.size(), got);
      break;
    }
    for (std::size_t i = 0; i < sizes.size() && problem.empty(); ++i)
      if (exact ? it->second[i] != sizes[i] : it->second[i] < sizes[i])
        problem = fmt::format("{} -> {} tag {}: message {} of {} B received as {} B", src, dst, tag, i, sizes[i],
                              it->second[i]);
    if (not problem.empty())
      break;
  }
  for (auto const& [key, sizes] : received)
    if (problem.empty() && sent.find(key) == sent.end())
      problem = fmt::format("{} -> {} tag {}: {} receives, no send", std::get<0>(key), std::get<1>(key),
                            std::get<2>(key), sizes.size());
  EXPECT_EQ(problem, "") << what;
}

std::vector<double> ramp(int n, double base) // rank i keeps (i + 1) x base bytes
{
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = base * (i + 1);
  return v;
}

} // namespace

TEST(OmpiColls, EverySendMeetsItsReceive)
{
  const std::vector<Named> buffer{
      {"allreduce_ompi", tit::colls::allreduce_ompi, false},
      {"allreduce_lr", tit::colls::allreduce_lr, false},
      {"allreduce_rdb", tit::colls::allreduce_rdb},
      {"allreduce_rab_rdb", tit::colls::allreduce_rab_rdb},
      {"allreduce_ompi_ring_segmented", tit::colls::allreduce_ompi_ring_segmented, false},
      {"allreduce_redbcast", tit::colls::allreduce_redbcast, false},
      {"barrier_ompi", tit::colls::barrier_ompi},
      {"barrier_ompi_recursive_doubling", tit::colls::barrier_ompi_recursive_doubling},
      {"barrier_ompi_bruck", tit::colls::barrier_ompi_bruck},
      {"barrier_ompi_tree", tit::colls::barrier_ompi_tree},
  };
  const std::vector<Named> vector{
      {"reducescatter_ompi", tit::colls::reducescatter_ompi, false},
      {"reducescatter_ompi_recursive_halving", tit::colls::reducescatter_ompi_recursive_halving},
      {"reducescatter_ompi_ring", tit::colls::reducescatter_ompi_ring, false},
      {"reducescatter_ompi_butterfly", tit::colls::reducescatter_ompi_butterfly},
  };
  for (int n = 1; n <= 33; ++n)
    for (double datatype : {1.0, 4.0, 8.0})
      // element counts: 0, 1, fewer than ranks, a remainder, bands of the decisions, several 1 MiB segments
      for (double elements : {0.0, 1.0, 3.0, 7.0, 37.0, 1000.0, 12345.0, 40000.0, 300001.0, 2.0 * 1048576 + 5}) {
        Call call{.size = n, .bytes = elements * datatype, .datatype_size = datatype};
        for (auto const& a : buffer)
          expect_received(run_all(a.algorithm, call), a.exact,
                          fmt::format("{} n={} {}x{} B", a.name, n, elements, datatype));
        std::vector<double> equal(static_cast<std::size_t>(n), elements * datatype);
        auto unequal = ramp(n, elements * datatype);
        auto some_empty = unequal;
        some_empty[0] = 0;
        for (auto const* counts : {&equal, &unequal, &some_empty}) {
          Call rs{.size = n, .recv_counts = counts, .datatype_size = datatype};
          for (auto const& a : vector)
            expect_received(run_all(a.algorithm, rs), a.exact,
                            fmt::format("{} n={} {}x{} B", a.name, n, elements, datatype));
        }
      }
  expect_matched(run_all(tit::colls::barrier_ompi_two_procs, Call{.size = 2}), "two_procs");
}

TEST(OmpiColls, BarrierRecursiveDoublingFoldsTheRanksAbovePowerOfTwo)
{
  auto r = run_all(tit::colls::barrier_ompi_recursive_doubling, Call{.size = 3});
  EXPECT_EQ(r[0].ops, (Ops{"recv 2 0", "isend 1 0", "irecv 1 0", "waitall 2", "send 2 0"}));
  EXPECT_EQ(r[1].ops, (Ops{"isend 0 0", "irecv 0 0", "waitall 2"}));
  EXPECT_EQ(r[2].ops, (Ops{"isend 0 0", "irecv 0 0", "waitall 2"}));
}

TEST(OmpiColls, BarrierDecisionBySize)
{
  EXPECT_EQ(run_all(tit::colls::barrier_ompi, Call{.size = 3})[2].ops.front(), "isend 0 0"); // recursive doubling
  EXPECT_EQ(run_all(tit::colls::barrier_ompi, Call{.size = 5})[3].ops, (Ops{"send 0 0", "recv 0 0"})); // linear
  // 100 ranks: Bruck, 7 sendrecvs; 300 ranks: tree, rank 1 sends to 0 then waits for it.
  EXPECT_EQ(run_all(tit::colls::barrier_ompi, Call{.size = 100})[0].ops.size(), 7U * 3U);
  EXPECT_EQ(run_all(tit::colls::barrier_ompi, Call{.size = 300})[1].ops, (Ops{"send 0 0", "recv 0 0"}));
}

TEST(OmpiColls, BarrierBruckAndTree)
{
  auto b = run_all(tit::colls::barrier_ompi_bruck, Call{.size = 5});
  EXPECT_EQ(b[0].ops, (Ops{"isend 1 0", "irecv 4 0", "waitall 2", "isend 2 0", "irecv 3 0", "waitall 2", "isend 4 0",
                           "irecv 1 0", "waitall 2"}));
  auto t = run_all(tit::colls::barrier_ompi_tree, Call{.size = 5});
  EXPECT_EQ(t[0].ops, (Ops{"recv 1 0", "recv 2 0", "recv 4 0", "send 4 0", "send 2 0", "send 1 0"}));
  EXPECT_EQ(t[2].ops, (Ops{"recv 3 0", "send 0 0", "recv 0 0", "send 3 0"}));
  EXPECT_EQ(t[4].ops, (Ops{"send 0 0", "recv 0 0"}));
  expect_matched(t, "tree");
}

TEST(OmpiColls, LogicalRingThenRemainderByTheDecision)
{
  // 7 doubles on 3 ranks: blocks of 2 elements, 2 + 2 ring steps; the remaining element by the decision (8 B
  // on 3 ranks: recursive doubling, rank 0 folded into rank 1).
  Call call{.size = 3, .bytes = 56, .datatype_size = 8};
  auto r = run_all(tit::colls::allreduce_lr, call);
  Ops ring;
  for (int i = 0; i < 4; ++i)
    ring.insert(ring.end(), {"isend 1 16", "irecv 2 16", "waitall 2"});
  Ops rank0 = ring;
  rank0.insert(rank0.end(), {"send 1 8", "recv 1 8"});
  EXPECT_EQ(r[0].ops, rank0);
  EXPECT_EQ(r[1].ops.back(), "send 0 8");
  expect_matched(r, "lr");
}

TEST(OmpiColls, RingSegmentedPipelinesOneMebibyteSegments)
{
  // 2 x 262144 + 3 doubles on 2 ranks: segments of 131072 elements, 2 phases; blocks of 262146 and 262145.
  Call call{.size = 2, .bytes = (2 * 262144 + 3) * 8.0, .datatype_size = 8};
  auto r = run_all(tit::colls::allreduce_ompi_ring_segmented, call);
  EXPECT_EQ(r[0].ops, (Ops{"irecv 1 1048584", "send 1 1048584", "wait 1", "irecv 1 1048584", "send 1 1048584",
                           "wait 1", "isend 1 2097160", "irecv 1 2097168", "waitall 2"}));
  EXPECT_EQ(r[1].ops, (Ops{"irecv 0 1048584", "send 0 1048584", "wait 0", "irecv 0 1048584", "send 0 1048576",
                           "wait 0", "isend 0 2097168", "irecv 0 2097168", "waitall 2"}));
}

TEST(OmpiColls, RabenseifnerHalvesThenDoubles)
{
  Call call{.size = 4, .bytes = 64, .datatype_size = 8}; // 2 doubles per block
  auto r = run_all(tit::colls::allreduce_rab_rdb, call);
  EXPECT_EQ(r[0].ops, (Ops{"isend 1 32", "irecv 1 32", "waitall 2", "isend 2 16", "irecv 2 16", "waitall 2",
                           "isend 2 16", "irecv 2 16", "waitall 2", "isend 1 32", "irecv 1 32", "waitall 2"}));
  // 5 ranks: rank 0 folds into rank 1 first, and gets the result from it at the end.
  auto f = run_all(tit::colls::allreduce_rab_rdb, Call{.size = 5, .bytes = 80, .datatype_size = 8});
  EXPECT_EQ(f[0].ops, (Ops{"send 1 80", "recv 1 80"}));
  EXPECT_EQ(f[1].ops.front(), "recv 0 80");
  EXPECT_EQ(f[1].ops.back(), "send 0 80");
}

TEST(OmpiColls, AllreduceDecisionByCommunicatorAndBytes)
{
  auto first = [](double bytes, int n) {
    return run_all(tit::colls::allreduce_ompi, Call{.size = n, .bytes = bytes, .datatype_size = 8})[n - 1].ops.front();
  };
  EXPECT_EQ(first(800, 3), "isend 1 800");       // recursive doubling: rank 2 (newrank 1) with rank 1
  EXPECT_EQ(first(4096, 3), "isend 0 1360");     // ring: blocks of 170 doubles, rank 2 sends to 0
  EXPECT_EQ(first(100000, 3), "isend 0 33328");  // segmented ring below size x 1 MiB: the plain ring
  EXPECT_EQ(first(300000, 3), "isend 1 150000"); // Rabenseifner: rank 2 halves with rank 1
  EXPECT_EQ(first(800, 8), "isend 6 800");       // recursive doubling: rank 7 XOR 1 first
}

TEST(OmpiColls, ReduceScatterRingHalvingAndButterfly)
{
  std::vector<double> counts{8, 16, 24};
  Call call{.size = 3, .recv_counts = &counts, .datatype_size = 8};
  auto ring = run_all(tit::colls::reducescatter_ompi_ring, call);
  EXPECT_EQ(ring[0].ops, (Ops{"irecv 2 24", "send 1 24", "irecv 2 24", "wait 2", "send 1 16", "wait 2"}));
  auto halving = run_all(tit::colls::reducescatter_ompi_recursive_halving, call);
  EXPECT_EQ(halving[0].ops, (Ops{"send 1 48", "recv 1 8"}));
  EXPECT_EQ(halving[1].ops, (Ops{"recv 0 48", "irecv 2 24", "send 2 24", "wait 2", "send 0 8"}));
  auto butterfly = run_all(tit::colls::reducescatter_ompi_butterfly, call);
  EXPECT_EQ(butterfly[0].ops, (Ops{"send 1 48", "recv 1 8"}));
  EXPECT_EQ(butterfly[1].ops, (Ops{"recv 0 48", "isend 2 24", "irecv 2 24", "waitall 2", "send 0 8"}));
  EXPECT_EQ(butterfly[2].ops, (Ops{"isend 1 24", "irecv 1 24", "waitall 2"}));
  // Decision: 48 B on 3 ranks: ring; 48 B on 5 ranks: recursive halving; 4 B on 5 ranks: reduce + scatterv.
  EXPECT_EQ(run_all(tit::colls::reducescatter_ompi, call)[0].ops, ring[0].ops);
  std::vector<double> five{8, 8, 8, 8, 16};
  EXPECT_EQ(run_all(tit::colls::reducescatter_ompi, Call{.size = 5, .recv_counts = &five})[0].ops.front(), "send 1 48");
  std::vector<double> tiny{1, 1, 1, 1, 0};
  EXPECT_EQ(run_all(tit::colls::reducescatter_ompi, Call{.size = 5, .recv_counts = &tiny})[0].ops,
            run_all(tit::colls::reducescatter_smpi, Call{.size = 5, .recv_counts = &tiny})[0].ops);
}

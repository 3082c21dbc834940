// Message schedules of the collective algorithms, recorded without an engine: who posts what to whom, in
// which order, and whether every rank's sends meet the receives of their destination.
#include "coll_recorder.hpp"
#include "colls/colls.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

using tit::colls::Algorithm;
using tit::colls::Call;
using tit::mpi::RequestPtr;

namespace {

using namespace tit::colls::testing;

std::vector<double> ramp(int n, double base) // unequal per-rank sizes
{
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = base * (i + 1);
  return v;
}

} // namespace

TEST(CollSchedule, EveryAlgorithmMatchesForManySizesAndRoots)
{
  struct Named {
    const char* name;
    Algorithm algorithm;
  };
  const std::vector<Named> uniform{
      {"barrier_linear", tit::colls::barrier_linear},
      {"bcast_binomial", tit::colls::bcast_binomial},
      {"reduce_linear", tit::colls::reduce_linear},
      {"allreduce_reduce_bcast", tit::colls::allreduce_reduce_bcast},
      {"gather_linear", tit::colls::gather_linear},
      {"scatter_linear", tit::colls::scatter_linear},
      {"allgather_linear", tit::colls::allgather_linear},
      {"alltoall_linear", tit::colls::alltoall_linear},
      {"alltoall_pairwise", tit::colls::alltoall_pairwise},
      {"alltoall_bruck", tit::colls::alltoall_bruck},
      {"alltoall_smpi", tit::colls::alltoall_smpi},
      {"scan_linear", tit::colls::scan_linear},
      {"exscan_linear", tit::colls::exscan_linear},
      {"reducescatter_reduce_scatterv", tit::colls::reducescatter_reduce_scatterv},
      {"reducescatter_pair", tit::colls::reducescatter_pair},
      {"reducescatter_recursive_doubling", tit::colls::reducescatter_recursive_doubling},
      {"reducescatter_smpi", tit::colls::reducescatter_smpi},
  };
  for (int n : {1, 2, 3, 4, 5, 7, 8, 12, 16, 33}) {
    auto counts = ramp(n, 8); // reducescatter: rank i keeps counts[i] bytes
    for (int root : {0, n / 2, n - 1}) {
      for (double bytes : {8.0, 800.0, 700000.0}) {
        Call call{.size = n, .root = root, .bytes = bytes, .bytes2 = bytes, .recv_counts = &counts};
        for (auto const& a : uniform)
          expect_matched(run_all(a.algorithm, call), fmt::format("{} on {} ranks, root {}, {} B", a.name, n, root, bytes));
      }
      // v-variants: rank i contributes (i + 1) x 8 bytes; alltoallv: i sends (i + 1) x (j + 2) bytes to j.
      std::vector<std::vector<double>> to(static_cast<std::size_t>(n)), from(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          to[static_cast<std::size_t>(i)].push_back((i + 1) * (j + 2));
          from[static_cast<std::size_t>(i)].push_back((j + 1) * (i + 2));
        }
      auto v_call = [&](int r) {
        return Call{.size = n,
                    .root = root,
                    .bytes = counts[static_cast<std::size_t>(r)],
                    .bytes2 = counts[static_cast<std::size_t>(r)],
                    .send_counts = &counts,
                    .recv_counts = &counts};
      };
      auto a2av_call = [&](int r) {
        return Call{.size = n, .send_counts = &to[static_cast<std::size_t>(r)], .recv_counts = &from[static_cast<std::size_t>(r)]};
      };
      expect_matched(run_each(tit::colls::gatherv_linear, n, v_call), fmt::format("gatherv {} {}", n, root));
      expect_matched(run_each(tit::colls::scatterv_linear, n, v_call), fmt::format("scatterv {} {}", n, root));
      expect_matched(run_each(tit::colls::allgatherv_linear, n, v_call), fmt::format("allgatherv {} {}", n, root));
      expect_matched(run_each(tit::colls::alltoallv_linear, n, a2av_call), fmt::format("alltoallv {}", n));
    }
  }
}

TEST(CollSchedule, BinomialBroadcastSendsFarthestChildFirst)
{
  Call call{.size = 5, .root = 2, .bytes = 10};
  auto ranks = run_all(tit::colls::bcast_binomial, call);
  // relative ranks: 2->0, 3->1, 4->2, 0->3, 1->4
  EXPECT_EQ(ranks[2].ops, (std::vector<std::string>{"send 1 10", "send 4 10", "send 3 10"}));
  EXPECT_EQ(ranks[4].ops, (std::vector<std::string>{"recv 2 10", "send 0 10"}));
  EXPECT_EQ(ranks[0].ops, (std::vector<std::string>{"recv 4 10"}));
  EXPECT_EQ(ranks[1].ops, (std::vector<std::string>{"recv 2 10"}));
  expect_matched(ranks, "bcast");
}

TEST(CollSchedule, LinearAlltoallReceivesUpwardAndSendsDownward)
{
  Call call{.size = 4, .bytes = 5, .bytes2 = 5};
  auto ranks = run_all(tit::colls::alltoall_linear, call);
  EXPECT_EQ(ranks[1].ops, (std::vector<std::string>{"irecv 2 5", "irecv 3 5", "irecv 0 5", "isend 0 5", "isend 3 5",
                                                   "isend 2 5", "waitall 6"}));
}

TEST(CollSchedule, AlltoallDecisionFollowsOpenMpiBands)
{
  // 20 ranks, 256 B per peer: Bruck (log2 steps of sendrecv); 20 ranks, 10 kB: linear.
  Call bruck{.size = 20, .bytes = 256, .bytes2 = 256};
  auto r = run_all(tit::colls::alltoall_smpi, bruck);
  EXPECT_EQ(r[0].ops.size(), 5U * 3U) << "5 steps of isend/irecv/waitall";
  EXPECT_EQ(r[0].ops[0], "isend 1 2560"); // 10 blocks with bit 1 set among 1..19, 256 B each
  Call linear{.size = 20, .bytes = 10000, .bytes2 = 10000};
  EXPECT_EQ(run_all(tit::colls::alltoall_smpi, linear)[0].ops.back(), "waitall 38");
  // 4 ranks, 600 kB per peer: pairwise exchange (XOR partners).
  Call pair{.size = 4, .bytes = 600000, .bytes2 = 600000};
  auto p = run_all(tit::colls::alltoall_smpi, pair);
  EXPECT_EQ(p[1].ops[0], "isend 0 600000"); // step 1: 1 xor 1 = 0 (step 0 is this rank itself)
  expect_matched(p, "pairwise");
}

TEST(CollSchedule, ReduceScatterChoosesByCountsAndSize)
{
  std::vector<double> equal(4, 800);
  Call regular{.size = 4, .recv_counts = &equal, .datatype_size = 8};
  auto r = run_all(tit::colls::reducescatter_smpi, regular);
  EXPECT_EQ(r[0].ops.front(), "irecv 1 3200"); // reduce of the whole vector to rank 0 first
  std::vector<double> unequal{8, 16, 24, 32, 40};
  Call rdb{.size = 5, .recv_counts = &unequal, .datatype_size = 8};
  auto d = run_all(tit::colls::reducescatter_smpi, rdb);
  EXPECT_EQ(d[0].ops.front(), "isend 1 112"); // recursive doubling: all but rank 0's part (16+24+32+40) to rank 1
  expect_matched(d, "recursive doubling");
  std::vector<double> big{8e6, 8e6, 8e6 + 8};
  Call pair{.size = 3, .recv_counts = &big, .datatype_size = 8};
  auto p = run_all(tit::colls::reducescatter_smpi, pair);
  EXPECT_EQ(p[0].ops.front(), "isend 1 8000000"); // > 524288 elements: pairwise exchange
  expect_matched(p, "pair");
}

TEST(CollSchedule, ScanWaitsInPostingOrder)
{
  Call call{.size = 3, .bytes = 4};
  auto ranks = run_all(tit::colls::scan_linear, call);
  EXPECT_EQ(ranks[1].ops, (std::vector<std::string>{"irecv 0 4", "isend 2 4", "wait 0", "wait 2"}));
  expect_matched(ranks, "scan");
}

// Message schedules of the MPICH set (SimGrid 3.32's mpich selector), recorded without an engine: every send
// meets its receive for many sizes and layouts, small schedules derived by hand from SimGrid's sources, and
// which algorithm each decision picks.
#include "coll_recorder.hpp"
#include "colls/mpich_all.hpp"
#include "colls/mpich_smp.hpp"
#include "colls/ompi_all.hpp"
#include "colls/ompi_gather.hpp"
#include "colls/ompi_rooted.hpp"
#include "colls/registry.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace c = tit::colls;
using c::Algorithm;
using c::Call;
using Ops = std::vector<std::string>;
using namespace tit::colls::testing;

namespace {

/// Every message sent is received, in order per (source, destination, tag), by a receive of the same size or,
/// unless `exact`, of at least its size. Returns the first mismatch, or "".
std::string mismatch(const std::vector<Recorder>& ranks, bool exact)
{
  std::map<std::tuple<int, int, int>, std::vector<double>> sent, received;
  for (auto const& r : ranks) {
    for (auto const& [key, sizes] : r.sent)
      sent[key] = sizes;
    for (auto const& [key, sizes] : r.received)
      received[key] = sizes;
  }
  for (auto const& [key, sizes] : sent) {
    auto [src, dst, tag] = key;
    auto it = received.find(key);
    std::size_t got = it == received.end() ? 0 : it->second.size();
    if (got != sizes.size())
      return fmt::format("{} -> {} tag {}: {} sends, {} receives", src, dst, tag, sizes.size(), got);
    for (std::size_t i = 0; i < sizes.size(); ++i)
      if (exact ? it->second[i] != sizes[i] : it->second[i] < sizes[i])
        return fmt::format("{} -> {} tag {}: message {} of {} B received as {} B", src, dst, tag, i, sizes[i],
                           it->second[i]);
  }
  for (auto const& [key, sizes] : received)
    if (sent.find(key) == sent.end())
      return fmt::format("{} -> {} tag {}: {} receives, no send", std::get<0>(key), std::get<1>(key),
                         std::get<2>(key), sizes.size());
  return "";
}

/// Runs a layout-taking algorithm on every rank.
using OnLayout = void (*)(tit::mpi::PointToPoint&, const Call&, const c::SmpLayout&);
std::vector<Recorder> run_on(OnLayout algorithm, const Call& call, const c::SmpLayout& layout)
{
  std::vector<Recorder> ranks;
  for (int r = 0; r < call.size; ++r) {
    ranks.emplace_back(r);
    algorithm(ranks.back(), call, layout);
  }
  return ranks;
}

c::SmpLayout layout_of(std::vector<int> hosts)
{
  return c::SmpLayout{std::move(hosts)};
}

/// Hosts of `n` ranks: each on its own; blocks of 2; round-robin on 3 hosts; 3 then 1 then 2 ... (unequal).
std::vector<c::SmpLayout> layouts(int n)
{
  std::vector<c::SmpLayout> all(4);
  for (int r = 0; r < n; ++r) {
    all[0].host_of.push_back(r);
    all[1].host_of.push_back(r / 2);
    all[2].host_of.push_back(r % 3);
    all[3].host_of.push_back(r < 3 ? 0 : (r < 4 ? 1 : 2 + (r - 4) / 2));
  }
  return all;
}

/// The operations of `rank` when `algorithm` runs alone (to compare a decision with the algorithm it picks).
Ops ops_of(Algorithm algorithm, const Call& call, int rank = 0)
{
  return run_all(algorithm, call)[static_cast<std::size_t>(rank)].ops;
}

} // namespace

TEST(MpichColls, EverySendMeetsItsReceive)
{
  struct Named {
    const char* name;
    Algorithm algorithm;
    bool exact;
    bool rooted;
  };
  const std::vector<Named> buffer{
      {"bcast_scatter_lr_allgather", c::bcast_scatter_lr_allgather, false, true},
      {"bcast_mpich_flat", c::bcast_mpich_flat, false, true},
      {"reduce_binomial", c::reduce_binomial, true, true},
      {"reduce_mvapich2_knomial", c::reduce_mvapich2_knomial, true, true},
      {"allreduce_mpich_flat", c::allreduce_mpich_flat, true, false},
      {"alltoall_mvapich2_scatter_dest", c::alltoall_mvapich2_scatter_dest, true, false},
      {"alltoall_ring", c::alltoall_ring, true, false},
      {"alltoall_mpich", c::alltoall_mpich, true, false},
      {"allgather_mpich", c::allgather_mpich, false, false},
  };
  for (int n = 1; n <= 17; ++n)
    for (double datatype : {1.0, 8.0})
      for (double elements : {0.0, 1.0, 3.0, 7.0, 37.0, 1000.0, 12345.0, 40000.0}) {
        for (int root : {0, n / 2, n - 1}) {
          Call call{.size = n, .root = root, .bytes = elements * datatype, .bytes2 = elements * datatype,
                    .datatype_size = datatype};
          for (auto const& a : buffer)
            if (a.rooted || root == 0) {
              EXPECT_EQ(mismatch(run_all(a.algorithm, call), a.exact), "")
                  << fmt::format("{} n={} root={} {}x{} B", a.name, n, root, elements, datatype);
            }
          // Rabenseifner's reduce pads fewer elements than ranks (the folded receive is then smaller).
          if (elements >= n) {
            EXPECT_EQ(mismatch(run_all(c::reduce_scatter_gather, call), true), "")
                << fmt::format("reduce_scatter_gather n={} root={} {}x{} B", n, root, elements, datatype);
          }
          for (auto const& layout : layouts(n)) {
            std::string where = fmt::format("n={} root={} {}x{} B hosts {}", n, root, elements, datatype,
                                            fmt::join(layout.host_of, ","));
            auto comms = c::smp_comms(layout, 0);
            auto cores = comms.local.size();
            bool stray = comms.uniform && (cores & (cores - 1)) != 0; // see SmpBinomialKeepsSimGridsStraySend
            if (not stray) { // on unequal hosts the fallback's scatter receives are posted larger
              EXPECT_EQ(mismatch(run_on(c::bcast_smp_binomial_on, call, layout), false), "") << "SMP_binomial " << where;
            }
            EXPECT_EQ(mismatch(run_on(c::reduce_mvapich2_two_level_on, call, layout), true), "")
                << "reduce two-level " << where;
            if (root == 0) {
              EXPECT_EQ(mismatch(run_on(c::allreduce_mvapich2_two_level_on, call, layout), true), "")
                  << "allreduce two-level " << where;
            }
          }
        }
        std::vector<double> equal(static_cast<std::size_t>(n), elements * datatype);
        std::vector<double> ramp(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
          ramp[static_cast<std::size_t>(i)] = elements * datatype * (i % 3);
        for (auto const* counts : {&equal, &ramp}) {
          Call v{.size = n, .send_counts = counts, .recv_counts = counts, .datatype_size = datatype};
          for (auto [name, algorithm] : {std::pair<const char*, Algorithm>{"allgatherv_mpich_rdb", c::allgatherv_mpich_rdb},
                                         std::pair<const char*, Algorithm>{"allgatherv_mpich", c::allgatherv_mpich}})
            EXPECT_EQ(mismatch(run_each(algorithm, n,
                                        [&](int r) {
                                          Call each = v;
                                          each.bytes = (*counts)[static_cast<std::size_t>(r)];
                                          return each;
                                        }),
                               false),
                      "")
                << fmt::format("{} n={} {}x{} B", name, n, elements, datatype);
          EXPECT_EQ(mismatch(run_all(c::reducescatter_mpich, v), true), "") << "reducescatter_mpich n=" << n;
        }
        // alltoallv: rank i sends (i + j) % 3 blocks to rank j
        std::vector<std::vector<double>> sends(static_cast<std::size_t>(n)), recvs(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) {
            sends[static_cast<std::size_t>(i)].push_back(elements * datatype * ((i + j) % 3));
            recvs[static_cast<std::size_t>(i)].push_back(elements * datatype * ((j + i) % 3));
          }
        EXPECT_EQ(mismatch(run_each(c::alltoallv_bruck, n,
                                    [&](int r) {
                                      return Call{.size = n, .send_counts = &sends[static_cast<std::size_t>(r)],
                                                  .recv_counts = &recvs[static_cast<std::size_t>(r)]};
                                    }),
                           true),
                  "")
            << "alltoallv_bruck n=" << n;
      }
}

TEST(MpichColls, ThrottledAlltoallsPostFourPeersAtATime)
{
  // scatter_dest includes this rank itself; 5 ranks: a block of 4 peers, then one.
  auto sd = run_all(c::alltoall_mvapich2_scatter_dest, Call{.size = 5, .bytes = 10, .bytes2 = 10});
  EXPECT_EQ(sd[1].ops, (Ops{"irecv 1 10", "irecv 2 10", "irecv 3 10", "irecv 4 10", "isend 1 10", "isend 0 10",
                            "isend 4 10", "isend 3 10", "waitall 8", "irecv 0 10", "isend 2 10", "waitall 2"}));
  // alltoallv bruck skips itself (rank 1 of 3: from 2 and 0, to 0 and 2)
  std::vector<double> counts{5, 6, 7};
  auto b = run_each(c::alltoallv_bruck, 3, [&](int) { return Call{.size = 3, .send_counts = &counts, .recv_counts = &counts}; });
  EXPECT_EQ(b[1].ops, (Ops{"irecv 2 7", "irecv 0 5", "isend 0 5", "isend 2 7", "waitall 4"}));
  // ring: step 0 is a copy to itself, free
  EXPECT_EQ(run_all(c::alltoall_ring, Call{.size = 3, .bytes = 4, .bytes2 = 4})[0].ops,
            (Ops{"isend 1 4", "irecv 2 4", "waitall 2", "isend 2 4", "irecv 1 4", "waitall 2"}));
}

TEST(MpichColls, ReduceTrees)
{
  // binomial relative to root 2 of 5: the root receives from relative 1, 2, 4 (ranks 3, 4, 1)
  auto r = run_all(c::reduce_binomial, Call{.size = 5, .root = 2, .bytes = 8});
  EXPECT_EQ(r[2].ops, (Ops{"recv 3 8", "recv 4 8", "recv 1 8"}));
  EXPECT_EQ(r[1].ops, (Ops{"send 2 8"}));
  EXPECT_EQ(r[4].ops, (Ops{"recv 0 8", "send 2 8"}));
  // knomial (k = 4) on 6 ranks, root 0: children 4, then 1, 2, 3; 4's child is 5; receives posted in reverse
  auto k = run_all(c::reduce_mvapich2_knomial, Call{.size = 6, .bytes = 8});
  EXPECT_EQ(k[0].ops, (Ops{"irecv 3 8", "irecv 2 8", "irecv 1 8", "irecv 4 8", "waitall 4"}));
  EXPECT_EQ(k[4].ops, (Ops{"irecv 5 8", "waitall 1", "isend 0 8", "wait 0"}));
  // Rabenseifner, 4 ranks, 8 doubles to root 0: halving exchanges 32 then 16 B, then the gather back
  auto sg = run_all(c::reduce_scatter_gather, Call{.size = 4, .bytes = 64, .datatype_size = 8});
  EXPECT_EQ(sg[0].ops, (Ops{"isend 1 32", "irecv 1 32", "waitall 2", "isend 2 16", "irecv 2 16", "waitall 2",
                            "recv 2 16", "recv 1 32"}));
  // 3 ranks, root 1 (odd, folded away): rank 1 sends its buffer to 0, then gets block 0 back from it
  auto odd = run_all(c::reduce_scatter_gather, Call{.size = 3, .root = 1, .bytes = 64, .datatype_size = 8});
  EXPECT_EQ(odd[1].ops, (Ops{"send 0 64", "recv 0 32", "recv 2 32"}));
  // fewer elements than ranks: padded to one element per rank
  auto pad = run_all(c::reduce_scatter_gather, Call{.size = 3, .bytes = 16, .datatype_size = 8});
  EXPECT_EQ(pad[1].ops.front(), "send 0 24");
  EXPECT_EQ(pad[0].ops.front(), "recv 1 16");
}

TEST(MpichColls, ScatterRingBcastAndRecursiveDoublingAllgatherv)
{
  // 10 bytes from root 1 of 3: pieces of 4, 4, 2 bytes for relative ranks 0, 1, 2
  auto b = run_all(c::bcast_scatter_lr_allgather, Call{.size = 3, .root = 1, .bytes = 10});
  EXPECT_EQ(b[1].ops, (Ops{"send 0 2", "send 2 4", "isend 2 4", "irecv 0 2", "waitall 2", "isend 2 2", "irecv 0 4",
                           "waitall 2"}));
  std::vector<double> counts{1, 2, 3, 4};
  auto v = run_each(c::allgatherv_mpich_rdb, 4, [&](int) { return Call{.size = 4, .recv_counts = &counts}; });
  // rank 0: its block to 1 (posted: all from block 1 on), then blocks 0-1 to 2 (posted: from block 2 on)
  EXPECT_EQ(v[0].ops, (Ops{"isend 1 1", "irecv 1 9", "waitall 2", "isend 2 3", "irecv 2 7", "waitall 2"}));
}

TEST(MpichColls, SmpAwareAlgorithmsFollowTheHosts)
{
  // SMP binomial, 2 hosts x 2 ranks, root 1: 1 -> 0 first, then 0 -> 2 between hosts, then within hosts
  auto b = run_on(c::bcast_smp_binomial_on, Call{.size = 4, .root = 1, .bytes = 8}, layout_of({0, 0, 1, 1}));
  EXPECT_EQ(b[1].ops, (Ops{"send 0 8", "recv 0 8"}));
  EXPECT_EQ(b[0].ops, (Ops{"recv 1 8", "send 2 8", "send 1 8"}));
  EXPECT_EQ(b[3].ops, (Ops{"recv 2 8"}));
  // two-level reduce to rank 3: within host 1 to its leader 2, between leaders 0 -> 2, then 2 -> 3
  auto r = run_on(c::reduce_mvapich2_two_level_on, Call{.size = 4, .root = 3, .bytes = 8}, layout_of({0, 0, 1, 1}));
  EXPECT_EQ(r[2].ops, (Ops{"recv 3 8", "recv 0 8", "send 3 8"}));
  EXPECT_EQ(r[3].ops, (Ops{"send 2 8", "recv 2 8"}));
  EXPECT_EQ(r[3].sent.count({3, 2, c::kTagReduce + c::kTagShiftIntraNode}), 1U); // the host's own context
  EXPECT_EQ(r[2].sent.count({2, 3, c::kTagMpichReduceResult}), 1U);
  // two-level allreduce, hosts {0, 1} {2}: rdb on host 0, rdb between leaders 0 and 2, bcast on host 0
  auto a = run_on(c::allreduce_mvapich2_two_level_on, Call{.size = 3, .bytes = 8}, layout_of({0, 0, 1}));
  EXPECT_EQ(a[0].ops, (Ops{"isend 1 8", "irecv 1 8", "waitall 2", "isend 2 8", "irecv 2 8", "waitall 2", "send 1 8"}));
  EXPECT_EQ(a[1].ops, (Ops{"isend 0 8", "irecv 0 8", "waitall 2", "recv 0 8"}));
  EXPECT_EQ(a[2].ops, (Ops{"isend 0 8", "irecv 0 8", "waitall 2"}));
  // unequal hosts: the SMP binomial bcast falls back to MPICH's flat decision (binomial here)
  Call three{.size = 3, .root = 0, .bytes = 8};
  std::vector<Recorder> flat;
  for (int i = 0; i < 3; ++i) {
    flat.emplace_back(i);
    c::bcast_smp_binomial_on(flat.back(), three, layout_of({0, 0, 1}));
  }
  EXPECT_EQ(flat[0].ops, ops_of(c::bcast_binomial, three));
  // every rank on one host: the small reduce is Open MPI's linear one to the leader, then a send to the root
  auto one = run_on(c::reduce_mvapich2_two_level_on, Call{.size = 3, .root = 2, .bytes = 8}, layout_of({0, 0, 0}));
  EXPECT_EQ(one[0].ops, (Ops{"recv 2 8", "recv 1 8", "send 2 8"}));
  EXPECT_EQ(one[2].ops, (Ops{"send 0 8", "recv 0 8"}));
}

// SimGrid's SMP_binomial tests `intra_rank < intra_size` where `intra_rank + mask < intra_size` is meant: with 3
// ranks per host, intra rank 2 sends to base + 3, the next host's leader, which never receives it (in SimGrid
// the detached message stays queued and can match that rank's next bcast receive from it). Kept, to time as
// SimGrid does; tit-replay reports it at the end as sent but never received.
TEST(MpichColls, SmpBinomialKeepsSimGridsStraySend)
{
  auto b = run_on(c::bcast_smp_binomial_on, Call{.size = 6, .bytes = 8}, layout_of({0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(b[2].ops, (Ops{"recv 0 8", "send 3 8"}));
  EXPECT_EQ(b[3].ops, (Ops{"recv 0 8", "send 5 8", "send 4 8"}));
  EXPECT_EQ(mismatch(b, true), "2 -> 3 tag -17: 1 sends, 0 receives");
}

TEST(MpichColls, DecisionsPickMpichsAlgorithms)
{
  auto same = [](Algorithm decision, Algorithm expected, const Call& call) {
    EXPECT_EQ(ops_of(decision, call), ops_of(expected, call)) << "n=" << call.size << " bytes=" << call.bytes;
  };
  // alltoall, bytes per peer
  same(c::alltoall_mpich, c::alltoall_bruck, Call{.size = 8, .bytes = 100, .bytes2 = 100});
  same(c::alltoall_mpich, c::alltoall_mvapich2_scatter_dest, Call{.size = 7, .bytes = 100, .bytes2 = 100});
  same(c::alltoall_mpich, c::alltoall_mvapich2_scatter_dest, Call{.size = 8, .bytes = 300, .bytes2 = 300});
  same(c::alltoall_mpich, c::alltoall_pairwise, Call{.size = 5, .bytes = 40000, .bytes2 = 40000});
  same(c::alltoall_mpich, c::alltoall_ring, Call{.size = 6, .bytes = 40000, .bytes2 = 40000});
  // allgather, total bytes
  same(c::allgather_mpich, c::allgather_rdb, Call{.size = 4, .bytes = 1000, .bytes2 = 1000});
  same(c::allgather_mpich, c::allgather_bruck, Call{.size = 5, .bytes = 1000, .bytes2 = 1000});
  same(c::allgather_mpich, c::allgather_ring, Call{.size = 5, .bytes = 20000, .bytes2 = 20000});
  same(c::allgather_mpich, c::allgather_ring, Call{.size = 4, .bytes = 200000, .bytes2 = 200000});
  // bcast (flat): binomial up to 8 ranks or below 12288 B, then scatter + rdb (even) or ring allgather (odd)
  same(c::bcast_mpich_flat, c::bcast_binomial, Call{.size = 8, .bytes = 1e6});
  same(c::bcast_mpich_flat, c::bcast_binomial, Call{.size = 12, .bytes = 12287});
  same(c::bcast_mpich_flat, c::bcast_scatter_rdb_allgather, Call{.size = 10, .bytes = 20000});
  same(c::bcast_mpich_flat, c::bcast_scatter_lr_allgather, Call{.size = 9, .bytes = 20000});
  same(c::bcast_mpich_flat, c::bcast_scatter_lr_allgather, Call{.size = 10, .bytes = 524288});
  // reduce (flat): binomial below 2048 B or fewer elements than p', else Rabenseifner
  same(c::reduce_mpich_flat, c::reduce_binomial, Call{.size = 4, .bytes = 2040, .datatype_size = 8});
  same(c::reduce_mpich_flat, c::reduce_scatter_gather, Call{.size = 4, .bytes = 2048, .datatype_size = 8});
  same(c::reduce_mpich_flat, c::reduce_binomial, Call{.size = 5000, .bytes = 4000, .datatype_size = 1});
  // allreduce (flat): Rabenseifner above 2048 B with at least p' elements
  same(c::allreduce_mpich_flat, c::allreduce_rdb, Call{.size = 4, .bytes = 2048, .datatype_size = 8});
  same(c::allreduce_mpich_flat, c::allreduce_rab_rdb, Call{.size = 4, .bytes = 2056, .datatype_size = 8});
  // reduce_scatter: pairwise above 524288 elements
  std::vector<double> big{300000, 300000}, small{1000, 1000};
  same(c::reducescatter_mpich, c::reducescatter_pair, Call{.size = 2, .recv_counts = &big, .datatype_size = 1});
  same(c::reducescatter_mpich, c::reducescatter_recursive_doubling,
       Call{.size = 2, .recv_counts = &big, .datatype_size = 4});
  same(c::reducescatter_mpich, c::reducescatter_recursive_doubling,
       Call{.size = 2, .recv_counts = &small, .datatype_size = 1});
  // allgatherv: by elements gathered; nothing at all for 0
  std::vector<double> none{0, 0, 0, 0}, few{10, 20, 30, 40}, many{40000, 40000, 40000};
  same(c::allgatherv_mpich, c::allgatherv_mpich_rdb, Call{.size = 4, .recv_counts = &few, .datatype_size = 1});
  same(c::allgatherv_mpich, c::allgatherv_ompi_bruck, Call{.size = 3, .recv_counts = &few, .datatype_size = 1});
  same(c::allgatherv_mpich, c::allgatherv_mpich_ring, Call{.size = 3, .recv_counts = &many, .datatype_size = 1});
  EXPECT_TRUE(ops_of(c::allgatherv_mpich, Call{.size = 4, .recv_counts = &none}).empty());
}

TEST(MpichColls, SelectorAndNames)
{
  auto s = c::make_selector("mpich", {});
  EXPECT_EQ(s.bcast, c::bcast_mpich);
  EXPECT_EQ(s.reduce, c::reduce_mpich);
  EXPECT_EQ(s.allreduce, c::allreduce_mpich);
  EXPECT_EQ(s.barrier, c::barrier_ompi_bruck);
  EXPECT_EQ(s.gather, c::gather_ompi_binomial);
  EXPECT_EQ(s.scatter, c::scatter_ompi_binomial);
  EXPECT_EQ(s.alltoallv, c::alltoallv_bruck);
  EXPECT_EQ(s.scan, c::smpi_selector().scan); // not selectable in SimGrid: its default
  // SimGrid's own algorithm names, as smpirun's --cfg=smpi/bcast:... gives them
  auto o = c::make_selector("mpich", {{"bcast", "scatter_LR_allgather"}, {"reduce", "binomial"}});
  EXPECT_EQ(o.bcast, c::bcast_scatter_lr_allgather);
  EXPECT_EQ(o.reduce, c::reduce_binomial);
  try {
    c::make_selector("mvapich2", {});
    FAIL() << "unknown selector accepted";
  } catch (const c::SelectionError& e) {
    EXPECT_NE(std::string(e.what()).find("mpich (MPICH's decisions)"), std::string::npos) << e.what();
  }
}

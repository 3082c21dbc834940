// The ompi selector's bcast and reduce: Open MPI's trees, the algorithms' schedules recorded without an engine
// (small cases written out by hand from SimGrid 3.32's sources), the decisions, and the datatype sizes the
// trace reader passes them.
#include "coll_recorder.hpp"
#include "colls/colls.hpp"
#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"
#include "trace/reader.hpp"
#include "trace_lines_fixture.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

using tit::colls::Algorithm;
using tit::colls::Call;
using tit::colls::ompi::Tree;
using namespace tit::colls::testing;
using Ops = std::vector<std::string>;

// ---- trees ---------------------------------------------------------------------------------------

std::vector<Tree> all_views(int n, const std::function<Tree(int)>& build)
{
  std::vector<Tree> v;
  for (int r = 0; r < n; ++r)
    v.push_back(build(r));
  return v;
}

// Every rank but the tree's root has one parent, which lists it among its children; the root is reached
// by everyone.
void expect_tree(const std::vector<Tree>& t, int root, const std::string& what)
{
  int n = static_cast<int>(t.size());
  std::vector<int> parents(static_cast<std::size_t>(n), 0);
  for (int r = 0; r < n; ++r)
    for (int c : t[static_cast<std::size_t>(r)].next) {
      ASSERT_TRUE(c >= 0 && c < n && c != r) << what;
      ++parents[static_cast<std::size_t>(c)];
      EXPECT_EQ(t[static_cast<std::size_t>(c)].prev, r) << what << ": parent of " << c;
    }
  for (int r = 0; r < n; ++r)
    EXPECT_EQ(parents[static_cast<std::size_t>(r)], r == root ? 0 : 1) << what << ": rank " << r;
}

TEST(OmpiTree, EveryTreeReachesEveryRank)
{
  for (int n = 1; n <= 33; ++n)
    for (int root : {0, n / 2, n - 1}) {
      auto what = [&](const char* kind) { return fmt::format("{} n={} root={}", kind, n, root); };
      for (int fanout : {2, 3, 4})
        expect_tree(all_views(n, [&](int r) { return tit::colls::ompi::build_tree(fanout, n, r, root); }), root,
                    what("tree"));
      for (int fanout : {1, 2, 3, n / 2})
        expect_tree(all_views(n, [&](int r) { return tit::colls::ompi::build_chain(fanout, n, r, root); }), root,
                    what("chain"));
      expect_tree(all_views(n, [&](int r) { return tit::colls::ompi::build_bmtree(n, r, root); }), root,
                  what("bmtree"));
      expect_tree(all_views(n, [&](int r) { return tit::colls::ompi::build_in_order_bmtree(n, r, root); }), root,
                  what("in-order bmtree"));
    }
  for (int n = 1; n <= 33; ++n)
    expect_tree(all_views(n, [&](int r) { return tit::colls::ompi::build_in_order_bintree(n, r); }), n - 1,
                fmt::format("in-order bintree n={}", n));
}

TEST(OmpiTree, ShapesAsOpenMpiBuildsThem)
{
  using namespace tit::colls::ompi;
  // Binary tree filled level by level in shifted ranks: 0 -> 1 2, 1 -> 3 5, 2 -> 4 6 (root 2 shifts by 2).
  EXPECT_EQ(build_tree(2, 7, 0, 0).next, (std::vector<int>{1, 2}));
  EXPECT_EQ(build_tree(2, 7, 1, 0).next, (std::vector<int>{3, 5}));
  EXPECT_EQ(build_tree(2, 7, 2, 0).next, (std::vector<int>{4, 6}));
  EXPECT_EQ(build_tree(2, 7, 5, 0).prev, 1);
  EXPECT_EQ(build_tree(2, 7, 3, 2).next, (std::vector<int>{5, 0}));
  // In-order binary tree: 6 -> 5 2, 5 -> 4 3, 2 -> 1 0; with 4 ranks: 3 -> 2 1, 1 -> 0.
  EXPECT_EQ(build_in_order_bintree(7, 6).next, (std::vector<int>{5, 2}));
  EXPECT_EQ(build_in_order_bintree(7, 5).next, (std::vector<int>{4, 3}));
  EXPECT_EQ(build_in_order_bintree(7, 2).next, (std::vector<int>{1, 0}));
  EXPECT_EQ(build_in_order_bintree(7, 3).prev, 5);
  EXPECT_EQ(build_in_order_bintree(4, 3).next, (std::vector<int>{2, 1}));
  EXPECT_EQ(build_in_order_bintree(4, 1).next, (std::vector<int>{0}));
  EXPECT_EQ(build_in_order_bintree(4, 0).prev, 1);
  // Chains: 6 ranks, 2 chains: 0 -> 1 -> 2 -> 3 and 0 -> 4 -> 5 (the first chains are the longer ones).
  EXPECT_EQ(build_chain(2, 6, 0, 0).next, (std::vector<int>{1, 4}));
  EXPECT_EQ(build_chain(2, 6, 3, 0).next, (std::vector<int>{}));
  EXPECT_EQ(build_chain(2, 6, 4, 0).prev, 0);
  // 8 ranks, 3 chains from root 2: heads at shifted 1, 4, 6 (lengths 3, 2, 2).
  EXPECT_EQ(build_chain(3, 8, 2, 2).next, (std::vector<int>{3, 6, 0}));
  EXPECT_EQ(build_chain(3, 8, 5, 2).next, (std::vector<int>{}));
  EXPECT_EQ(build_chain(3, 8, 7, 2).prev, 6);
  // In-order binomial tree, nearest child first; the other binomial tree lists its children the same way.
  EXPECT_EQ(build_in_order_bmtree(8, 0, 0).next, (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(build_in_order_bmtree(8, 6, 0).prev, 4);
  EXPECT_EQ(build_in_order_bmtree(8, 3, 5).next, (std::vector<int>{4}));
  EXPECT_EQ(build_bmtree(8, 2, 0).next, (std::vector<int>{6}));
  EXPECT_EQ(build_bmtree(8, 3, 0).prev, 1);
  // Segments: 32 KiB of doubles = 4096; a residue above half an element rounds up; one segment if it all fits.
  EXPECT_EQ(segment_count(32768, 8, 5000), 4096);
  EXPECT_EQ(segment_count(1024, 12, 1000), 85); // 1024 = 85 x 12 + 4
  EXPECT_EQ(segment_count(1024, 24, 1000), 43); // 1024 = 42 x 24 + 16 > 12
  EXPECT_EQ(segment_count(65536, 8, 100), 100);
  EXPECT_EQ(segment_count(0, 8, 100), 100);
}

// ---- schedules -----------------------------------------------------------------------------------

/// Per channel: as many receives as sends, in order, each posted for at least what is sent (SimGrid posts
/// whole segments, or all the rest of the buffer). Returns the bytes each rank received and sent.
struct Flow {
  std::vector<double> in, out;
};
Flow expect_delivered(const std::vector<Recorder>& ranks, const std::string& what)
{
  std::map<std::tuple<int, int, int>, std::vector<double>> sent, posted;
  for (auto const& r : ranks) {
    for (auto const& [k, v] : r.sent)
      sent[k] = v;
    for (auto const& [k, v] : r.received)
      posted[k] = v;
  }
  Flow flow{std::vector<double>(ranks.size()), std::vector<double>(ranks.size())};
  std::set<std::tuple<int, int, int>> keys;
  for (auto const& [k, v] : sent)
    keys.insert(k);
  for (auto const& [k, v] : posted)
    keys.insert(k);
  for (auto const& k : keys) {
    auto const& s = sent[k];
    auto const& p = posted[k];
    EXPECT_EQ(s.size(), p.size()) << what << ": messages " << std::get<0>(k) << " -> " << std::get<1>(k);
    for (std::size_t i = 0; i < std::min(s.size(), p.size()); ++i)
      EXPECT_LE(s[i], p[i]) << what << ": message " << i << " of " << std::get<0>(k) << " -> " << std::get<1>(k);
    for (double b : s) {
      flow.out[static_cast<std::size_t>(std::get<0>(k))] += b;
      flow.in[static_cast<std::size_t>(std::get<1>(k))] += b;
    }
  }
  return flow;
}

struct Named {
  const char* name;
  Algorithm algorithm;
};

const std::vector<Named>& bcasts()
{
  static const std::vector<Named> all{
      {"bcast_ompi", tit::colls::bcast_ompi},
      {"bcast_ompi_pipeline", tit::colls::bcast_ompi_pipeline},
      {"bcast_ompi_split_bintree", tit::colls::bcast_ompi_split_bintree},
      {"bcast_ntsl", tit::colls::bcast_ntsl},
      {"bcast_ntsb", tit::colls::bcast_ntsb},
      {"bcast_mvapich2_knomial_intra_node", tit::colls::bcast_mvapich2_knomial_intra_node},
      {"bcast_scatter_rdb_allgather", tit::colls::bcast_scatter_rdb_allgather},
  };
  return all;
}

const std::vector<Named>& reduces()
{
  static const std::vector<Named> all{
      {"reduce_ompi", tit::colls::reduce_ompi},
      {"reduce_ompi_basic_linear", tit::colls::reduce_ompi_basic_linear},
      {"reduce_ompi_chain", tit::colls::reduce_ompi_chain},
      {"reduce_ompi_pipeline", tit::colls::reduce_ompi_pipeline},
      {"reduce_ompi_binary", tit::colls::reduce_ompi_binary},
      {"reduce_ompi_binomial", tit::colls::reduce_ompi_binomial},
      {"reduce_ompi_in_order_binary", tit::colls::reduce_ompi_in_order_binary},
  };
  return all;
}

// Sizes: single elements, around the 1/8/16/32/64/128 KiB segments, several segments with a short last one.
const std::vector<std::pair<double, double>>& shapes() // (bytes, datatype size)
{
  static const std::vector<std::pair<double, double>> all{
      {8, 8},        {4, 4},        {30, 1},        {600, 4},        {1000, 1},     {8000, 8},
      {40000, 8},    {50000, 1},    {65536, 4},     {200000, 8},     {300000, 1},   {1048576, 8},
      {1200000, 4},  {2000016, 8},  {97, 1},
  };
  return all;
}

TEST(OmpiRootedSchedule, EveryBcastDeliversTheBufferToEveryRank)
{
  for (int n = 1; n <= 33; ++n)
    for (int root : {0, n / 2, n - 1})
      for (auto const& [bytes, dt] : shapes())
        for (auto const& a : bcasts()) {
          Call call{.size = n, .root = root, .bytes = bytes, .datatype_size = dt};
          auto what = fmt::format("{} n={} root={} {} B of {}", a.name, n, root, bytes, dt);
          auto ranks = run_all(a.algorithm, call);
          if (n == 1) // NTSL sends to itself there (never received, as in SimGrid)
            continue;
          auto flow = expect_delivered(ranks, what);
          // (NTSL and NTSB first send everything from a root other than 0 to 0, which gets the elements left
          // over after their whole segments again. The scatter-allgather forwards in its allgather what its
          // scatter brought: see ScatterRecursiveDoublingEndsWithEverything.)
          bool rdb = a.algorithm == tit::colls::bcast_scatter_rdb_allgather ||
                     (a.algorithm == tit::colls::bcast_ompi && n >= 16 && n < 32 && bytes >= 1048576);
          for (int r = 0; r < n; ++r)
            if (r != root && root == 0 && not rdb)
              EXPECT_EQ(flow.in[static_cast<std::size_t>(r)], bytes) << what << ": rank " << r;
            else if (r != root)
              EXPECT_GE(flow.in[static_cast<std::size_t>(r)], bytes) << what << ": rank " << r;
            else
              EXPECT_LE(flow.in[static_cast<std::size_t>(r)], bytes) << what << ": the root";
        }
}

TEST(OmpiRootedSchedule, EveryReduceSendsEachContributionOnce)
{
  for (int n = 1; n <= 33; ++n)
    for (int root : {0, n / 2, n - 1})
      for (auto const& [bytes, dt] : shapes())
        for (auto const& a : reduces()) {
          Call call{.size = n, .root = root, .bytes = bytes, .datatype_size = dt};
          auto what = fmt::format("{} n={} root={} {} B of {}", a.name, n, root, bytes, dt);
          auto ranks = run_all(a.algorithm, call);
          auto flow = expect_delivered(ranks, what);
          for (int r = 0; r < n; ++r) {
            double out = flow.out[static_cast<std::size_t>(r)];
            if (r != root)
              EXPECT_EQ(out, bytes) << what << ": rank " << r;
            else
              EXPECT_TRUE(out == 0 || out == bytes) << what << ": the root sends " << out;
          }
        }
}

TEST(OmpiRootedSchedule, SmpInitForEveryLayout)
{
  for (int n = 1; n <= 17; ++n)
    for (int hosts : {1, 2, 3, 5, n}) {
      tit::colls::SmpLayout layout;
      for (int r = 0; r < n; ++r)
        layout.host_of.push_back(r % hosts); // round-robin, as smpirun places ranks on a hostfile
      std::vector<Recorder> ranks;
      for (int r = 0; r < n; ++r) {
        ranks.emplace_back(r);
        tit::colls::smp_init(ranks.back(), layout);
      }
      expect_delivered(ranks, fmt::format("init_smp n={} hosts={}", n, hosts));
    }
  // 4 ranks on 2 hosts: {0, 2} and {1, 3}; leaders 0 and 1.
  tit::colls::SmpLayout layout{{0, 1, 0, 1}};
  Recorder r0(0);
  tit::colls::smp_init(r0, layout);
  EXPECT_EQ(r0.ops, (Ops{
                        "isend 1 4", "irecv 3 4", "waitall 2", "isend 2 4", "irecv 2 4", "waitall 2", "isend 3 4",
                        "irecv 1 4", "waitall 2",                        // ring allgather, all ranks
                        "isend 1 4", "irecv 1 4", "waitall 2",           // ring allgather, leaders
                        "send 2 2", "isend 2 2", "irecv 2 2", "waitall 2", // scatter 2+2 bytes, ring step
                        "irecv 1 4", "irecv 2 4", "irecv 3 4", "waitall 3", // default reduce to 0
                        "send 2 4", "send 1 4",                          // binomial bcast from 0
                    }));
  Recorder r3(3);
  tit::colls::smp_init(r3, layout);
  EXPECT_EQ(r3.ops, (Ops{
                        "isend 0 4", "irecv 2 4", "waitall 2", "isend 1 4", "irecv 1 4", "waitall 2", "isend 2 4",
                        "irecv 0 4", "waitall 2",                                  // not a leader
                        "recv 1 2", "isend 1 2", "irecv 1 2", "waitall 2",           // second of host {1, 3}
                        "isend 0 4", "waitall 1", "recv 2 4",
                    }));
}

TEST(OmpiRootedSchedule, BinaryReduceOverlapsSegmentsAndChildren)
{
  // 5000 doubles: segments of 4096 (32 KiB) and 904. Tree: 0 -> 1 2, 1 -> 3.
  Call call{.size = 4, .root = 0, .bytes = 40000, .datatype_size = 8};
  auto ranks = run_all(tit::colls::reduce_ompi_binary, call);
  EXPECT_EQ(ranks[0].ops, (Ops{"irecv 1 32768", "irecv 2 32768", "waitall 1", "irecv 1 7232", "waitall 1",
                               "irecv 2 7232", "waitall 1", "waitall 1"}));
  EXPECT_EQ(ranks[1].ops, (Ops{"irecv 3 32768", "irecv 3 7232", "waitall 1", "send 0 32768", "waitall 1",
                               "send 0 7232"}));
  EXPECT_EQ(ranks[3].ops, (Ops{"send 1 32768", "send 1 7232"}));
}

TEST(OmpiRootedSchedule, InOrderBinaryReducesToTheLastRankThenToTheRoot)
{
  Call call{.size = 4, .root = 0, .bytes = 80, .datatype_size = 8};
  auto ranks = run_all(tit::colls::reduce_ompi_in_order_binary, call);
  EXPECT_EQ(ranks[3].ops, (Ops{"irecv 2 80", "irecv 1 80", "waitall 1", "waitall 1", "send 0 80"}));
  EXPECT_EQ(ranks[1].ops, (Ops{"irecv 0 80", "waitall 1", "send 3 80"}));
  EXPECT_EQ(ranks[0].ops, (Ops{"send 1 80", "recv 3 80"}));
  EXPECT_EQ(ranks[2].ops, (Ops{"send 3 80"}));
}

TEST(OmpiRootedSchedule, BasicLinearReduceReceivesFromTheLastRankDown)
{
  Call call{.size = 4, .root = 1, .bytes = 8, .datatype_size = 8};
  auto ranks = run_all(tit::colls::reduce_ompi_basic_linear, call);
  EXPECT_EQ(ranks[1].ops, (Ops{"recv 3 8", "recv 2 8", "recv 0 8"}));
  EXPECT_EQ(ranks[0].ops, (Ops{"send 1 8"}));
}

TEST(OmpiRootedSchedule, PipelineBcastKeepsOneReceiveAhead)
{
  // 300000 chars on 3 ranks: 16 KiB segments, 18 full and one of 5088 bytes; chain 0 -> 1 -> 2.
  Call call{.size = 3, .root = 0, .bytes = 300000, .datatype_size = 1};
  auto ranks = run_all(tit::colls::bcast_ompi_pipeline, call);
  auto const& mid = ranks[1].ops;
  ASSERT_EQ(mid.size(), 1U + 18U * 4U + 3U);
  EXPECT_EQ((Ops{mid.begin(), mid.begin() + 5}), (Ops{"irecv 0 16384", "irecv 0 16384", "wait 0", "isend 2 16384",
                                                       "waitall 1"}));
  EXPECT_EQ((Ops{mid.end() - 3, mid.end()}), (Ops{"wait 0", "isend 2 5088", "waitall 1"}));
  EXPECT_EQ(ranks[0].ops.back(), "waitall 1");
  EXPECT_EQ(ranks[0].ops[ranks[0].ops.size() - 2], "isend 1 5088");
  EXPECT_EQ(ranks[2].ops.back(), "wait 1");
}

TEST(OmpiRootedSchedule, KnomialServesFourChildrenPerLevel)
{
  Call call{.size = 6, .root = 0, .bytes = 100, .datatype_size = 1};
  auto ranks = run_all(tit::colls::bcast_mvapich2_knomial_intra_node, call); // no engine: no init_smp
  EXPECT_EQ(ranks[0].ops, (Ops{"isend 4 100", "waitall 1", "isend 1 100", "isend 2 100", "isend 3 100", "waitall 3"}));
  EXPECT_EQ(ranks[4].ops, (Ops{"recv 0 100", "isend 5 100", "waitall 1"}));
  EXPECT_EQ(ranks[5].ops, (Ops{"recv 4 100"}));
}

TEST(OmpiRootedSchedule, SplitBinaryTreeSwapsHalves)
{
  // 4 ranks, 4000 chars: halves of 2000 in segments of 1024. Tree 0 -> 1 2, 1 -> 3; 1 and 3 are left.
  Call call{.size = 4, .root = 0, .bytes = 4000, .datatype_size = 1};
  auto ranks = run_all(tit::colls::bcast_ompi_split_bintree, call);
  EXPECT_EQ(ranks[0].ops, (Ops{"send 1 1024", "send 2 1024", "send 1 976", "send 2 976", "send 3 2000"}));
  EXPECT_EQ(ranks[1].ops, (Ops{"irecv 0 1024", "irecv 0 976", "waitall 1", "send 3 1024", "waitall 1",
                               "send 3 976", "isend 2 2000", "irecv 2 2000", "waitall 2"}));
  EXPECT_EQ(ranks[3].ops, (Ops{"recv 1 1024", "recv 1 976", "recv 0 2000"}));
}

TEST(OmpiRootedSchedule, ScatterRecursiveDoublingForFiveRanks)
{
  // 100 bytes on 5 ranks: pieces of 20. At distance 4 only rank 0 has a partner (4): it then passes what it
  // got from 4 on to 2 and 1 (recursive halving), and 2 to 3.
  Call call{.size = 5, .root = 0, .bytes = 100, .datatype_size = 1};
  auto ranks = run_all(tit::colls::bcast_scatter_rdb_allgather, call);
  EXPECT_EQ(ranks[0].ops, (Ops{"send 4 20", "send 2 40", "send 1 20", "isend 1 20", "irecv 1 80", "waitall 2",
                               "isend 2 40", "irecv 2 60", "waitall 2", "isend 4 80", "irecv 4 20", "waitall 2",
                               "send 2 20", "send 1 20"}));
  EXPECT_EQ(ranks[2].ops, (Ops{"recv 0 60", "send 3 20", "isend 3 20", "irecv 3 40", "waitall 2", "isend 0 40",
                               "irecv 0 100", "waitall 2", "recv 0 20", "send 3 20"}));
  EXPECT_EQ(ranks[4].ops, (Ops{"recv 0 20", "isend 0 20", "irecv 0 100", "waitall 2"}));
  expect_delivered(ranks, "rdb 5");
}

// SimGrid checks that every rank ends with the whole buffer: what the allgather brings plus its own piece.
TEST(OmpiRootedSchedule, ScatterRecursiveDoublingEndsWithEverything)
{
  for (int n = 2; n <= 40; ++n)
    for (std::int64_t bytes : {100, 1000, 4096, 65536, 1048576, 1234567}) {
      Call call{.size = n, .root = 0, .bytes = static_cast<double>(bytes), .datatype_size = 1};
      auto ranks = run_all(tit::colls::bcast_scatter_rdb_allgather, call);
      auto flow = expect_delivered(ranks, "rdb");
      std::int64_t piece = (bytes + n - 1) / n;
      for (int r = 1; r < n; ++r) {
        std::int64_t own = std::clamp<std::int64_t>(bytes - r * piece, 0, piece);
        double scattered = static_cast<double>(tit::colls::ompi::binomial_scatter_received(n, r, bytes));
        EXPECT_EQ(flow.in[static_cast<std::size_t>(r)] - scattered + static_cast<double>(own),
                  static_cast<double>(bytes))
            << "n=" << n << " bytes=" << bytes << " rank " << r;
      }
    }
}

TEST(OmpiRootedSchedule, DecisionsFollowOpenMpiBands)
{
  // 3 ranks, 50000 bytes: NTSB with 6 segments of 8192, the 848 left over by the decision again (knomial).
  Call bcast{.size = 3, .root = 0, .bytes = 50000, .datatype_size = 1};
  auto b = run_all(tit::colls::bcast_ompi, bcast);
  EXPECT_EQ(b[0].ops.size(), 12U + 1U + 3U);
  EXPECT_EQ(b[0].ops[0], "isend 1 8192");
  EXPECT_EQ(b[0].ops[1], "isend 2 8192");
  EXPECT_EQ((Ops{b[0].ops.end() - 4, b[0].ops.end()}), (Ops{"waitall 12", "isend 1 848", "isend 2 848", "waitall 2"}));
  // The same in doubles is 6250 elements: 1024 per segment, 106 left over.
  Call doubles{.size = 3, .root = 0, .bytes = 50000, .datatype_size = 8};
  EXPECT_EQ(run_all(tit::colls::bcast_ompi, doubles)[1].ops.back(), "recv 0 848");
  // 16 ranks, 2 MB: scatter then recursive doubling; 20 ranks, 100 B: knomial.
  Call big{.size = 16, .root = 0, .bytes = 2e6, .datatype_size = 8};
  EXPECT_EQ(run_all(tit::colls::bcast_ompi, big)[0].ops.front(), "send 8 1000000");
  Call small{.size = 20, .root = 0, .bytes = 100, .datatype_size = 4};
  EXPECT_EQ(run_all(tit::colls::bcast_ompi, small)[0].ops.front(), "isend 16 100");
  // Reduce: 3 ranks, 50000 B: basic linear; 8 B: basic linear; 8 ranks, 100 B: binary tree.
  Call reduce{.size = 3, .root = 0, .bytes = 50000, .datatype_size = 1};
  EXPECT_EQ(run_all(tit::colls::reduce_ompi, reduce)[0].ops, (Ops{"recv 2 50000", "recv 1 50000"}));
  Call tiny{.size = 8, .root = 0, .bytes = 100, .datatype_size = 4};
  EXPECT_EQ(run_all(tit::colls::reduce_ompi, tiny)[0].ops.front(), "irecv 1 100");
  // 40 ranks: binomial, unsegmented below 2048 bytes, 1 KiB segments when the communicator is large enough.
  Call binomial{.size = 40, .root = 0, .bytes = 40000, .datatype_size = 8};
  EXPECT_EQ(run_all(tit::colls::reduce_ompi, binomial)[1].ops.front(), "send 0 1024");
}

// ---- the reader gives the datatype size of bcast, reduce and allreduce -----------------------------

TEST(OmpiRootedReader, CollectivesKeepTheirDatatypeSize)
{
  using tit::trace::Dialect;
  tit::trace::testing::LineParser p("t.txt", tit::trace::detail::DialectGuess{Dialect::SimGrid, 0, ""}, 4);
  EXPECT_EQ(p.parse("0 bcast 100").datatype_size, 1);
  EXPECT_EQ(p.parse("0 bcast 100 3 1").datatype_size, 4); // MPI_INT
  EXPECT_EQ(p.parse("0 bcast 100 3 1").bytes, 400);
  EXPECT_EQ(p.parse("0 reduce 100 5 2 0").datatype_size, 8); // MPI_DOUBLE
  EXPECT_EQ(p.parse("0 reduce 100 5").datatype_size, 1);
  EXPECT_EQ(p.parse("0 allreduce 100 5 1").datatype_size, 4);
  EXPECT_EQ(p.parse("0 init 1").kind, tit::trace::Kind::Init); // then double is the default
  EXPECT_EQ(p.parse("0 allreduce 100 5").datatype_size, 8);
  EXPECT_EQ(p.parse("0 bcast 100").datatype_size, 8);
}

} // namespace

// Schedules of the Open MPI selector's allgather, allgatherv, gather, scatter and alltoallv algorithms and
// decisions, recorded without an engine; and the datatype sizes the trace reader gives them.
#include "coll_recorder.hpp"
#include "colls/colls.hpp"
#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"
#include "trace/reader.hpp"
#include "trace_lines_fixture.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using tit::colls::Algorithm;
using tit::colls::Call;

namespace {

using namespace tit::colls::testing;
using Ops = std::vector<std::string>;

/// Every message sent is received, in the same order per (source, destination, tag), into a buffer at least
/// as large (some algorithms post receives larger than the message, as MPI allows).
void expect_fits(const std::vector<Recorder>& ranks, const std::string& what)
{
  std::map<std::tuple<int, int, int>, std::vector<double>> sent, received;
  for (auto const& r : ranks) {
    for (auto const& [k, v] : r.sent)
      sent[k] = v;
    for (auto const& [k, v] : r.received)
      received[k] = v;
  }
  ASSERT_EQ(sent.size(), received.size()) << what;
  for (auto const& [key, sizes] : sent) {
    auto it = received.find(key);
    ASSERT_NE(it, received.end()) << what;
    ASSERT_EQ(sizes.size(), it->second.size()) << what;
    for (std::size_t i = 0; i < sizes.size(); ++i)
      EXPECT_LE(sizes[i], it->second[i]) << what << ": message " << i << " from " << std::get<0>(key) << " to "
                                         << std::get<1>(key);
  }
}

/// Bytes each rank has sent to `dst` over the whole schedule.
double bytes_to(const Recorder& r, int dst)
{
  double total = 0;
  for (auto const& [key, sizes] : r.sent)
    if (std::get<1>(key) == dst)
      for (double s : sizes)
        total += s;
  return total;
}

struct Named {
  const char* name;
  Algorithm algorithm;
  bool exact;         ///< receives posted at the message's size (else only at least as large)
  bool power_of_two;  ///< refuses other communicator sizes
};

void allgatherv_gb_binomial(tit::mpi::PointToPoint& r, const Call& c)
{
  tit::colls::allgatherv_gb(r, c, tit::colls::bcast_binomial);
}
void allgatherv_decision_binomial(tit::mpi::PointToPoint& r, const Call& c)
{
  tit::colls::allgatherv_ompi_with(r, c, tit::colls::bcast_binomial);
}

} // namespace

TEST(OmpiGatherSchedule, EveryAlgorithmMatchesForManySizesRootsAndBlocks)
{
  namespace c = tit::colls;
  const std::vector<Named> uniform{
      {"allgather_ompi", c::allgather_ompi, false, false},
      {"allgather_bruck", c::allgather_bruck, true, false},
      {"allgather_rdb", c::allgather_rdb, false, false},
      {"allgather_ring", c::allgather_ring, true, false},
      {"allgather_ompi_neighborexchange", c::allgather_ompi_neighborexchange, true, false},
      {"allgather_pair", c::allgather_pair, true, true},
      {"gather_ompi", c::gather_ompi, true, false},
      {"gather_ompi_basic_linear", c::gather_ompi_basic_linear, true, false},
      {"gather_ompi_binomial", c::gather_ompi_binomial, true, false},
      {"gather_ompi_linear_sync", c::gather_ompi_linear_sync, true, false},
      {"scatter_ompi", c::scatter_ompi, false, false},
      {"scatter_ompi_basic_linear", c::scatter_ompi_basic_linear, true, false},
      {"scatter_ompi_binomial", c::scatter_ompi_binomial, false, false},
      {"scatter_ompi_linear_nb", c::scatter_ompi_linear_nb, true, false},
  };
  const std::vector<Named> varying{
      {"allgatherv_ompi", allgatherv_decision_binomial, true, false},
      {"allgatherv_gb", allgatherv_gb_binomial, true, false},
      {"allgatherv_mpich_ring", c::allgatherv_mpich_ring, true, false},
      {"allgatherv_ompi_bruck", c::allgatherv_ompi_bruck, true, false},
      {"allgatherv_ompi_neighborexchange", c::allgatherv_ompi_neighborexchange, true, false},
      {"allgatherv_ring", c::allgatherv_ring, true, false},
      {"allgatherv_pair", c::allgatherv_pair, true, true},
  };
  for (int n = 1; n <= 33; ++n) {
    bool pof2 = (n & (n - 1)) == 0;
    for (int root : {0, n / 2, n - 1}) {
      for (double bytes : {0.0, 1.0, 8.0, 800.0, 40000.0, 100000.0, 700000.0}) {
        for (double dt : {1.0, 8.0}) {
          Call call{.size = n, .root = root, .bytes = bytes, .bytes2 = bytes, .datatype_size = dt};
          for (auto const& a : uniform) {
            if (a.power_of_two && not pof2)
              continue;
            auto what = fmt::format("{} on {} ranks, root {}, {} B of {}-byte elements", a.name, n, root, bytes, dt);
            auto ranks = run_all(a.algorithm, call);
            if (a.exact)
              expect_matched(ranks, what);
            else
              expect_fits(ranks, what);
          }
          // allgatherv: rank i contributes a block growing with i (some empty when bytes is 0 or 1 element).
          std::vector<double> counts;
          for (int i = 0; i < n; ++i)
            counts.push_back(dt * std::floor(bytes / dt * (i % 4) / 2));
          for (auto const& a : varying) {
            if (a.power_of_two && not pof2)
              continue;
            auto ranks = run_each(a.algorithm, n, [&](int r) {
              return Call{.size = n,
                          .root = root,
                          .bytes = counts[static_cast<std::size_t>(r)],
                          .recv_counts = &counts,
                          .datatype_size = dt};
            });
            expect_matched(ranks, fmt::format("{} on {} ranks, blocks up to {} B", a.name, n, bytes));
          }
        }
      }
    }
    // alltoallv: i sends (i + 1) x (j + 2) x 100 bytes to j, some empty.
    std::vector<std::vector<double>> to(static_cast<std::size_t>(n)), from(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        to[static_cast<std::size_t>(i)].push_back((i + j) % 3 == 0 ? 0 : (i + 1) * (j + 2) * 100.0);
        from[static_cast<std::size_t>(i)].push_back((j + i) % 3 == 0 ? 0 : (j + 1) * (i + 2) * 100.0);
      }
    auto a2av = [&](int r) {
      return Call{.size = n, .send_counts = &to[static_cast<std::size_t>(r)], .recv_counts = &from[static_cast<std::size_t>(r)]};
    };
    expect_matched(run_each(c::alltoallv_ompi_basic_linear, n, a2av), fmt::format("alltoallv linear {}", n));
    if (pof2)
      expect_matched(run_each(c::alltoallv_pair, n, a2av), fmt::format("alltoallv pair {}", n));
    if (n != 3)
      expect_matched(run_each(c::alltoallv_ompi, n, a2av), fmt::format("alltoallv_ompi {}", n));
  }
}

TEST(OmpiGatherSchedule, EveryRankReceivesEveryBlockOnce)
{
  // Allgather: whatever the algorithm, each rank ends up receiving n - 1 blocks (rdb and Bruck pack them).
  namespace c = tit::colls;
  for (Algorithm a : {c::allgather_bruck, c::allgather_ring, c::allgather_ompi_neighborexchange}) {
    for (int n : {2, 3, 5, 6, 8, 13}) {
      auto ranks = run_all(a, Call{.size = n, .bytes = 10, .bytes2 = 10});
      for (auto const& r : ranks) {
        double received = 0;
        for (auto const& [key, sizes] : r.received)
          for (double s : sizes)
            received += s;
        EXPECT_EQ(received, 10.0 * (n - 1)) << n;
      }
    }
  }
  // Recursive doubling: what the ranks send adds up to what they receive, n - 1 blocks each.
  for (int n = 1; n <= 33; ++n) {
    auto ranks = run_all(c::allgather_rdb, Call{.size = n, .bytes = 10, .bytes2 = 10});
    double sent = 0;
    for (int dst = 0; dst < n; ++dst)
      for (auto const& r : ranks)
        sent += bytes_to(r, dst);
    EXPECT_EQ(sent, 10.0 * n * (n - 1)) << n;
  }
}

TEST(OmpiGatherSchedule, BruckAllgatherDoublesThenSendsTheRemainder)
{
  auto ranks = run_all(tit::colls::allgather_bruck, Call{.size = 5, .bytes = 3, .bytes2 = 3});
  EXPECT_EQ(ranks[0].ops, (Ops{"isend 4 3", "irecv 1 3", "waitall 2", "isend 3 6", "irecv 2 6", "waitall 2",
                               "isend 1 3", "irecv 4 3", "waitall 2"}));
}

TEST(OmpiGatherSchedule, RecursiveDoublingCompletesTheRankWithoutPartner)
{
  // 3 ranks: 0 <-> 1, then 0 <-> 2 (2 has no partner at distance 1, 1 none at distance 2: 0 forwards
  // to 1 the block it got from 2). Receives are posted for a whole subtree.
  auto ranks = run_all(tit::colls::allgather_rdb, Call{.size = 3, .bytes = 5, .bytes2 = 5});
  EXPECT_EQ(ranks[0].ops,
            (Ops{"isend 1 5", "irecv 1 5", "waitall 2", "isend 2 10", "irecv 2 10", "waitall 2", "send 1 5"}));
  EXPECT_EQ(ranks[1].ops, (Ops{"isend 0 5", "irecv 0 5", "waitall 2", "recv 0 5"}));
  EXPECT_EQ(ranks[2].ops, (Ops{"isend 0 5", "irecv 0 10", "waitall 2"}));
}

TEST(OmpiGatherSchedule, NeighborExchangeAlternatesNeighbours)
{
  auto ranks = run_all(tit::colls::allgather_ompi_neighborexchange, Call{.size = 6, .bytes = 2, .bytes2 = 2});
  EXPECT_EQ(ranks[0].ops, (Ops{"isend 1 2", "irecv 1 2", "waitall 2", "isend 5 4", "irecv 5 4", "waitall 2",
                               "isend 1 4", "irecv 1 4", "waitall 2"}));
  EXPECT_EQ(ranks[3].ops, (Ops{"isend 2 2", "irecv 2 2", "waitall 2", "isend 4 4", "irecv 4 4", "waitall 2",
                               "isend 2 4", "irecv 2 4", "waitall 2"}));
  // Odd sizes: the ring.
  auto odd = run_all(tit::colls::allgather_ompi_neighborexchange, Call{.size = 3, .bytes = 2, .bytes2 = 2});
  EXPECT_EQ(odd[0].ops, (Ops{"isend 1 2", "irecv 2 2", "waitall 2", "isend 2 2", "irecv 1 2", "waitall 2"}));
}

TEST(OmpiGatherSchedule, AllgathervPacksBlocks)
{
  std::vector<double> counts{1, 10, 100, 1000, 10000};
  auto call = [&](int r) {
    return Call{.size = 5, .bytes = counts[static_cast<std::size_t>(r)], .recv_counts = &counts};
  };
  auto bruck = run_each(tit::colls::allgatherv_ompi_bruck, 5, call);
  // distance 1: own block to 4, block of 2 from 2; distance 2: blocks 1, 2 to 4... from rank 3;
  // distance 4: one block (5 - 4), its own, to rank 2 (1 - 4 mod 5), that of rank 0 from it.
  EXPECT_EQ(bruck[1].ops, (Ops{"isend 0 10", "irecv 2 100", "waitall 2", "isend 4 110", "irecv 3 11000",
                               "waitall 2", "isend 2 10", "irecv 0 1", "waitall 2"}));
  std::vector<double> six{1, 10, 100, 1000, 10000, 100000};
  auto ne = run_each(tit::colls::allgatherv_ompi_neighborexchange, 6, [&](int r) {
    return Call{.size = 6, .bytes = six[static_cast<std::size_t>(r)], .recv_counts = &six};
  });
  EXPECT_EQ(ne[2].ops, (Ops{"isend 3 100", "irecv 3 1000", "waitall 2", "isend 1 1100", "irecv 1 11",
                            "waitall 2", "isend 3 11", "irecv 3 110000", "waitall 2"}));
}

TEST(OmpiGatherSchedule, MpichRingCutsBlocksIn256KiBPieces)
{
  std::vector<double> counts{600000, 8, 0};
  auto ranks = run_each(tit::colls::allgatherv_mpich_ring, 3, [&](int r) {
    return Call{.size = 3, .bytes = counts[static_cast<std::size_t>(r)], .recv_counts = &counts, .datatype_size = 8};
  });
  EXPECT_EQ(ranks[0].ops, (Ops{"send 1 262144", "isend 1 262144", "irecv 2 8", "waitall 2", "send 1 75712"}));
  expect_matched(ranks, "mpich ring");
  // Large elements: the piece is a whole number of elements (262144 / 24 = 10922 of them, 262128 B).
  std::vector<double> big{24 * 20000.0, 24};
  auto two = run_each(tit::colls::allgatherv_mpich_ring, 2, [&](int r) {
    return Call{.size = 2, .bytes = big[static_cast<std::size_t>(r)], .recv_counts = &big, .datatype_size = 24};
  });
  EXPECT_EQ(two[0].ops, (Ops{"isend 1 262128", "irecv 1 24", "waitall 2", "send 1 217872"}));
  EXPECT_EQ(two[1].ops, (Ops{"isend 0 24", "irecv 0 262128", "waitall 2", "recv 0 217872"}));
}

TEST(OmpiGatherSchedule, BinomialGatherAndScatterFollowTheInOrderTree)
{
  // 5 ranks, root 2: virtual ranks 2->0, 3->1, 4->2, 0->3, 1->4. The root's children: 3 (1 block),
  // 4 (2 blocks: its own and 0's), 1 (1 block).
  auto g = run_all(tit::colls::gather_ompi_binomial, Call{.size = 5, .root = 2, .bytes = 7, .bytes2 = 7});
  EXPECT_EQ(g[2].ops, (Ops{"recv 3 7", "recv 4 14", "recv 1 7"}));
  EXPECT_EQ(g[4].ops, (Ops{"recv 0 7", "send 2 14"}));
  EXPECT_EQ(g[0].ops, (Ops{"send 4 7"}));
  auto s = run_all(tit::colls::scatter_ompi_binomial, Call{.size = 5, .root = 2, .bytes = 7, .bytes2 = 7});
  EXPECT_EQ(s[2].ops, (Ops{"send 3 7", "send 4 14", "send 1 7"}));
  EXPECT_EQ(s[4].ops, (Ops{"recv 2 35", "send 0 7"})); // posted for all the blocks
  EXPECT_EQ(s[3].ops, (Ops{"recv 2 7"}));
}

TEST(OmpiGatherSchedule, LinearSyncGatherSendsTwoSegmentsAfterAGoAhead)
{
  // 100000 B of doubles: above 92160 B, the first segment is 32768 B (4096 elements).
  auto ranks = run_all(tit::colls::gather_ompi_linear_sync,
                       Call{.size = 3, .root = 0, .bytes = 100000, .bytes2 = 100000, .datatype_size = 8});
  EXPECT_EQ(ranks[0].ops, (Ops{"irecv 1 32768", "send 1 0", "irecv 1 67232", "wait 1", "irecv 2 32768", "send 2 0",
                               "irecv 2 67232", "wait 2", "waitall 2"}));
  EXPECT_EQ(ranks[1].ops, (Ops{"recv 0 0", "send 0 32768", "send 0 67232"}));
  // 996 B of 12-byte elements: a 1024 B segment holds the whole block: all of it, then an empty message.
  auto small = run_all(tit::colls::gather_ompi_linear_sync,
                       Call{.size = 2, .root = 1, .bytes = 996, .bytes2 = 996, .datatype_size = 12});
  EXPECT_EQ(small[0].ops, (Ops{"recv 1 0", "send 1 996", "send 1 0"}));
  // 2004 B of 12-byte elements: 1024 B round to 85 elements (1020 B; the residual 4 B is under half an element).
  auto cut = run_all(tit::colls::gather_ompi_linear_sync,
                     Call{.size = 2, .root = 1, .bytes = 2004, .bytes2 = 2004, .datatype_size = 12});
  EXPECT_EQ(cut[0].ops, (Ops{"recv 1 0", "send 1 1020", "send 1 984"}));
}

TEST(OmpiGatherSchedule, DecisionsFollowOpenMpiBands)
{
  namespace c = tit::colls;
  auto first_ops = [](Algorithm a, const Call& call, int rank) { return run_all(a, call)[static_cast<std::size_t>(rank)].ops; };
  // allgather: 2 ranks pair; fewer than 32 recursive doubling; 40 ranks: neighbour exchange from 1 KiB,
  // ring from 64 KiB.
  EXPECT_EQ(first_ops(c::allgather_ompi, Call{.size = 2, .bytes = 4, .bytes2 = 4}, 0),
            first_ops(c::allgather_pair, Call{.size = 2, .bytes = 4, .bytes2 = 4}, 0));
  EXPECT_EQ(first_ops(c::allgather_ompi, Call{.size = 6, .bytes = 1e6, .bytes2 = 1e6}, 1),
            first_ops(c::allgather_rdb, Call{.size = 6, .bytes = 1e6, .bytes2 = 1e6}, 1));
  EXPECT_EQ(first_ops(c::allgather_ompi, Call{.size = 40, .bytes = 1024, .bytes2 = 1024}, 1),
            first_ops(c::allgather_ompi_neighborexchange, Call{.size = 40, .bytes = 1024, .bytes2 = 1024}, 1));
  EXPECT_EQ(first_ops(c::allgather_ompi, Call{.size = 40, .bytes = 65536, .bytes2 = 65536}, 1),
            first_ops(c::allgather_ring, Call{.size = 40, .bytes = 65536, .bytes2 = 65536}, 1));
  EXPECT_EQ(first_ops(c::allgather_ompi, Call{.size = 300, .bytes = 64, .bytes2 = 64}, 7),
            first_ops(c::allgather_bruck, Call{.size = 300, .bytes = 64, .bytes2 = 64}, 7));

  // gather: below 4 ranks, 0-1 B synchronized linear, 2-3 B basic linear, then binomial; 4-7 ranks basic
  // linear from 1 KiB.
  EXPECT_EQ(first_ops(c::gather_ompi, Call{.size = 3, .bytes = 1, .bytes2 = 1}, 1), (Ops{"recv 0 0", "send 0 1", "send 0 0"}));
  EXPECT_EQ(first_ops(c::gather_ompi, Call{.size = 3, .bytes = 2, .bytes2 = 2}, 0), (Ops{"recv 1 2", "recv 2 2"}));
  EXPECT_EQ(first_ops(c::gather_ompi, Call{.size = 3, .bytes = 4, .bytes2 = 4}, 0), (Ops{"recv 1 4", "recv 2 4"}));
  EXPECT_EQ(first_ops(c::gather_ompi, Call{.size = 4, .bytes = 4, .bytes2 = 4}, 0), (Ops{"recv 1 4", "recv 2 8"}));
  EXPECT_EQ(first_ops(c::gather_ompi, Call{.size = 4, .bytes = 1024, .bytes2 = 1024}, 0),
            (Ops{"recv 1 1024", "recv 2 1024", "recv 3 1024"}));

  // scatter: below 4 ranks, 0-1 B isends, then blocking sends; 4-7 ranks binomial below 2 KiB.
  EXPECT_EQ(first_ops(c::scatter_ompi, Call{.size = 3, .bytes = 1, .bytes2 = 1}, 0), (Ops{"isend 1 1", "isend 2 1", "waitall 2"}));
  EXPECT_EQ(first_ops(c::scatter_ompi, Call{.size = 3, .bytes = 2, .bytes2 = 2}, 0), (Ops{"send 1 2", "send 2 2"}));
  EXPECT_EQ(first_ops(c::scatter_ompi, Call{.size = 4, .bytes = 2, .bytes2 = 2}, 0), (Ops{"send 1 2", "send 2 4"}));
  EXPECT_EQ(first_ops(c::scatter_ompi, Call{.size = 3, .bytes = 200000, .bytes2 = 200000}, 0),
            (Ops{"isend 1 200000", "isend 2 200000", "waitall 2"}));

  // allgatherv on the mean block: 4 ranks below 256 B gather + bcast, then neighbour exchange; 2 ranks ring.
  std::vector<double> small{100, 200, 300, 400}; // mean 250
  std::vector<double> medium{100, 200, 300, 424}; // mean 256
  auto v = [](const std::vector<double>& counts) {
    return [&counts](int r) { return Call{.size = static_cast<int>(counts.size()), .bytes = counts[static_cast<std::size_t>(r)], .recv_counts = &counts}; };
  };
  EXPECT_EQ(run_each(allgatherv_decision_binomial, 4, v(small))[1].ops.front(), "isend 0 200");
  EXPECT_EQ(run_each(allgatherv_decision_binomial, 4, v(medium))[1].ops.front(), "isend 0 200");
  EXPECT_EQ(run_each(allgatherv_decision_binomial, 4, v(medium))[1].ops[1], "irecv 0 100");
  std::vector<double> two{100, 3000};
  EXPECT_EQ(run_each(allgatherv_decision_binomial, 2, v(two))[0].ops,
            (Ops{"isend 1 100", "irecv 1 3000", "waitall 2"}));

  // alltoallv: pairwise below 4 ranks (3 is refused, as SimGrid does), linear from 4.
  std::vector<double> sizes(4, 10);
  auto a2av = [&](int n) {
    return [&sizes, n](int) { return Call{.size = n, .send_counts = &sizes, .recv_counts = &sizes}; };
  };
  EXPECT_EQ(run_each(c::alltoallv_ompi, 4, a2av(4))[0].ops.back(), "waitall 6");
  EXPECT_EQ(run_each(c::alltoallv_ompi, 2, a2av(2))[0].ops, (Ops{"isend 1 10", "irecv 1 10", "waitall 2"}));
  EXPECT_THROW(run_each(c::alltoallv_ompi, 3, a2av(3)), tit::mpi::MpiError);
  EXPECT_THROW(run_all(c::allgather_pair, Call{.size = 6}), tit::mpi::MpiError);
}

TEST(OmpiGatherSchedule, GatherBcastAllgathervBroadcastsTheLargestBlock)
{
  std::vector<double> counts{5, 50, 20};
  auto ranks = run_each(allgatherv_gb_binomial, 3, [&](int r) {
    return Call{.size = 3, .root = 2, .bytes = counts[static_cast<std::size_t>(r)], .recv_counts = &counts};
  });
  // SimGrid's gatherv to 0 (the root given is ignored), then the bcast of 50 B from 0.
  EXPECT_EQ(ranks[0].ops, (Ops{"irecv 1 50", "irecv 2 20", "waitall 2", "send 2 50", "send 1 50"}));
  EXPECT_EQ(ranks[2].ops, (Ops{"isend 0 20", "waitall 1", "recv 0 50"}));
}

// ---- what the trace reader gives these algorithms ----

namespace tit::trace {

struct OmpiGatherReader : testing::LineParser {
  OmpiGatherReader() : LineParser("g.txt", detail::DialectGuess{Dialect::SimGrid, 0, ""}, 4) {}
};

TEST(OmpiGatherReader, GatherAndAllgathervCarryTheirDatatypeSize)
{
  OmpiGatherReader p;
  EXPECT_EQ(p.parse("0 gather 10 10 1 0 0").datatype_size, 8.0); // double: the linear sync's segments count them
  EXPECT_EQ(p.parse("0 gather 10 10").datatype_size, 1.0);        // default: byte
  EXPECT_EQ(p.parse("0 scatter 10 10 1 1 1").datatype_size, 4.0);
  EXPECT_EQ(p.parse("0 allgatherv 10 1 2 3 4 1 1").datatype_size, 4.0); // int: MPICH's ring pieces count them
  EXPECT_EQ(p.parse("0 allgatherv 10 1 2 3 4").datatype_size, 1.0);
}

} // namespace tit::trace

// The `stats` values of compressed traces (libs/compressed/values/stats.cpp): schedules, levels, heads, rare
// values, phases.
#include "compressed_test_support.hpp"

namespace tit::trace {
namespace {

using namespace compressed_test;

TEST(CompressedTrace, StatsScheduleIsDeterministicAndKeepsTheDistribution)
{
  std::vector<double> v;
  for (int i = 0; i < 1000; ++i)
    v.push_back(1000 + (i * 7919) % 1000); // 1000 .. 1999, each once, in a scrambled order
  std::vector<std::string> s = cformat::stats_schedule(v, true);
  ASSERT_EQ(s.size(), cformat::kStatsSlots);
  EXPECT_EQ(s, cformat::stats_schedule(v, true));
  double sum = 0;
  for (const std::string& x : s) {
    double d = std::stod(x);
    EXPECT_GE(d, 1000);
    EXPECT_LE(d, 1999);
    sum += d;
  }
  EXPECT_NEAR(sum / 16, 1499.5, 1);
  // quantile groups in bit-reversed order: the lowest group first, then the middle one, ...
  EXPECT_EQ(s[0], "1031");
  EXPECT_EQ(s[1], "1531");
  EXPECT_EQ(s[15], "1968");
  // a rank's own order: a permutation of the draws, fixed per rank, different between ranks
  std::array<std::uint8_t, 16> a = cformat::stats_order(1, 0), b = cformat::stats_order(2, 0);
  EXPECT_EQ(a, cformat::stats_order(1, 0));
  EXPECT_NE(a, b);
  EXPECT_NE(a, cformat::stats_order(1, 1)); // and per cycle of 16 draws
  std::sort(a.begin(), a.end());
  for (std::uint8_t i = 0; i < 16; ++i)
    EXPECT_EQ(a[i], i);
  // too few values for a distribution: kept as they are, in order; fractions stay fractions
  EXPECT_EQ(cformat::stats_schedule({3, 1, 2}, true), (std::vector<std::string>{"3", "1", "2"}));
  EXPECT_EQ(cformat::stats_schedule({0.5, 0.25}, false), (std::vector<std::string>{"0.5", "0.25"}));
}

TEST(CompressedTrace, StatsSizeStopsGrowingWithIterationsAndVolumesKeepTheirTotals)
{
  fs::path p1 = write_file(scratch_dir() / "n1.txt", noisy_trace(500));
  fs::path p4 = write_file(scratch_dir() / "n4.txt", noisy_trace(2000));
  fs::path s1 = scratch_dir() / "s1.tit", s4 = scratch_dir() / "s4.tit", e4 = scratch_dir() / "e4.tit";
  ValueMode stats = parse_value_mode("stats");
  CompressStats c1 = compress(*TraceSet::open(p1, std::nullopt), s1, stats);
  CompressStats c4 = compress(*TraceSet::open(p4, std::nullopt), s4, stats);
  CompressStats x4 = compress(*TraceSet::open(p4, std::nullopt), e4, ValueMode{});
  // random volumes: exact grows with the iterations, stats does not (a distribution per action of the loop body)
  EXPECT_LT(c4.bytes, c1.bytes + 64) << "stats: " << c1.bytes << " B at 500 iterations, " << c4.bytes << " at 2000";
  EXPECT_LT(c4.bytes * 20, x4.bytes) << "stats " << c4.bytes << ", exact " << x4.bytes;
  // the file says which mode made it, in the version that can say it
  EXPECT_EQ(compressed_info(s4).value_mode, "stats");
  EXPECT_EQ(compressed_info(s4).version, cformat::kBaseVersion);
  EXPECT_EQ(compressed_info(e4).version, cformat::kBaseVersion);
  // deterministic: the same file, and the same draws, every time
  fs::path again = scratch_dir() / "again.tit";
  compress(*TraceSet::open(p4, std::nullopt), again, stats);
  EXPECT_EQ(file_bytes(again), file_bytes(s4));
  EXPECT_EQ(read_all(s4), read_all(again));
  // only volumes change; per rank, their totals stay within 0.5 %, each within the range of the traced ones
  auto p = TraceSet::open(p4, std::nullopt);
  auto c = TraceSet::open(s4, std::nullopt);
  for (int r = 0; r < 2; ++r) {
    auto pr = p->reader(r), cr = c->reader(r);
    Action pa, ca;
    double flops[2] = {0, 0}, bytes_sent[2] = {0, 0};
    double lo = 1e300, hi = 0, drawn_lo = 1e300, drawn_hi = 0;
    int changed = 0;
    while (pr->next(pa)) {
      ASSERT_TRUE(cr->next(ca));
      ASSERT_EQ(pa.kind, ca.kind);
      EXPECT_EQ(pa.partner, ca.partner);
      EXPECT_EQ(pa.tag, ca.tag);
      EXPECT_EQ(pa.bytes == kUnknownSize, ca.bytes == kUnknownSize);
      if (pa.kind == Kind::Compute) {
        flops[0] += pa.amount;
        flops[1] += ca.amount;
        lo = std::min(lo, pa.amount);
        hi = std::max(hi, pa.amount);
        drawn_lo = std::min(drawn_lo, ca.amount);
        drawn_hi = std::max(drawn_hi, ca.amount);
        changed += pa.amount != ca.amount ? 1 : 0;
      }
      if (pa.kind == Kind::Isend) {
        bytes_sent[0] += pa.bytes;
        bytes_sent[1] += ca.bytes;
      }
    }
    EXPECT_FALSE(cr->next(ca));
    EXPECT_GE(drawn_lo, lo);
    EXPECT_LE(drawn_hi, hi);
    EXPECT_GT(drawn_hi - drawn_lo, 0.8 * (hi - lo)) << "a distribution, not a mean";
    EXPECT_NEAR(flops[1] / flops[0], 1, 0.005) << "rank " << r;
    EXPECT_NEAR(bytes_sent[1] / bytes_sent[0], 1, 0.005) << "rank " << r;
    EXPECT_GT(changed, 1900);
  }
}

TEST(CompressedTrace, StatsRanksOfOneStructureShareTheirDistributions)
{
  // 16 ranks of a ring: one structure, so one value block, whose size does not follow the ranks
  auto bytes_of = [](int ranks) {
    fs::path p = write_file(scratch_dir() / fmt::format("ring{}.txt", ranks), noisy_trace(200, ranks));
    fs::path s = scratch_dir() / fmt::format("ring{}.tit", ranks);
    CompressStats c = compress(*TraceSet::open(p, std::nullopt), s, parse_value_mode("stats"));
    EXPECT_EQ(c.value_blocks, 1u) << ranks << " ranks";
    EXPECT_EQ(c.structures, 1u) << ranks << " ranks";
    return c.bytes;
  };
  std::uint64_t b4 = bytes_of(4), b16 = bytes_of(16);
  EXPECT_LT(b16, b4 * 3 / 2) << b4 << " B at 4 ranks, " << b16 << " B at 16";
  fs::path plain = scratch_dir() / "ring16.txt", packed = scratch_dir() / "ring16.tit";
  auto p = TraceSet::open(plain, std::nullopt);
  auto c = TraceSet::open(packed, std::nullopt);
  std::vector<std::vector<double>> drawn(16);
  std::vector<double> rank0_sizes;
  for (int r = 0; r < 16; ++r) {
    auto pr = p->reader(r), cr = c->reader(r);
    Action pa, ca;
    double flops[2] = {0, 0};
    std::vector<double> sizes;
    while (pr->next(pa)) {
      ASSERT_TRUE(cr->next(ca));
      ASSERT_EQ(pa.kind, ca.kind);
      EXPECT_EQ(pa.partner, ca.partner);
      if (pa.kind == Kind::Compute) {
        flops[0] += pa.amount;
        flops[1] += ca.amount;
        drawn[static_cast<std::size_t>(r)].push_back(ca.amount / (r + 1));
      }
      if (pa.kind == Kind::Isend)
        sizes.push_back(ca.bytes);
    }
    EXPECT_FALSE(cr->next(ca));
    // each rank keeps its level (rank r computes r + 1 times as much as rank 0)
    EXPECT_NEAR(flops[1] / flops[0], 1, 0.01) << "rank " << r;
    // message sizes: one schedule in the same order on every rank, so that a receiver's sizes are its sender's
    if (r == 0)
      rank0_sizes = sizes;
    EXPECT_EQ(sizes, rank0_sizes) << "rank " << r;
  }
  // compute draws: the same distribution (once scaled to the level), each rank in its own order
  // tools that load the whole file (proxy, extrapolate) get each rank's draws in its own streams, as version 2 kept
  // them, and writing that back gives a version 2 file of the same actions
  cformat::Loaded l = cformat::load_compressed(packed.string());
  EXPECT_FALSE(l.meta.pooled);
  EXPECT_EQ(l.meta.value_mode, "stats");
  EXPECT_EQ(l.blocks.size(), 16u);
  fs::path v2 = scratch_dir() / "ring16-v2.tit";
  cformat::write_compressed(v2, l);
  EXPECT_EQ(compressed_info(v2).version, cformat::kBaseVersion); // value mode byte 2, in a version 6 file
  EXPECT_EQ(read_all(v2), read_all(packed));
  auto order_of = [](const std::vector<double>& v) { // the order of the first 16 draws: which is the smallest, ...
    std::vector<std::size_t> idx(16);
    for (std::size_t i = 0; i < 16; ++i)
      idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) { return v[x] < v[y]; });
    return idx;
  };
  for (int r = 1; r < 16; ++r) {
    std::vector<double> a = drawn[0], b = drawn[static_cast<std::size_t>(r)];
    std::vector<std::size_t> oa = order_of(a), ob = order_of(b);
    int same_place = 0;
    for (std::size_t i = 0; i < 16; ++i)
      same_place += oa[i] == ob[i] ? 1 : 0;
    EXPECT_LT(same_place, 8) << "rank " << r << " draws in rank 0's order";
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_NEAR(b.front() / a.front(), 1, 0.03) << "rank " << r;
    EXPECT_NEAR(b.back() / a.back(), 1, 0.03) << "rank " << r;
  }
}

TEST(CompressedTrace, StatsSporadicComputesAreValuesNotStructure)
{
  constexpr int kRanks = 4, kIterations = 400;
  fs::path plain = write_file(scratch_dir() / "sporadic.txt", sporadic_trace(kIterations, kRanks));
  fs::path e = scratch_dir() / "sporadic-e.tit", s = scratch_dir() / "sporadic-s.tit";
  CompressStats exact = compress(*TraceSet::open(plain, std::nullopt), e, ValueMode{});
  CompressStats stats = compress(*TraceSet::open(plain, std::nullopt), s, parse_value_mode("stats"));
  // each rank's computes fall in other iterations: every rank its own structure in exact, one in stats
  EXPECT_EQ(exact.structures, static_cast<std::uint64_t>(kRanks));
  EXPECT_EQ(stats.structures, 1u);
  EXPECT_LT(stats.bytes * 10, exact.bytes) << "stats " << stats.bytes << " B, exact " << exact.bytes << " B";
  auto p = TraceSet::open(plain, std::nullopt);
  auto c = TraceSet::open(s, std::nullopt);
  for (int r = 0; r < kRanks; ++r) {
    // the other actions are the same, in the same order; the computes are drawn where they were traced
    auto pr = p->reader(r), cr = c->reader(r);
    std::vector<std::string> others[2];
    double flops[2] = {0, 0};
    int computes[2] = {0, 0}, after_isend = 0, before_isend = 0;
    Action a;
    for (int k = 0; k < 2; ++k) {
      RankReader& reader = k == 0 ? *pr : *cr;
      Kind before = Kind::Init;
      while (reader.next(a)) {
        if (a.kind == Kind::Compute) {
          ++computes[k];
          flops[k] += a.amount;
          if (k == 1) {
            EXPECT_GT(a.amount, 0) << "rank " << r << ": a draw of an absent compute is no action";
            after_isend += before == Kind::Isend ? 1 : 0;
            before_isend += before == Kind::WaitAll || before == Kind::Init ? 1 : 0;
          }
        } else {
          others[k].push_back(fields(a));
        }
        before = a.kind;
      }
    }
    EXPECT_EQ(others[0], others[1]) << "rank " << r;
    EXPECT_EQ(after_isend, 0) << "rank " << r << ": a gap that never held a compute holds none";
    // the share of iterations with a compute before the isend (40 %) holds, to a group of the distribution
    EXPECT_NEAR(static_cast<double>(before_isend) / kIterations, 0.4, 1.0 / 16) << "rank " << r;
    EXPECT_NEAR(flops[1] / flops[0], 1, 0.01) << "rank " << r;
    EXPECT_NE(computes[0], 0);
  }
  // deterministic: the same file, and the same actions, every time
  fs::path again = scratch_dir() / "sporadic-again.tit";
  compress(*TraceSet::open(plain, std::nullopt), again, parse_value_mode("stats"));
  EXPECT_EQ(file_bytes(again), file_bytes(s));
  EXPECT_EQ(read_all(again), read_all(s));
}

TEST(CompressedTrace, StatsKeepsValuesThatRepeatWithAShortPeriod)
{
  // rank r computes 1e6 + 1e4 * ((37 (3 r + it)) mod P) at iteration it: a fixed imbalance pattern of period P on
  // every rank (scrambled: no arithmetic runs)
  auto pattern = [](int period) {
    std::string t;
    for (int r = 0; r < 4; ++r) {
      t += fmt::format("{} init\n", r);
      for (int it = 0; it < 300; ++it)
        t += fmt::format("{} compute {}\n{} send {} 5 1000 0\n{} recv {} 5 1000 0\n", r,
                         1000000 + 10000 * (37 * (3 * r + it) % period), r, (r + 1) % 4, r, (r + 3) % 4);
      t += fmt::format("{} finalize\n", r);
    }
    return t;
  };
  fs::path p20 = write_file(scratch_dir() / "pattern20.txt", pattern(20));
  fs::path s20 = scratch_dir() / "pattern20.tit";
  CompressStats c20 = compress(*TraceSet::open(p20, std::nullopt), s20, parse_value_mode("stats"));
  EXPECT_EQ(read_all(s20), read_all(p20)) << "a period of 20 is kept as traced";
  // where keeping every value makes a smaller file than the distributions, the values are kept (the few values
  // before the loop folds are not drawn either): about exact's size
  CompressStats e20 = compress(*TraceSet::open(p20, std::nullopt), scratch_dir() / "pattern20-e.tit", ValueMode{});
  EXPECT_LT(c20.bytes, e20.bytes + e20.bytes / 4) << "stats " << c20.bytes << " B, exact " << e20.bytes << " B";
  // a period longer than a repeat of the value streams holds (64): drawn, in each rank's order
  fs::path p97 = write_file(scratch_dir() / "pattern97.txt", pattern(97));
  fs::path s97 = scratch_dir() / "pattern97.tit";
  compress(*TraceSet::open(p97, std::nullopt), s97, parse_value_mode("stats"));
  EXPECT_TRUE(read_all(s97) != read_all(p97)) << "drawn";
  EXPECT_EQ(read_all(s97).size(), 4u);
}

TEST(CompressedTrace, StatsPoolsTheComputesOfRankStructuresOfOneShape)
{
  constexpr int kRanks = 8, kIterations = 100;
  fs::path plain = write_file(scratch_dir() / "pairs.txt", pairs_trace(kIterations, kRanks));
  // the pooled part: the compute of the loop body of each of the two structures draws from one schedule
  std::uint64_t actions = 0;
  cformat::Part part = cformat::fold_parts(*TraceSet::open(plain, std::nullopt), parse_value_mode("stats"), actions);
  cformat::pool_stats(part);
  std::set<std::uint32_t> roots;
  for (const auto& r : part.ranks)
    roots.insert(r.root);
  ASSERT_EQ(roots.size(), 2u);
  std::vector<const cformat::Schedule*> computes, sizes;
  for (const cformat::Schedule& s : part.schedules) {
    const std::string& name = part.signatures[part.nodes[part.bodies[s.body][s.position]].ref].name;
    if (name != "compute")
      sizes.push_back(&s);
    else if (s.rank_order) // not the schedules of 0s of the gaps that never held a compute
      computes.push_back(&s);
  }
  ASSERT_EQ(computes.size(), 2u);
  EXPECT_NE(computes[0]->body, computes[1]->body);
  EXPECT_EQ(computes[0]->draws, computes[1]->draws) << "one distribution for both structures' computes";
  // message sizes stay per body: the even ranks' sends (about 40,000) are not drawn with the odd ranks' (90,000)
  ASSERT_EQ(sizes.size(), 4u); // each body's isend and recv
  for (const cformat::Schedule* s : sizes) {
    auto [low, high] = std::minmax_element(s->draws.begin(), s->draws.end(),
                                           [](const auto& a, const auto& b) { return a.first < b.first; });
    EXPECT_LT(high->first, 2 * low->first) << "body " << s->body << " position " << s->position;
  }
  // read back: each rank keeps its total compute, its other actions, and every receiver its sender's sizes
  fs::path s = scratch_dir() / "pairs.tit";
  CompressStats c = compress(*TraceSet::open(plain, std::nullopt), s, parse_value_mode("stats"));
  EXPECT_EQ(c.structures, 2u);
  auto pt = TraceSet::open(plain, std::nullopt);
  auto ct = TraceSet::open(s, std::nullopt);
  std::vector<std::vector<double>> sent(kRanks), received(kRanks);
  for (int r = 0; r < kRanks; ++r) {
    auto pr = pt->reader(r), cr = ct->reader(r);
    Action pa, ca;
    double flops[2] = {0, 0};
    while (pr->next(pa)) {
      ASSERT_TRUE(cr->next(ca));
      ASSERT_EQ(pa.kind, ca.kind);
      EXPECT_EQ(pa.partner, ca.partner);
      flops[0] += pa.kind == Kind::Compute ? pa.amount : 0;
      flops[1] += ca.kind == Kind::Compute ? ca.amount : 0;
      if (ca.kind == Kind::Isend)
        sent[static_cast<std::size_t>(r)].push_back(ca.bytes);
      if (ca.kind == Kind::Recv)
        received[static_cast<std::size_t>(r)].push_back(ca.bytes);
    }
    EXPECT_FALSE(cr->next(ca));
    EXPECT_NEAR(flops[1] / flops[0], 1, 0.01) << "rank " << r;
  }
  for (int r = 0; r < kRanks; ++r)
    EXPECT_EQ(sent[static_cast<std::size_t>(r)], received[static_cast<std::size_t>(r ^ 1)]) << "rank " << r;
  // deterministic: the same bytes every time
  fs::path again = scratch_dir() / "pairs-again.tit";
  compress(*TraceSet::open(plain, std::nullopt), again, parse_value_mode("stats"));
  EXPECT_EQ(file_bytes(again), file_bytes(s));
}

TEST(CompressedTrace, StatsRanksWhoseVolumesRiseAndFallTogetherDrawInOneOrder)
{
  // 4 ranks, 128 iterations of a compute then an allreduce: with `together`, every rank's volume follows one
  // sequence (slow first iterations, then the ranks' common fluctuation: a warm-up and phases), each rank at its own
  // level and with its own noise of 2 %; without it, each rank's volumes jitter on their own (+-30 %)
  constexpr int kRanks = 4, kIterations = 128;
  auto trace = [&](bool together) {
    std::string t;
    for (int r = 0; r < kRanks; ++r) {
      t += fmt::format("{} init\n", r);
      for (int it = 0; it < kIterations; ++it) {
        double common = it < 8 ? 6 - 0.5 * it : 1 + 0.6 * noise01(static_cast<std::uint64_t>(it) * 7919 + 1);
        double own = rank_noise(it, r);
        double v = together ? common * (1 + 0.1 * r) * (0.98 + 0.04 * own) : 1e6 * (0.7 + 0.6 * own) / 1e6;
        t += fmt::format("{} compute {}\n{} allreduce 8 0\n", r, std::llround(1e6 * v), r);
      }
      t += fmt::format("{} finalize\n", r);
    }
    return t;
  };
  for (bool together : {true, false}) {
    fs::path plain = write_file(scratch_dir() / "together.txt", trace(together));
    cformat::Part part = pooled_stats(plain);
    const cformat::Schedule* compute = compute_schedule(part);
    ASSERT_NE(compute, nullptr) << together;
    EXPECT_EQ(compute->shared_order, together);
    // read back: in one order, the ranks' volumes of each iteration are one draw times each rank's level
    fs::path s = scratch_dir() / "together.tit";
    compress(*TraceSet::open(plain, std::nullopt), s, parse_value_mode("stats"));
    std::vector<std::vector<double>> volumes = compute_volumes(s);
    for (int r = 0; r < kRanks; ++r)
      ASSERT_EQ(volumes[static_cast<std::size_t>(r)].size(), static_cast<std::size_t>(kIterations));
    int proportional = 0; // iterations where every rank's volume over rank 0's is its level's ratio (to 1 %)
    for (int it = 0; it < kIterations; ++it) {
      bool all = true;
      for (int r = 1; r < kRanks; ++r) {
        double ratio = volumes[static_cast<std::size_t>(r)][static_cast<std::size_t>(it)] / volumes[0][static_cast<std::size_t>(it)];
        double levels = std::stod(part.ranks[static_cast<std::size_t>(r)].level) / std::stod(part.ranks[0].level);
        all = all && std::abs(ratio / levels - 1) < 0.01;
      }
      proportional += all ? 1 : 0;
    }
    if (together)
      EXPECT_EQ(proportional, kIterations);
    else
      EXPECT_LT(proportional, kIterations / 4);
  }
}

TEST(CompressedTrace, StatsKeepsAWarmUpInOrderAtTheStart)
{
  // 4 ranks, 64 iterations of a compute then an allreduce, each rank at its own level with 5 % of noise of its own;
  // with `warm`, the first 3 iterations are 5, 3 and 2 times slower on every rank. The warm-up is the schedule's head:
  // every rank computes it first, in order, at its level (drawn among the others, it fell on other iterations on each
  // rank); without one, no head
  constexpr int kRanks = 4, kIterations = 64;
  auto trace = [&](bool warm, int ranks, int iterations) {
    std::string t;
    for (int r = 0; r < ranks; ++r) {
      t += fmt::format("{} init\n", r);
      for (int it = 0; it < iterations; ++it) {
        double own = rank_noise(it, r);
        double slow = warm && it < 3 ? std::array<double, 3>{5, 3, 2}[static_cast<std::size_t>(it)] : 1;
        t += fmt::format("{} compute {}\n{} allreduce 8 0\n", r,
                         std::llround(1e6 * slow * (1 + 0.1 * r) * (0.95 + 0.1 * own)), r);
      }
      t += fmt::format("{} finalize\n", r);
    }
    return t;
  };
  for (bool warm : {true, false}) {
    fs::path plain = write_file(scratch_dir() / "warm.txt", trace(warm, kRanks, kIterations));
    cformat::Part part = pooled_stats(plain);
    const cformat::Schedule* compute = compute_schedule(part);
    ASSERT_NE(compute, nullptr) << warm;
    if (!warm) {
      EXPECT_EQ(compute->head.size(), 0u);
      EXPECT_TRUE(compute->phases.empty()) << "noise has no phases";
      continue;
    }
    EXPECT_EQ(compute->head.size(), 3u);
    EXPECT_TRUE(compute->rare.empty()) << "a warm-up every rank goes through is no rank's rare value";
    fs::path s = scratch_dir() / "warm.tit";
    compress(*TraceSet::open(plain, std::nullopt), s, parse_value_mode("stats"));
    std::vector<std::vector<double>> volumes = compute_volumes(s);
    for (int r = 0; r < kRanks; ++r) {
      const std::vector<double>& v = volumes[static_cast<std::size_t>(r)];
      ASSERT_EQ(v.size(), static_cast<std::size_t>(kIterations));
      // the warm-up first, slower and slower back to the rest, each above every later volume
      EXPECT_GT(v[0], v[1]) << "rank " << r;
      EXPECT_GT(v[1], v[2]) << "rank " << r;
      EXPECT_GT(v[2], *std::max_element(v.begin() + 3, v.end())) << "rank " << r;
      EXPECT_NEAR(v[0] / *std::max_element(v.begin() + 3, v.end()), 5 / 1.05, 0.5) << "rank " << r;
      // at the rank's level, as every draw
      double levels = std::stod(part.ranks[static_cast<std::size_t>(r)].level) / std::stod(part.ranks[0].level);
      for (std::size_t it = 0; it < 3; ++it)
        EXPECT_NEAR(v[it] / volumes[0][it] / levels, 1, 1e-3) << "rank " << r << " iteration " << it;
    }
  }
  // 2 ranks of 17 iterations: a head of 1 at most, which leaves the 32 values the draws' 16 groups are made of
  fs::path plain = write_file(scratch_dir() / "warm-short.txt", trace(true, 2, 17));
  cformat::Part part = pooled_stats(plain);
  const cformat::Schedule* compute = compute_schedule(part);
  ASSERT_NE(compute, nullptr);
  EXPECT_EQ(compute->head.size(), 1u);
  EXPECT_EQ(compute->draws.size(), 16u);
  fs::path s = scratch_dir() / "warm-short.tit";
  compress(*TraceSet::open(plain, std::nullopt), s, parse_value_mode("stats"));
  auto ct = TraceSet::open(s, std::nullopt);
  for (int r = 0; r < 2; ++r) {
    auto reader = ct->reader(r);
    Action a;
    int computes = 0;
    while (reader->next(a))
      computes += a.kind == Kind::Compute ? 1 : 0;
    EXPECT_EQ(computes, 17) << "rank " << r;
  }
}

TEST(CompressedTrace, StatsKeepsARankRareSlowOccurrenceExactWhereItWas)
{
  // 8 ranks, 64 iterations of a compute then an allreduce with 5 % of noise; rank 5 is 30 times slower at iteration
  // 0 and rank 2 at iteration 40: each stays there, as traced, on that rank only (drawn, it was averaged into the
  // largest of the 16 groups, at another iteration). The ranks' levels leave it out: rank 5 keeps its other volumes
  constexpr int kRanks = 8, kIterations = 64;
  std::string t;
  std::vector<std::vector<double>> traced(kRanks);
  for (int r = 0; r < kRanks; ++r) {
    t += fmt::format("{} init\n", r);
    for (int it = 0; it < kIterations; ++it) {
      double own = rank_noise(it, r);
      double slow = (r == 5 && it == 0) || (r == 2 && it == 40) ? 30 : 1;
      traced[static_cast<std::size_t>(r)].push_back(static_cast<double>(std::llround(1e5 * slow * (0.95 + 0.1 * own))));
      t += fmt::format("{} compute {}\n{} allreduce 8 0\n", r, traced[static_cast<std::size_t>(r)].back(), r);
    }
    t += fmt::format("{} finalize\n", r);
  }
  fs::path plain = write_file(scratch_dir() / "rare.txt", t);
  cformat::Part part = pooled_stats(plain);
  const cformat::Schedule* compute = compute_schedule(part);
  ASSERT_NE(compute, nullptr);
  ASSERT_EQ(compute->rare.size(), 2u);
  EXPECT_EQ(compute->rare[0].rank, 2);
  EXPECT_EQ(compute->rare[0].occurrence, 40u);
  EXPECT_EQ(compute->rare[1].rank, 5);
  EXPECT_EQ(compute->rare[1].occurrence, 0u);
  EXPECT_TRUE(compute->head.empty()) << "one rank's slow first iteration is no warm-up";
  fs::path s = scratch_dir() / "rare.tit";
  compress(*TraceSet::open(plain, std::nullopt), s, parse_value_mode("stats"));
  std::vector<std::vector<double>> volumes = compute_volumes(s);
  for (int r = 0; r < kRanks; ++r) {
    const std::vector<double>& v = volumes[static_cast<std::size_t>(r)];
    ASSERT_EQ(v.size(), static_cast<std::size_t>(kIterations));
    const std::vector<double>& u = traced[static_cast<std::size_t>(r)];
    for (int it = 0; it < kIterations; ++it) {
      bool slow = (r == 5 && it == 0) || (r == 2 && it == 40);
      if (slow)
        EXPECT_EQ(v[static_cast<std::size_t>(it)], u[static_cast<std::size_t>(it)]) << "rank " << r << " it " << it;
      else
        EXPECT_LT(v[static_cast<std::size_t>(it)], 1.2e5) << "rank " << r << " iteration " << it;
    }
    // each rank's total, the rare value's included
    double drawn = std::accumulate(v.begin(), v.end(), 0.0), was = std::accumulate(u.begin(), u.end(), 0.0);
    EXPECT_NEAR(drawn / was, 1, 0.02) << "rank " << r;
  }
}

TEST(CompressedTrace, StatsFindsARareValueAmongTheZerosOfAGap)
{
  // 8 ranks, 200 iterations of {compute, allreduce, [compute], barrier}: the second compute in about 30 % of the
  // iterations, so that its gap holds mostly zeros (kept as bits), and rank 2's at iteration 130 (past the second
  // 64-value word) 30 times the others: the one rare value of that gap, kept exact at rank 2's occurrence 130; the
  // drawn gap keeps each rank's share of computing iterations and its volume
  constexpr int kRanks = 8, kIterations = 200;
  std::string t;
  double traced = 0, sporadic = 0;
  int present = 0;
  for (int r = 0; r < kRanks; ++r) {
    t += fmt::format("{} init\n", r);
    for (int it = 0; it < kIterations; ++it) {
      t += fmt::format("{} compute {}\n{} allreduce 8 0\n", r, std::llround(1e6 * (0.95 + 0.1 * rank_noise(it, r))), r);
      bool slow = r == 2 && it == 130;
      if (slow || rank_noise(it + 1000, r) < 0.3) {
        double v = static_cast<double>(std::llround(2e4 * (slow ? 30 : 0.9 + 0.2 * rank_noise(it + 2000, r))));
        t += fmt::format("{} compute {}\n", r, v);
        traced = slow ? v : traced;
        sporadic += slow ? 0 : v;
        present += slow ? 0 : 1;
      }
      t += fmt::format("{} barrier\n", r);
    }
    t += fmt::format("{} finalize\n", r);
  }
  fs::path plain = write_file(scratch_dir() / "rare-gap.txt", t);
  cformat::Part part = pooled_stats(plain);
  std::vector<const cformat::Schedule*> with_rare;
  for (const cformat::Schedule& s : part.schedules)
    if (!s.rare.empty())
      with_rare.push_back(&s);
  ASSERT_EQ(with_rare.size(), 1u);
  ASSERT_EQ(with_rare[0]->rare.size(), 1u);
  EXPECT_EQ(with_rare[0]->rare[0].rank, 2);
  EXPECT_EQ(with_rare[0]->rare[0].occurrence, 130u);
  EXPECT_EQ(with_rare[0]->rare[0].value.first, static_cast<std::int64_t>(traced));
  // read back: the rare value where it was; the gap's other computes drawn, as many and as large in all
  fs::path s = scratch_dir() / "rare-gap.tit";
  compress(*TraceSet::open(plain, std::nullopt), s, parse_value_mode("stats"));
  double drawn = 0;
  int drawn_present = 0;
  auto set = TraceSet::open(s, std::nullopt);
  for (int r = 0; r < kRanks; ++r) {
    auto reader = set->reader(r);
    Action a;
    Kind before = Kind::Init;
    int it = 0;
    while (reader->next(a)) {
      if (a.kind == Kind::Compute && before == Kind::AllReduce) {
        if (r == 2 && it == 130)
          EXPECT_EQ(a.amount, traced);
        else {
          drawn += a.amount;
          ++drawn_present;
        }
      }
      it += a.kind == Kind::Barrier ? 1 : 0;
      before = a.kind;
    }
  }
  EXPECT_NEAR(static_cast<double>(drawn_present) / present, 1, 0.1);
  EXPECT_NEAR(drawn / sporadic, 1, 0.1);
}

TEST(CompressedTrace, StatsHasNoHeadWhereARankDrawsFromTwoMembersOfASite)
{
  // two loops of 40 {compute, isend}, the first starting with a warm-up (5, 3, 2 times slower). Ranks 0 and 1 send to
  // r + 1 in both: one body, at both places. Ranks 2 and 3 send to r + 1 in the first (that body), r + 2 in the second
  // (another): the two bodies join one group, and ranks 2 and 3 draw the site's values from two schedules, each
  // counting its own draws: a head would be drawn at the start of each, a second warm-up
  std::string t;
  for (int r = 0; r < 4; ++r) {
    t += fmt::format("{} init\n", r);
    for (int loop = 0; loop < 2; ++loop)
      for (int it = 0; it < 40; ++it) {
        double slow = loop == 0 && it < 3 ? std::array<double, 3>{5, 3, 2}[static_cast<std::size_t>(it)] : 1;
        int to = (r + 1 + (r >= 2 ? loop : 0)) % 4;
        t += fmt::format("{} compute {}\n{} isend {} 5 1000 0\n", r,
                         std::llround(1e6 * slow * (1 + 0.01 * ((it * 7 + r * 3) % 11))), r, to);
        if (it == 39)
          t += fmt::format("{} {}\n", r, loop == 0 ? "barrier" : "waitall"); // not one loop of 80 on ranks 0 and 1
      }
    t += fmt::format("{} finalize\n", r);
  }
  fs::path plain = write_file(scratch_dir() / "two-members.txt", t);
  cformat::Part part = pooled_stats(plain);
  std::set<std::uint32_t> bodies;
  for (const cformat::Schedule& s : part.schedules)
    if (s.rank_order) {
      bodies.insert(s.body);
      EXPECT_TRUE(s.head.empty()) << "body " << s.body;
    }
  EXPECT_EQ(bodies.size(), 2u); // one site, pooled from the two loop bodies
}

TEST(CompressedTrace, StatsPoolsLoopsOfOneShapeAtTheirOwnPlacesOnly)
{
  // each iteration: a large compute, an isend to r + 1, a small compute, an isend to r + 1 (a loop of 2), then two
  // small computes, each before an isend to r + 2 (a loop of the same shape, at another place), then the receives
  constexpr int kRanks = 4, kIterations = 200;
  std::mt19937_64 rng(23);
  std::string t;
  for (int r = 0; r < kRanks; ++r) {
    t += fmt::format("{} init\n", r);
    for (int i = 0; i < kIterations; ++i) {
      for (int k = 0; k < 4; ++k)
        t += fmt::format("{} compute {}\n{} isend {} 5 1000 0\n", r, k == 0 ? 1000000 + rng() % 100000 : 1000 + rng() % 100,
                         r, (r + 1 + k / 2) % kRanks);
      t += fmt::format("{} recv {} 5 1000 0\n{} recv {} 5 1000 0\n{} recv {} 5 1000 0\n{} recv {} 5 1000 0\n{} waitall\n",
                       r, (r + 3) % kRanks, r, (r + 3) % kRanks, r, (r + 2) % kRanks, r, (r + 2) % kRanks, r);
    }
    t += fmt::format("{} finalize\n", r);
  }
  fs::path plain = write_file(scratch_dir() / "places.txt", t);
  fs::path s = scratch_dir() / "places.tit";
  compress(*TraceSet::open(plain, std::nullopt), s, parse_value_mode("stats"));
  auto ct = TraceSet::open(s, std::nullopt);
  for (int r = 0; r < kRanks; ++r) {
    auto cr = ct->reader(r);
    Action a;
    std::vector<Action> seq;
    while (cr->next(a))
      seq.push_back(a);
    int large = 0;
    for (std::size_t i = 0; i + 1 < seq.size(); ++i)
      if (seq[i].kind == Kind::Compute && seq[i].amount > 100000) {
        ++large;
        EXPECT_EQ(seq[i + 1].partner, (r + 1) % kRanks) << "rank " << r << ": a large compute drawn at another place";
      }
    EXPECT_NEAR(large, kIterations, kIterations / 4) << "rank " << r;
  }
}

TEST(CompressedTrace, StatsKeepsThePhasesOfABodyThatLevelsRunInTurn)
{
  // 4 ranks, 12 cycles of a multigrid-like code: 4 levels in turn run one body (compute, then a message to each ring
  // neighbour, its size a value of the level, and a waitall), each level's volume 4 times the next one's, each rank at
  // its own level with 5 % of noise. Pooled into one distribution, a coarse level's volume was drawn at a fine level's
  // place; with the phases every occurrence gets its level's mean at the rank's level
  constexpr int kRanks = 4, kCycles = 12, kLevels = 4;
  auto volume = [](int level, int r) { return 4e6 / std::pow(4.0, level) * (1 + 0.1 * r); };
  std::string t;
  for (int r = 0; r < kRanks; ++r) {
    t += fmt::format("{} init\n", r);
    for (int c = 0; c < kCycles; ++c)
      for (int l = 0; l < kLevels; ++l)
        t += fmt::format("{0} compute {1}\n{0} irecv {2} 0 {3} 0\n{0} isend {4} 0 {3} 0\n{0} waitall 2\n", r,
                         std::llround(volume(l, r) * (0.95 + 0.1 * rank_noise(c * kLevels + l, r))),
                         (r + 1) % kRanks, 8192 >> l, (r + kRanks - 1) % kRanks);
    t += fmt::format("{} finalize\n", r);
  }
  fs::path plain = write_file(scratch_dir() / "levels.txt", t);
  cformat::Part part = pooled_stats(plain);
  const cformat::Schedule* compute = compute_schedule(part);
  ASSERT_NE(compute, nullptr);
  EXPECT_EQ(compute->phases.size(), static_cast<std::size_t>(kLevels));
  EXPECT_TRUE(compute->head.empty());
  EXPECT_TRUE(compute->rare.empty());
  fs::path s = scratch_dir() / "levels.tit";
  compress(*TraceSet::open(plain, std::nullopt), s, parse_value_mode("stats"));
  EXPECT_EQ(compressed_info(s).version, 7u);
  std::vector<std::vector<double>> volumes = compute_volumes(s);
  for (int r = 0; r < kRanks; ++r) {
    const std::vector<double>& v = volumes[static_cast<std::size_t>(r)];
    ASSERT_EQ(v.size(), static_cast<std::size_t>(kCycles * kLevels)) << "rank " << r;
    for (std::size_t j = 0; j < v.size(); ++j)
      EXPECT_NEAR(v[j] / volume(static_cast<int>(j % kLevels), r), 1, 0.06) << "rank " << r << " occurrence " << j;
  }
}

TEST(CompressedTrace, StatsCheckMeetsTheRanksAtTheirWorldCollectives)
{
  // gaps by index do not line up (rank 0's isend closes its first gap, rank 1's irecv its second), the world's
  // barriers do: each closing action costs 1e4 (no bytes), computes their volume
  std::string t = "0 compute 100\n0 isend 1 5 0 0\n0 compute 300\n0 barrier\n0 compute 50\n0 barrier\n"
                  "1 compute 250\n1 barrier\n1 compute 60\n1 irecv 0 5 0 0\n1 compute 70\n1 barrier\n";
  auto readers = [](const fs::path& p) {
    std::unique_ptr<TraceSet> set = TraceSet::open(p, std::nullopt);
    std::vector<std::unique_ptr<RankReader>> out;
    for (int r = 0; r < set->rank_count(); ++r)
      out.push_back(set->reader(r));
    return out;
  };
  cformat::LockStep s = cformat::lock_step(readers(write_file(scratch_dir() / "meet.txt", t)));
  EXPECT_DOUBLE_EQ(s.time, 10250 + 10300 + 10070); // the slowest of each gap index
  EXPECT_DOUBLE_EQ(s.segmented, 20400 + 20130);    // the slowest of each stretch between two barriers
  EXPECT_EQ(s.rank_totals, (std::vector<double>{450, 380}));
  // the same gaps, the volumes moved between stretches: the lock-step sum hardly moves, the segmented one does
  std::string moved = "0 compute 100\n0 isend 1 5 0 0\n0 compute 50\n0 barrier\n0 compute 300\n0 barrier\n"
                      "1 compute 250\n1 barrier\n1 compute 60\n1 irecv 0 5 0 0\n1 compute 70\n1 barrier\n";
  cformat::LockStep m = cformat::lock_step(readers(write_file(scratch_dir() / "moved.txt", moved)));
  EXPECT_DOUBLE_EQ(m.time, 10250 + 10060 + 10300);
  EXPECT_DOUBLE_EQ(m.segmented, 20150 + 20130);
  EXPECT_NEAR(m.difference(s), (40280.0 - 40530) / 40530, 1e-12);
  // ranks that do not call as many world collectives: no segmented time, the others decide
  cformat::LockStep u = cformat::lock_step(readers(write_file(scratch_dir() / "unequal.txt",
                                                              "0 compute 10\n0 barrier\n1 compute 20\n")));
  EXPECT_EQ(u.segmented, -1);
}

TEST(CompressedTrace, StatsCheckFollowsTheMessages)
{
  auto time_of = [](const std::string& name, const std::string& text) {
    std::unique_ptr<TraceSet> set = TraceSet::open(write_file(scratch_dir() / name, text), std::nullopt);
    std::vector<std::unique_ptr<RankReader>> out;
    for (int r = 0; r < set->rank_count(); ++r)
      out.push_back(set->reader(r));
    return cformat::message_time(std::move(out));
  };
  // a message costs 1e4 after its send: rank 1 receives at 100 + 1e4 and computes 10 more
  EXPECT_EQ(time_of("send.txt", "0 compute 100\n0 send 1 5 0 0\n0 compute 20\n1 recv 0 5 0 0\n1 compute 10\n"),
            10110.0);
  // an irecv waited for by waitall: at the message's arrival (200 + 1e4), not at the waitall (5); tests wait for nothing
  EXPECT_EQ(time_of("waitall.txt", "0 irecv 1 3 0 0\n0 compute 5\n0 test 1 0 3\n0 waitall\n"
                                   "1 compute 200\n1 isend 0 3 0 0\n1 waitall\n"),
            10200.0);
  // a world barrier: every member leaves 1e4 after the latest (70) arrived
  EXPECT_EQ(time_of("barrier.txt", "0 compute 50\n0 barrier\n1 compute 70\n1 barrier\n"), 10070.0);
  // a split of 4 ranks into halves of 2: each half meets apart ({0, 2} leaves at 300 + 1e4, {1, 3} at 40 + 1e4), and
  // a message on the new communicator matches only there
  EXPECT_EQ(time_of("split.txt", "0 comm_split 0 0 0 1 2\n0 compute 300\n0 barrier comm=1\n"
                                 "1 comm_split 0 1 1 1 2\n1 compute 40\n1 barrier comm=1\n1 send 3 7 0 0 comm=1\n"
                                 "2 comm_split 0 0 2 1 2\n2 barrier comm=1\n"
                                 "3 comm_split 0 1 3 1 2\n3 barrier comm=1\n3 recv 1 7 0 0 comm=1\n"),
            20040.0);
  // a sendRecv whose send lets an earlier rank move while its own receive waits: 0 receives it at 1e4 and sends on to
  // 2, which receives at 2e4 and sends to 1, which receives at 3e4
  EXPECT_EQ(time_of("sendrecv.txt", "0 recv 1 0 0 0\n0 send 2 0 0 0\n1 sendRecv 0 0 0 2\n"
                                    "2 recv 0 0 0 0\n2 send 1 0 0 0\n"),
            30000.0);
  // what it does not follow: a receive from any source; ranks that wait for each other forever
  EXPECT_FALSE(time_of("any.txt", "0 recv -333 3 0 0\n1 send 0 3 0 0\n").has_value());
  EXPECT_FALSE(time_of("stuck.txt", "0 recv 1 3 0 0\n1 recv 0 3 0 0\n").has_value());
}

} // namespace
} // namespace tit::trace

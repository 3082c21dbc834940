// Compressed traces (docs/compressed-format.md): round trips action by action, loop folding, merged ranks,
// the size of a trace without repetition, and truncated or corrupt files.
#include "compressed/compressed.hpp"
#include "compressed/container/container.hpp"
#include "compressed/values/values.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "trace_test_support.hpp"

namespace tit::trace {
namespace {

namespace fs = std::filesystem;
using namespace test_support;

const fs::path kData = fs::path(TIT_TEST_DATA_DIR);

/// Every field an action carries once parsed (all but its file and line).
std::string fields(const Action& a)
{
  return fmt::format("{} d{} r{} {} [{}] p{} p{} t{} b{} b{} s{} d{} w{} a{} root{} dt{} sc[{}] rc[{}] blk{} c{} n{} "
                     "ca{} col{} key{} g[{}] ns{}",
                     kind_name(a.kind), static_cast<int>(a.dialect), a.rank, a.name, fmt::join(a.args, " "),
                     a.partner, a.partner2, a.tag, a.bytes, a.bytes2, a.src, a.dst, a.wait_last_irecv, a.amount,
                     a.root, a.datatype_size, fmt::join(a.send_counts, " "), fmt::join(a.recv_counts, " "),
                     kind_name(a.blocking), a.comm, a.new_comm, a.comm_args, a.color, a.key, fmt::join(a.group, " "), a.new_size);
}

/// The bytes of file `p`.
std::string file_bytes(const fs::path& p)
{
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

/// Every rank's actions (as fields()), rank by rank.
std::vector<std::vector<std::string>> read_all(const fs::path& traces, std::set<Kind>* kinds = nullptr)
{
  std::unique_ptr<TraceSet> set = TraceSet::open(traces, std::nullopt);
  std::vector<std::vector<std::string>> out(static_cast<std::size_t>(set->rank_count()));
  for (int r = 0; r < set->rank_count(); ++r) {
    std::unique_ptr<RankReader> reader = set->reader(r);
    Action a;
    while (reader->next(a)) {
      out[static_cast<std::size_t>(r)].push_back(fields(a));
      if (kinds != nullptr)
        kinds->insert(a.kind);
    }
  }
  return out;
}

/// Compresses `traces` and checks that the compressed file gives back the same actions and unit.
CompressStats expect_round_trip(const fs::path& traces, std::set<Kind>* kinds = nullptr)
{
  fs::path out = scratch_dir() / "out.tit";
  std::unique_ptr<TraceSet> plain = TraceSet::open(traces, std::nullopt);
  CompressStats stats = compress(*plain, out, ValueMode{});
  EXPECT_TRUE(is_compressed_trace(out));
  EXPECT_EQ(read_all(out), read_all(traces, kinds)) << traces;
  EXPECT_EQ(TraceSet::open(out, std::nullopt)->compute_unit(), TraceSet::open(traces, std::nullopt)->compute_unit());
  return stats;
}

std::uint64_t action_line_bytes(const fs::path& traces)
{
  std::unique_ptr<TraceSet> set = TraceSet::open(traces, std::nullopt);
  std::uint64_t bytes = 0;
  for (int r = 0; r < set->rank_count(); ++r) {
    std::unique_ptr<RankReader> reader = set->reader(r);
    Action a;
    while (reader->next(a))
      bytes += a.text.size() + 1;
  }
  return bytes;
}

/// The trace sets of the repository: every directory and trace file under traces/, tests/data/traces and
/// tests/e2e/data.
std::vector<fs::path> repository_trace_sets()
{
  std::vector<fs::path> sets;
  for (const fs::path& root : {kData / ".." / ".." / "traces", kData / "traces", kData / ".." / "e2e" / "data"}) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      std::string name = e.path().filename().string();
      if (e.is_directory() || name.ends_with(".txt") || name.ends_with(".gz") || name.ends_with(".list"))
        sets.push_back(e.path());
    }
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

TEST(CompressedTrace, RoundTripOfEveryRepositoryTrace)
{
  int round_trips = 0, refused = 0;
  std::set<Kind> kinds;
  for (const fs::path& traces : repository_trace_sets()) {
    std::string plain_error = trace_error([&] { read_all(traces); });
    if (plain_error != "<no error>") {
      // a trace the reader refuses is refused by compress with the same message
      std::string error = trace_error([&] {
        std::unique_ptr<TraceSet> set = TraceSet::open(traces, std::nullopt);
        compress(*set, scratch_dir() / "refused.tit", ValueMode{});
      });
      EXPECT_EQ(error, plain_error) << traces;
      ++refused;
      continue;
    }
    expect_round_trip(traces, &kinds);
    ++round_trips;
  }
  EXPECT_GE(round_trips, 60);
  EXPECT_GE(refused, 5);
  EXPECT_TRUE(kinds.contains(Kind::AllToAllV) && kinds.contains(Kind::NonBlockingCollective) &&
              kinds.contains(Kind::CommSplit));
}

/// Every action kind of the SimGrid dialect and of our extensions, on 2 ranks.
constexpr std::string_view kEverySimGridKind = R"(0 init 0
0 comm_size 2
0 comm_split 0 1 0 1 2
0 comm_dup 0 2
0 comm_create 0 3 2 0 1
0 compute 1e+07
0 compute 12345
0 compute 0.5
0 sleep 0.5
0 location foo.c 12
0 send 1 0 100 2
0 isend 1 1 100
0 Ssend 1 2 10 2
0 ISsend 1 3 10 2
0 bsend 1 4 10 2
0 ibsend 1 5 10 2
0 recv 1 0 100 2
0 recv 1 0 -1 2
0 irecv -333 1 100 2
0 wait 1 0 1
0 test 1 0 1
0 wait -333 -333 -1
0 waitall 2
0 waitAny 2
0 testany
0 testall
0 testsome
0 Start 1 0 10 2
0 Startall
0 sendRecv 10 1 20 1 2 2
0 barrier
0 bcast 100 0 2
0 reduce 100 50 0 2
0 allreduce 100 50 2
0 alltoall 10 10 2 2
0 alltoallv 20 10 10 20 10 10 2 2
0 gather 10 20 0 2 2
0 scatter 20 10 0 2 2
0 allgather 10 10 2 2
0 gatherv 10 10 10 0 2 2
0 scatterv 10 10 10 0 2 2
0 allgatherv 10 10 10 2 2
0 reducescatter 10 10 50 2
0 scan 10 5 2
0 exscan 10 5 2
0 ibcast 100 0 2
0 ibarrier
0 iallreduce 100 50 2
0 ialltoallv 20 10 10 20 10 10 2 2
0 bcast 100 1 2 comm=1
0 send 1 7 10 2 comm=2
0 comm_free 3
0 finalize
1 init 0
1 finalize
)";

/// Every action kind of the thesis dialect, on 2 ranks.
constexpr std::string_view kEveryThesisKind = R"(0 init
0 comm_size 2
0 compute 1000
0 send 1 100
0 Isend 1 100
0 recv 1
0 recv 1 100
0 Irecv 1 100
0 wait
0 waitAll
0 barrier
0 bcast 100 0
0 reduce 100 50 0
0 allReduce 100 50
0 reduceScatter 10 10 50
0 allToAll 10 10
0 allToAllV 20 10 10 0 10 20 10 10 0 10
0 gather 10 20 0
0 allGatherV 10 10 10 0 10
0 finalize
1 init
1 finalize
)";

TEST(CompressedTrace, RoundTripOfEveryActionKindOfBothDialects)
{
  std::set<Kind> kinds;
  expect_round_trip(write_file(scratch_dir() / "simgrid.txt", kEverySimGridKind), &kinds);
  std::set<Kind> thesis;
  expect_round_trip(write_file(scratch_dir() / "thesis.txt", kEveryThesisKind), &thesis);
  kinds.insert(thesis.begin(), thesis.end());
  for (int k = static_cast<int>(Kind::Init); k <= static_cast<int>(Kind::CommFree); ++k)
    EXPECT_TRUE(kinds.contains(static_cast<Kind>(k))) << kind_name(static_cast<Kind>(k));
  EXPECT_TRUE(thesis.contains(Kind::Wait) && thesis.contains(Kind::AllToAllV));
}

TEST(CompressedTrace, TokensAreKeptAsWritten)
{
  // exponents, leading zeros, signs and decimals come back as written, not re-printed
  fs::path t = write_file(scratch_dir() / "t.txt", "0 init\n0 compute 1e+07\n0 compute 007\n0 compute +5\n"
                                                   "0 compute 2.50\n0 compute 1E3\n0 compute 9007199254740993\n"
                                                   "0 finalize\n");
  expect_round_trip(t);
  // integers at the edge of the range of value runs (|v| < 2^61), steps of nearly 2^62, and beyond it
  expect_round_trip(write_file(scratch_dir() / "big.txt", "0 init\n0 waitall 2305843009213693950\n"
                                                          "0 waitall -2305843009213693950\n0 waitall 2305843009213693950\n"
                                                          "0 waitall 2305843009213693951\n0 waitall -9223372036854775808\n"
                                                          "0 waitall 99999999999999999999\n0 finalize\n"));
  expect_round_trip(t);
  std::unique_ptr<TraceSet> set = TraceSet::open(scratch_dir() / "out.tit", std::nullopt);
  std::unique_ptr<RankReader> reader = set->reader(0);
  Action a;
  std::vector<std::string> texts;
  while (reader->next(a))
    texts.emplace_back(a.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"0 init", "0 compute 1e+07", "0 compute 007", "0 compute +5",
                                              "0 compute 2.50", "0 compute 1E3", "0 compute 9007199254740993",
                                              "0 finalize"}));
}

/// A 1-D stencil of `ranks` ranks without periodic boundary: `outer` x (`middle` x (`inner` x exchange) + compute).
std::string stencil(int ranks, int outer, int middle, int inner)
{
  std::string out;
  for (int r = 0; r < ranks; ++r) {
    out += fmt::format("{} init\n", r);
    for (int i = 0; i < outer; ++i) {
      for (int j = 0; j < middle; ++j) {
        for (int k = 0; k < inner; ++k) {
          if (r > 0)
            out += fmt::format("{} isend {} 0 {} 0\n{} irecv {} 1 {} 0\n", r, r - 1, 100 + k, r, r - 1, 100 + k);
          if (r < ranks - 1)
            out += fmt::format("{} isend {} 1 {} 0\n{} irecv {} 0 {} 0\n", r, r + 1, 100 + k, r, r + 1, 100 + k);
          out += fmt::format("{} waitall\n", r);
        }
        out += fmt::format("{} compute {}\n", r, 1000 * (j + 1) + r);
      }
      out += fmt::format("{} allreduce 1 1 0\n", r);
    }
    out += fmt::format("{} finalize\n", r);
  }
  return out;
}

TEST(CompressedTrace, LoopsNestedThreeDeepAndBoundaryRanks)
{
  fs::path t = write_file(scratch_dir() / "stencil.txt", stencil(6, 7, 5, 4));
  CompressStats s = expect_round_trip(t);
  // the interior ranks 1..4 share one structure (partners relative to the rank); ranks 0 and 5 have their own
  EXPECT_EQ(s.structures, 3u);
  // each structure: loop(inner 4) inside loop(middle 5) inside loop(outer 7)
  EXPECT_EQ(s.loops, 9u);
  EXPECT_EQ(s.actions, 6u * (2 + 7 * (5 * (4 * 1 + 1) + 1)) + 4u * 7 * 5 * 4 * 4 + 2u * 7 * 5 * 4 * 2);
  EXPECT_LT(s.bytes, 600u);
}

TEST(CompressedTrace, RingPartnersAreRelativeModuloTheRanks)
{
  // rank r sends to r + 1 mod 8 and receives from r - 1 mod 8: one structure for all ranks, wrap included
  std::string t;
  for (int r = 0; r < 8; ++r) {
    t += fmt::format("{} init\n", r);
    for (int i = 0; i < 10; ++i)
      t += fmt::format("{} isend {} 0 8 0\n{} recv {} 0 8 0\n{} wait {} {} 0\n", r, (r + 1) % 8, r, (r + 7) % 8, r,
                       r, (r + 1) % 8);
    t += fmt::format("{} finalize\n", r);
  }
  CompressStats s = expect_round_trip(write_file(scratch_dir() / "ring.txt", t));
  EXPECT_EQ(s.structures, 1u);
  EXPECT_EQ(s.value_blocks, 1u); // and the same numbers: one value block
}

TEST(CompressedTrace, LoadCompressedGivesTheStructureAndEveryDecodedBlock)
{
  // what `tit-trace proxy` walks: walking the loaded structure gives the rank's actions (counted here)
  std::string t;
  for (int r = 0; r < 4; ++r) {
    t += fmt::format("{} init\n", r);
    for (int i = 0; i < 25; ++i)
      t += fmt::format("{} compute {}\n{} send {} 0 8 0\n{} recv {} 0 8 0\n", r, 1000 + r, r, (r + 1) % 4, r,
                       (r + 3) % 4);
    t += fmt::format("{} finalize\n", r);
  }
  fs::path plain = write_file(scratch_dir() / "load.txt", t), packed = scratch_dir() / "load.tcz";
  std::unique_ptr<TraceSet> set = TraceSet::open(plain, std::nullopt);
  compress(*set, packed, ValueMode{});
  cformat::Loaded l = cformat::load_compressed(packed.string());
  ASSERT_EQ(l.meta.rank_count, 4);
  ASSERT_EQ(l.blocks.size(), l.meta.blocks.size());
  EXPECT_EQ(l.blocks.size(), 4u); // each rank its own compute volume
  std::function<std::uint64_t(std::uint32_t)> count = [&](std::uint32_t body) {
    std::uint64_t n = 0;
    for (std::uint32_t id : l.meta.bodies[body])
      n += l.meta.nodes[id].loop ? l.meta.nodes[id].count * count(l.meta.nodes[id].ref) : 1;
    return n;
  };
  for (const auto& rank : l.meta.ranks) {
    EXPECT_EQ(count(rank.root), 77u);
    EXPECT_FALSE(l.blocks[rank.block].empty());
  }
  EXPECT_NE(trace_error([&] { cformat::load_compressed(plain.string()); }).find("not a compressed trace"),
            std::string::npos);
}

TEST(CompressedTrace, TraceWithoutRepetitionGrowsAtMostByTheHeader)
{
  std::mt19937_64 rng(42);
  std::string t = "0 init\n1 init\n";
  const char* kinds[] = {"compute", "send", "recv", "isend", "sleep", "bcast"};
  for (int i = 0; i < 3000; ++i) {
    int r = static_cast<int>(rng() % 2);
    std::string_view kind = kinds[rng() % 6];
    if (kind == "compute")
      t += fmt::format("{} compute {}\n", r, rng() % 1000000007);
    else if (kind == "sleep")
      t += fmt::format("{} sleep 0.{}\n", r, rng() % 1000000);
    else if (kind == "bcast")
      t += fmt::format("{} bcast {} 0 {}\n", r, rng() % 100000, rng() % 8);
    else
      t += fmt::format("{} {} {} {} {} {}\n", r, kind, 1 - r, rng() % 30000, rng() % 1000000, rng() % 8);
  }
  t += "0 finalize\n1 finalize\n";
  fs::path plain = write_file(scratch_dir() / "random.txt", t);
  CompressStats s = expect_round_trip(plain);
  std::uint64_t text = action_line_bytes(plain);
  // magic, version, sizes, CRC and packing of the structure record (at most), and the value chunk's packing byte
  constexpr std::uint64_t kHeader = 44;
  EXPECT_LE(s.bytes, text + kHeader) << "plain " << text;
  // tiny traces too
  fs::path tiny = write_file(scratch_dir() / "tiny.txt", "0 init\n0 compute 17\n0 finalize\n");
  EXPECT_LE(expect_round_trip(tiny).bytes, action_line_bytes(tiny) + kHeader);
}

TEST(CompressedTrace, BinnedValuesStayWithinRAndOnlyVolumesChange)
{
  std::mt19937_64 rng(7);
  std::string t;
  for (int r = 0; r < 2; ++r) {
    t += fmt::format("{} init\n", r);
    for (int i = 0; i < 400; ++i) {
      int size = 1000 + static_cast<int>(rng() % 200000);
      t += fmt::format("{} compute {}\n{} sleep 0.{:06}\n", r, 1000000 + rng() % 1000000, r, 1 + rng() % 999999);
      t += fmt::format("{} isend {} {} {} 0\n{} recv {} {} -1 0\n{} allreduce {} {} 0\n{} compute 7\n", r, 1 - r,
                       i % 7, size, r, 1 - r, i % 7, r, size, size / 2, r);
      t += fmt::format("{} waitall\n", r);
    }
    t += fmt::format("{} finalize\n", r);
  }
  fs::path plain = write_file(scratch_dir() / "t.txt", t);
  fs::path exact = scratch_dir() / "exact.tit", binned = scratch_dir() / "binned.tit";
  CompressStats e = compress(*TraceSet::open(plain, std::nullopt), exact, ValueMode{});
  CompressStats b = compress(*TraceSet::open(plain, std::nullopt), binned, parse_value_mode("binned:0.01"));
  // random volumes: binning makes them fewer distinct values, not a handful
  EXPECT_LT(b.bytes * 3, e.bytes * 2) << "binned " << b.bytes << ", exact " << e.bytes;
  EXPECT_EQ(compressed_info(binned).value_mode, "binned:0.01");
  auto p = TraceSet::open(plain, std::nullopt);
  auto c = TraceSet::open(binned, std::nullopt);
  int changed = 0;
  for (int r = 0; r < 2; ++r) {
    auto pr = p->reader(r), cr = c->reader(r);
    Action pa, ca;
    while (pr->next(pa)) {
      ASSERT_TRUE(cr->next(ca));
      ASSERT_EQ(pa.kind, ca.kind);
      EXPECT_EQ(pa.partner, ca.partner);
      EXPECT_EQ(pa.tag, ca.tag);
      EXPECT_EQ(pa.root, ca.root);
      for (auto [x, y] : {std::pair{pa.amount, ca.amount}, {pa.bytes, ca.bytes}, {pa.bytes2, ca.bytes2}}) {
        EXPECT_LE(std::fabs(x - y), 0.01 * std::fabs(x)) << pa.text << " -> " << ca.text;
        changed += x != y ? 1 : 0;
      }
      if (pa.kind == Kind::Recv) {
        EXPECT_EQ(ca.bytes, kUnknownSize); // -1 (the sender's size) is no volume
      }
      if (pa.text.ends_with("compute 7")) {
        EXPECT_EQ(ca.text, pa.text); // too small an integer for its bin: kept
      }
    }
    EXPECT_FALSE(cr->next(ca));
  }
  EXPECT_GT(changed, 1000);
}

std::string read_error(const std::string& bytes);

/// `ranks` ranks in a ring exchanging messages of jittered sizes after jittered computations (rank r computing r + 1
/// times as much as rank 0, with the same relative jitter), `iterations` times.
std::string noisy_trace(int iterations, int ranks = 2)
{
  std::mt19937_64 rng(11);
  std::string t;
  for (int r = 0; r < ranks; ++r) {
    t += fmt::format("{} init\n", r);
    for (int i = 0; i < iterations; ++i) {
      int size = 40000 + static_cast<int>(rng() % 20000);
      t += fmt::format("{} compute {}\n{} isend {} 5 {} 0\n{} recv {} 5 -1 0\n{} waitall\n", r,
                       (r + 1) * (1000000 + rng() % 400000), r, (r + 1) % ranks, size, r, (r + ranks - 1) % ranks, r);
    }
    t += fmt::format("{} finalize\n", r);
  }
  return t;
}

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

TEST(CompressedTrace, TraceListNamingACompressedFileAloneIsRead)
{
  fs::path ring = kData / ".." / ".." / "traces" / "ring4";
  fs::path c = scratch_dir() / "ring.tit";
  compress(*TraceSet::open(ring, std::nullopt), c, ValueMode{});
  // by a relative path beside the list, after a comment
  fs::path list = write_file(scratch_dir() / "trace.list", "# the whole run\nring.tit\n");
  EXPECT_EQ(read_all(list), read_all(ring));
  EXPECT_EQ(read_all(scratch_dir()), read_all(ring)); // a directory holding that trace.list
  EXPECT_NE(trace_error([&] { TraceSet::open(list, 3); }).find("rank mismatch"), std::string::npos);
  // with other files: refused, naming the list, the line and what a list may name
  fs::path mixed = write_file(scratch_dir() / "mixed.list",
                              fmt::format("{}\nring.tit\n", (ring / "rank-0.txt").string()));
  std::string error = trace_error([&] { TraceSet::open(mixed, std::nullopt); });
  EXPECT_NE(error.find(fmt::format("{}:2:", mixed.string())), std::string::npos) << error;
  EXPECT_NE(error.find("is a compressed trace, which holds every rank: a trace list names it on its only line, or "
                       "names one plain file per rank, not both (2 files listed)"),
            std::string::npos)
      << error;
}

/// `file` (a compressed trace) with its header saying `version` (a varint of one byte, as every version's).
std::string with_version(std::string file, unsigned version)
{
  file[8] = static_cast<char>(version);
  return file;
}

TEST(CompressedTrace, OlderVersionsAreRefusedSayingSo)
{
  fs::path s = scratch_dir() / "s.tit";
  compress(*TraceSet::open(write_file(scratch_dir() / "n.txt", noisy_trace(40)), std::nullopt), s,
           parse_value_mode("stats"));
  std::ifstream in(s, std::ios::binary);
  std::string v3(std::istreambuf_iterator<char>(in), {}); // (now written as version 6)
  ASSERT_EQ(v3[8], 6);
  // the format was never released: the versions earlier builds wrote are refused, with what to do
  for (unsigned version = 0; version < cformat::kBaseVersion; ++version) {
    std::string old = with_version(v3, version);
    EXPECT_NE(read_error(old).find(fmt::format("compressed format version {} is no longer read; this build reads "
                                               "versions 6 and 7 only: re-compress the trace from its text with "
                                               "tit-trace compress", version)),
              std::string::npos)
        << read_error(old);
  }
  // the packing byte of the structure record (after the magic, the version, two sizes and the CRC-32)
  cformat::ByteReader r(std::string_view(v3).substr(9), "f", "header");
  r.varint("raw");
  r.varint("stored");
  r.u32("crc");
  std::size_t codec_at = 9 + r.pos();
  std::string bad = v3;
  bad[codec_at] = 7;
  EXPECT_NE(read_error(bad).find("expected the packing of the structure record (0 stored, 1 deflate, 2 LZMA2), found 7"),
            std::string::npos)
      << read_error(bad);
  bad[codec_at] = static_cast<char>(v3[codec_at] == cformat::kLzma2 ? cformat::kDeflate : cformat::kLzma2);
  EXPECT_NE(read_error(bad).find("the structure record: cannot decompress it"), std::string::npos) << read_error(bad);
  bad[codec_at] = cformat::kStored;
  EXPECT_NE(read_error(bad).find("the structure record: stored as it is, but"), std::string::npos) << read_error(bad);
}

TEST(CompressedTrace, AFileOfAnEarlierBuildIsRefused)
{
  // written by the version 5 writer from traces/ring4 (tests/data/compressed/ring4-v5.tit): tit-trace info and the
  // replay refuse it, naming the file and saying how to make a file this build reads
  fs::path v5 = kData / "compressed" / "ring4-v5.tit";
  std::string expected = fmt::format("{}: error: compressed format version 5 is no longer read; this build reads "
                                     "versions 6 and 7 only: re-compress the trace from its text with tit-trace "
                                     "compress", v5.string());
  std::string error = trace_error([&] { compressed_info(v5); });
  EXPECT_NE(error.find(expected), std::string::npos) << error;
  error = trace_error([&] { TraceSet::open(v5, std::nullopt); });
  EXPECT_NE(error.find(expected), std::string::npos) << error;
}

std::string binned_trace(bool sizes_binned = false);
std::string folded_as_read(const fs::path& traces, const ValueMode& mode, const fs::path& out);

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

/// `ranks` ranks of a ring, `iterations` times: a compute of random volume before the isend in 40 % of the iterations
/// (as SMPI traces a computation only above its threshold), a small one after the recv in 10 %, never one between the
/// isend and the recv.
std::string sporadic_trace(int iterations, int ranks)
{
  std::mt19937_64 rng(5);
  std::string t;
  for (int r = 0; r < ranks; ++r) {
    t += fmt::format("{} init\n", r);
    for (int i = 0; i < iterations; ++i) {
      if (rng() % 10 < 4)
        t += fmt::format("{} compute {}\n", r, 1000000 + rng() % 1000000);
      t += fmt::format("{} isend {} 5 1000 0\n{} recv {} 5 -1 0\n", r, (r + 1) % ranks, r, (r + ranks - 1) % ranks);
      if (rng() % 10 == 0)
        t += fmt::format("{} compute {}\n", r, 10000 + rng() % 10000);
      t += fmt::format("{} waitall\n", r);
    }
    t += fmt::format("{} finalize\n", r);
  }
  return t;
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

/// `ranks` ranks in pairs (r, r xor 1), `iterations` times: a compute of jittered volume (rank r computes about
/// r + 1 times as much as rank 0), an isend to the partner and a recv from it of jittered sizes (even ranks send about
/// 40,000, odd ones about 90,000). Even ranks' partner is +1, odd ranks' -1: two rank structures of one shape.
std::string pairs_trace(int iterations, int ranks)
{
  std::mt19937_64 rng(17);
  std::vector<std::vector<int>> sizes(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    for (int i = 0; i < iterations; ++i)
      sizes[static_cast<std::size_t>(r)].push_back((r % 2 ? 90000 : 40000) + static_cast<int>(rng() % 20000));
  std::string t;
  for (int r = 0; r < ranks; ++r) {
    int p = r ^ 1;
    t += fmt::format("{} init\n", r);
    for (int i = 0; i < iterations; ++i)
      t += fmt::format("{} compute {}\n{} isend {} 5 {} 0\n{} recv {} 5 {} 0\n{} waitall\n", r,
                       (r + 1) * (1000000 + rng() % 400000), r, p, sizes[static_cast<std::size_t>(r)][i], r, p,
                       sizes[static_cast<std::size_t>(p)][i], r);
    t += fmt::format("{} finalize\n", r);
  }
  return t;
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

/// A number in [0, 1] that looks random, from `x` (the stats tests' noise: the same on every run and platform).
double noise01(std::uint64_t x)
{
  x = (x ^ (x >> 31)) * 0x7fb5d329728ea185ULL;
  return static_cast<double>((x ^ (x >> 27)) % 10007) / 10006.0;
}

/// Rank r's own noise at iteration `it` (noise01 of both).
double rank_noise(int it, int r)
{
  return noise01(static_cast<std::uint64_t>(it) * 104729 + static_cast<std::uint64_t>(r) * 31 + 5);
}

/// The ranks of the trace `plain` folded with exact values and their stats pooled, as `tit-trace compress --values
/// stats` pools them before writing.
cformat::Part pooled_stats(const fs::path& plain)
{
  std::uint64_t actions = 0;
  cformat::Part part = cformat::fold_parts(*TraceSet::open(plain, std::nullopt), parse_value_mode("stats"), actions);
  cformat::pool_stats(part);
  return part;
}

/// The first schedule of `part` whose values are drawn in each rank's order (the compute volumes), or nullptr.
const cformat::Schedule* compute_schedule(const cformat::Part& part)
{
  auto it = std::find_if(part.schedules.begin(), part.schedules.end(), [](const auto& s) { return s.rank_order; });
  return it == part.schedules.end() ? nullptr : &*it;
}

/// Each rank's compute volumes, in order, as the trace set `path` gives them.
std::vector<std::vector<double>> compute_volumes(const fs::path& path)
{
  auto set = TraceSet::open(path, std::nullopt);
  std::vector<std::vector<double>> out(static_cast<std::size_t>(set->rank_count()));
  for (int r = 0; r < set->rank_count(); ++r) {
    auto reader = set->reader(r);
    Action a;
    while (reader->next(a))
      if (a.kind == Kind::Compute)
        out[static_cast<std::size_t>(r)].push_back(a.amount);
  }
  return out;
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

TEST(CompressedTrace, BadSchedulesAreErrors)
{
  // a structure of one loop over [compute, waitall] and its schedules, forged one fault at a time
  cformat::Meta meta;
  meta.rank_count = 1;
  meta.value_mode = "stats";
  meta.pooled = true;
  meta.signatures = {cformat::Signature{"compute", {cformat::Slot{}}}, cformat::Signature{"waitall", {}}};
  meta.nodes = {cformat::Node{false, 0, 1}, cformat::Node{false, 1, 1}, cformat::Node{true, 0, 40}};
  meta.bodies = {{0, 1}, {2}};
  meta.chunks = {cformat::ChunkRef{}};
  meta.blocks = {cformat::BlockRef{}};
  meta.ranks = {cformat::RankEntry{1, Dialect::SimGrid, 0, "0.5"}};
  cformat::Schedule good{0, 0, 0, true, false, {}, {}, {}, {}};
  for (int i = 0; i < 16; ++i)
    good.draws.push_back(cformat::ValueRun{true, 1000 + i, 0, "", 1});
  auto error = [&](const std::vector<cformat::Schedule>& schedules, std::string level = "0.5") {
    cformat::Meta m = meta;
    m.schedules = schedules;
    m.ranks[0].level = level;
    std::string bytes = cformat::encode_meta(m);
    std::string e = trace_error([&] {
      cformat::Meta back = cformat::decode_meta(bytes, "f.tit");
      EXPECT_EQ(back.schedules, schedules);
      EXPECT_EQ(back.ranks[0].level, level);
    });
    return e;
  };
  EXPECT_EQ(error({good}), "<no error>");
  cformat::Schedule bad = good;
  bad.position = 1; // waitall has no value slot
  EXPECT_NE(error({bad}).find("f.tit: error: structure record at byte"), std::string::npos) << error({bad});
  EXPECT_NE(error({bad}).find("expected a schedule's value slot below 0, found 0"), std::string::npos) << error({bad});
  bad = good;
  bad.body = 1; // the loop node
  EXPECT_NE(error({bad}).find("expected a schedule of an action, found one of a loop"), std::string::npos);
  bad = good;
  bad.position = 2;
  EXPECT_NE(error({bad}).find("expected a schedule's position in its body below 2, found 2"), std::string::npos);
  EXPECT_NE(error({good, good}).find("expected schedules in ascending (body, position, slot) order"),
            std::string::npos);
  bad = good;
  bad.draws[3].count = 2;
  EXPECT_NE(error({bad}).find("expected a schedule's draw (a run of 1 value), found a run of 2"), std::string::npos);
  bad = good;
  bad.draws[5] = cformat::ValueRun{false, 0, 0, "-3.5", 1};
  EXPECT_NE(error({bad}).find("expected a schedule's draw (a positive number), found '-3.5'"), std::string::npos);
  bad.rank_order = false; // sizes are not scaled: any token
  EXPECT_EQ(error({bad}), "<no error>");
  EXPECT_NE(error({good}, "-2").find("expected a rank's level (a positive number), found '-2'"), std::string::npos);
  EXPECT_NE(error({good}, "x").find("expected a rank's level (a positive number), found 'x'"), std::string::npos);
  // value mode byte 4 (one compute per gap): a draw of 0 (no compute there) and a level of 0 (a rank that never
  // computes at those sites) are read; mode 3 refuses them
  bad = good;
  bad.draws[5] = cformat::ValueRun{true, 0, 0, "", 1};
  EXPECT_NE(error({bad}).find("expected a schedule's draw (a positive number), found '0'"), std::string::npos);
  EXPECT_NE(error({good}, "0").find("expected a rank's level (a positive number), found '0'"), std::string::npos);
  meta.gaps = true;
  EXPECT_EQ(error({bad}, "0"), "<no error>");
  EXPECT_NE(error({good}, "-2").find("expected a rank's level (a non-negative number), found '-2'"),
            std::string::npos);
  bad.draws[5] = cformat::ValueRun{false, 0, 0, "-3.5", 1};
  EXPECT_NE(error({bad}).find("expected a schedule's draw (a non-negative number), found '-3.5'"), std::string::npos);
  EXPECT_EQ(cformat::decode_meta(cformat::encode_meta(meta), "f.tit").gaps, true);
  meta.gaps = false;
  // the order byte: the last byte before the draws of the last schedule
  cformat::Meta m = meta;
  m.schedules = {good};
  std::string bytes = cformat::encode_meta(m);
  std::size_t order_at = bytes.size() - 16 * 3 - 1; // 16 draws of 2-byte values and a count of 1
  ASSERT_EQ(bytes[order_at], 1);
  bytes[order_at] = 2; // one order shared by the ranks
  cformat::Meta shared = cformat::decode_meta(bytes, "f.tit");
  EXPECT_TRUE(shared.schedules.at(0).rank_order);
  EXPECT_TRUE(shared.schedules.at(0).shared_order);
  m.schedules[0].shared_order = true;
  EXPECT_EQ(cformat::encode_meta(m), bytes);
  auto order_error = [&](int order) {
    std::string b = bytes;
    b[order_at] = static_cast<char>(order);
    return trace_error([&] { cformat::decode_meta(b, "f.tit"); });
  };
  // 4, 8, 12, 16: a head, rare values or phases without the rank's order; 21, 25: phases with a head or rare values
  for (int order : {3, 4, 7, 8, 12, 16, 21, 25})
    EXPECT_NE(order_error(order).find(fmt::format("expected a schedule's order (0 in order, 1 the rank's order, 2 one "
                                                  "order for every rank; 1 or 2 plus 4 with a head, plus 8 with rare "
                                                  "values; or 1 or 2 plus 16 with phases), found {}",
                                                  order)),
              std::string::npos)
        << order_error(order);
  // phases (version 7: order byte plus 16, then their number and values after the draws), each checked as a draw
  cformat::Schedule phased = good;
  phased.phases = {cformat::ValueRun{true, 4000000, 0, "", 1}, cformat::ValueRun{false, 0, 0, "250000.5", 1}};
  EXPECT_EQ(error({phased}), "<no error>");
  m.schedules = {phased};
  std::string with_phases = cformat::encode_meta(m);
  EXPECT_EQ(static_cast<int>(with_phases[order_at]), 1 + cformat::kSchedulePhases);
  EXPECT_EQ(cformat::written_version(m), 7u);
  EXPECT_NE(trace_error([&] { cformat::decode_meta(with_phases, "f.tit", 6); })
                .find("expected a schedule's order (0 in order, 1 the rank's order, 2 one order for every rank; 1 or 2 "
                      "plus 4 with a head, plus 8 with rare values), found 17"),
            std::string::npos)
      << "a version 6 file has no phases";
  cformat::Schedule bad_phases = phased;
  bad_phases.phases.resize(1);
  EXPECT_NE(error({bad_phases}).find("expected a schedule's number of phases (2 to 64), found 1"), std::string::npos)
      << error({bad_phases});
  bad_phases.phases.assign(65, phased.phases[0]);
  EXPECT_NE(error({bad_phases}).find("expected a schedule's number of phases (2 to 64), found 65"), std::string::npos);
  bad_phases = phased;
  bad_phases.phases[1] = cformat::ValueRun{false, 0, 0, "-1", 1};
  EXPECT_NE(error({bad_phases}).find("expected a schedule's phase (a positive number), found '-1'"), std::string::npos)
      << error({bad_phases});
  m.schedules = {good};
  EXPECT_EQ(cformat::written_version(m), 6u) << "a file without phases stays version 6";
  // a head (order byte plus 4, then its length and values after the draws): read back, each value checked as a draw
  for (std::size_t length : {1u, 16u}) {
    cformat::Schedule head = good;
    for (std::size_t i = 0; i < length; ++i)
      head.head.push_back(cformat::ValueRun{true, static_cast<std::int64_t>(9000 - i), 0, "", 1});
    EXPECT_EQ(error({head}), "<no error>") << length;
    m.schedules = {head};
    EXPECT_EQ(static_cast<int>(cformat::encode_meta(m)[order_at]), 1 + cformat::kScheduleHead);
  }
  cformat::Schedule head = good;
  head.head = {cformat::ValueRun{true, 0, 0, "", 1}};
  EXPECT_NE(error({head}).find("expected a schedule's head value (a positive number), found '0'"), std::string::npos)
      << error({head});
  head.head[0].count = 3;
  EXPECT_NE(error({head}).find("expected a schedule's head value (a run of 1 value), found a run of 3"),
            std::string::npos);
  head.head.assign(17, good.draws[0]);
  EXPECT_NE(error({head}).find("expected a schedule's head length (1 to 16), found 17"), std::string::npos);
  // rare values (order byte plus 8, after the draws and the head): (rank, occurrence, value), ascending
  cformat::Schedule rare = good;
  rare.rare = {cformat::RareValue{0, 3, cformat::ValueRun{true, 50000, 0, "", 1}},
               cformat::RareValue{0, 70, cformat::ValueRun{false, 0, 0, "61234.5", 1}}};
  EXPECT_EQ(error({rare}), "<no error>");
  m.schedules = {rare};
  EXPECT_EQ(static_cast<int>(cformat::encode_meta(m)[order_at]), 1 + cformat::kScheduleRare);
  rare.head = {good.draws[0]};
  EXPECT_EQ(error({rare}), "<no error>");
  m.schedules = {rare};
  EXPECT_EQ(static_cast<int>(cformat::encode_meta(m)[order_at]), 1 + cformat::kScheduleHead + cformat::kScheduleRare);
  cformat::Schedule bad_rare = rare;
  std::swap(bad_rare.rare[0], bad_rare.rare[1]);
  EXPECT_NE(error({bad_rare}).find("expected a schedule's rare values in ascending (rank, occurrence) order"),
            std::string::npos);
  bad_rare = rare;
  bad_rare.rare[1].rank = 1; // the file has one rank
  EXPECT_NE(error({bad_rare}).find("expected a rare value's rank below 1, found 1"), std::string::npos)
      << error({bad_rare});
  bad_rare = rare;
  bad_rare.rare[0].value = cformat::ValueRun{false, 0, 0, "-2", 1};
  EXPECT_NE(error({bad_rare}).find("expected a schedule's rare value (a positive number), found '-2'"),
            std::string::npos);
  bad_rare.rare.assign(17, rare.rare[0]);
  EXPECT_NE(error({bad_rare}).find("expected a schedule's count of rare values (1 to 16), found 17"),
            std::string::npos);
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

TEST(CompressedTrace, FieldsWithBlanksAreErrors)
{
  // the reader hands the fields of the lines it builds to the parser without splitting them again: a name, literal
  // or token that would not split back into itself is a corrupt file
  cformat::Meta meta;
  meta.rank_count = 1;
  meta.signatures = {cformat::Signature{"send", {cformat::Slot{cformat::Slot::Kind::Literal, "tag", 0}}}};
  meta.nodes = {cformat::Node{false, 0, 1}};
  meta.bodies = {{0}};
  meta.chunks = {cformat::ChunkRef{}};
  meta.blocks = {cformat::BlockRef{}};
  meta.ranks = {cformat::RankEntry{0, Dialect::SimGrid, 0, "1"}};
  auto error = [&](const std::string& name, const std::string& literal) {
    cformat::Meta m = meta;
    m.signatures[0].name = name;
    m.signatures[0].slots[0].literal = literal;
    std::string bytes = cformat::encode_meta(m);
    return trace_error([&] { cformat::decode_meta(bytes, "f.tit"); });
  };
  EXPECT_EQ(error("send", "tag"), "<no error>");
  EXPECT_NE(error("se nd", "tag").find("expected a signature's action name (one field of an action line: not empty, "
                                       "no blank), found 'se nd'"),
            std::string::npos)
      << error("se nd", "tag");
  EXPECT_NE(error("send", "t\tag").find("expected a literal argument (one field"), std::string::npos);
  EXPECT_NE(error("send", "").find("expected a literal argument (one field of an action line: not empty, no blank), "
                                   "found ''"),
            std::string::npos);
  // a stats draw (decoded as a value token)
  cformat::Meta m = meta;
  m.value_mode = "stats";
  m.pooled = true;
  m.signatures = {cformat::Signature{"compute", {cformat::Slot{}}}};
  cformat::Schedule s{0, 0, 0, false, false, {}, {}, {}, {}};
  for (int i = 0; i < 16; ++i)
    s.draws.push_back(cformat::ValueRun{false, 0, 0, i == 7 ? "1 2" : "1.5", 1});
  m.schedules = {s};
  std::string bytes = cformat::encode_meta(m);
  EXPECT_NE(trace_error([&] { cformat::decode_meta(bytes, "f.tit"); })
                .find("expected a value token (one field of an action line: not empty, no blank), found '1 2'"),
            std::string::npos);
}

// ---- bad files ----------------------------------------------------------------------------------------------

std::string ring_file()
{
  fs::path out = scratch_dir() / "ring.tit";
  std::unique_ptr<TraceSet> plain = TraceSet::open(kData / ".." / ".." / "traces" / "ring4", std::nullopt);
  compress(*plain, out, ValueMode{});
  std::ifstream f(out, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

std::string read_error(const std::string& bytes)
{
  fs::path p = write_file(scratch_dir() / "bad.tit", bytes);
  return trace_error([&] { read_all(p); });
}

/// Every cut of `whole` after its magic (the first 9 bytes) is an error naming the file.
void expect_every_truncation_is_an_error(const std::string& whole)
{
  for (std::size_t n = 9; n < whole.size(); ++n) {
    std::string error = read_error(whole.substr(0, n));
    EXPECT_NE(error, "<no error>") << "truncated to " << n << " bytes";
    EXPECT_NE(error.find("bad.tit"), std::string::npos) << error;
  }
}

/// Every byte of `whole` after the magic, changed, makes an error naming the file.
void expect_every_corrupt_byte_is_an_error(const std::string& whole)
{
  for (std::size_t i = 8; i < whole.size(); ++i) {
    std::string bad = whole;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    std::string error = read_error(bad);
    EXPECT_NE(error, "<no error>") << "byte " << i;
    EXPECT_NE(error.find("bad.tit"), std::string::npos) << error;
  }
}

std::string stats_file()
{
  fs::path out = scratch_dir() / "stats.tit";
  compress(*TraceSet::open(write_file(scratch_dir() / "n.txt", noisy_trace(40, 4)), std::nullopt), out,
           parse_value_mode("stats"));
  std::ifstream f(out, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST(CompressedTrace, EveryTruncationOfAStatsFileIsAnError)
{
  std::string whole = stats_file();
  ASSERT_EQ(whole[8], 6);
  expect_every_truncation_is_an_error(whole);
  expect_every_corrupt_byte_is_an_error(whole);
}

TEST(CompressedTrace, EveryTruncationIsAnError)
{
  std::string whole = ring_file();
  ASSERT_GT(whole.size(), 100u);
  expect_every_truncation_is_an_error(whole);
  EXPECT_NE(read_error(whole.substr(0, 30)).find("truncated compressed trace"), std::string::npos);
  EXPECT_NE(read_error(whole.substr(0, whole.size() - 1)).find("value chunk 0: expected"), std::string::npos)
      << read_error(whole.substr(0, whole.size() - 1));
}

TEST(CompressedTrace, EveryCorruptByteIsAnError)
{
  std::string whole = ring_file();
  expect_every_corrupt_byte_is_an_error(whole);
  std::string bad = whole;
  bad[bad.size() - 3] = static_cast<char>(bad[bad.size() - 3] ^ 1);
  EXPECT_NE(read_error(bad).find("value chunk 0: CRC-32 mismatch (corrupt compressed trace)"), std::string::npos)
      << read_error(bad);
}

TEST(CompressedTrace, NewerVersionIsRefusedByName)
{
  std::string v8 = ring_file();
  ASSERT_EQ(v8[8], 6); // a file without phases is written as version 6
  v8[8] = 8;
  EXPECT_NE(read_error(v8).find("compressed trace format version 8, but this tit-replay reads versions 6 and 7 only "
                                "(a newer one)"),
            std::string::npos)
      << read_error(v8);
}

/// A binned trace of 2 ranks: measured-looking compute times (5 significant digits, as SMPI writes them), integer
/// compute volumes (some too small for their bin), message sizes. tests/data/compressed/binned-v3.expanded.txt is
/// what the version 3 writer made of it with binned:0.01, as it read back (the same text, written by a Python loop of
/// the same arithmetic).
/// `sizes_binned`: each message size replaced by its bin (bin_token at 1 %), as the writers binned them before they
/// kept sizes exact.
std::string binned_trace(bool sizes_binned)
{
  auto size = [sizes_binned](int bytes) {
    return sizes_binned ? cformat::bin_token(std::to_string(bytes), 0.01) : std::to_string(bytes);
  };
  std::string t;
  for (int r = 0; r < 2; ++r) {
    t += fmt::format("{} init\n", r);
    for (int i = 0; i < 150; ++i) {
      double c = 0.02 + ((i * 7919 + r * 104729) % 100000) / 20000.0;
      t += fmt::format("{} compute {:.5g}\n{} compute {}\n", r, c, r, (i * 611953 + r) % 5000000 + 10);
      if (r == 0)
        t += fmt::format("0 send 1 {} {} 0\n", i % 3, size(1000 + (i * 31337 + r * 7) % 200000));
      else
        t += fmt::format("1 recv 0 {} {} 0\n", i % 3, size((i * 31337) % 200000 + 1000));
    }
    t += fmt::format("{} finalize\n", r);
  }
  return t;
}

/// The file of `traces` with `mode`, every rank's actions folded as they come (RankCompressor::add, no computes
/// joined), merged and written: what `compress` wrote before it summed consecutive computes for `binned:R`.
std::string folded_as_read(const fs::path& traces, const ValueMode& mode, const fs::path& out)
{
  std::unique_ptr<TraceSet> set = TraceSet::open(traces, std::nullopt);
  int n = set->rank_count();
  std::vector<cformat::Part> parts;
  for (int r = 0; r < n; ++r) {
    cformat::RankCompressor rank(r, n, mode);
    std::unique_ptr<RankReader> reader = set->reader(r);
    Action a;
    while (reader->next(a))
      rank.add(a);
    parts.push_back(rank.finish());
  }
  cformat::write_compressed(out, n, mode, set->compute_unit(), cformat::merge_parts(std::move(parts)));
  return file_bytes(out);
}

/// binned_trace() in binned:0.01, its actions folded as they come (its consecutive computes not summed, so that each
/// volume is the bin of the plain trace's).
std::string binned_file()
{
  return folded_as_read(write_file(scratch_dir() / "binned.txt", binned_trace()), parse_value_mode("binned:0.01"),
                        scratch_dir() / "binned.tit");
}

TEST(CompressedTrace, BinnedFilesOfVersion4HoldBinIndicesAndReadAsVersion3Did)
{
  std::string v4 = binned_file(); // (written as version 6: bin runs as in version 4)
  ASSERT_EQ(v4[8], 6);
  // what the version 3 writer made of binned_trace(true) with binned:0.01 (a file of 2,086 bytes), as it read
  fs::path v3 = kData / "compressed" / "binned-v3.expanded.txt";
  constexpr std::uintmax_t kVersion3Bytes = 2086;
  fs::path mine = write_file(scratch_dir() / "binned-v4.tit", v4);
  // the same representatives (the sizes binned too, as the version 3 writer did), now written as bin indices: the
  // same actions, and fewer bytes
  fs::path old = scratch_dir() / "binned-sizes.tit";
  std::string sizes_binned =
      folded_as_read(write_file(scratch_dir() / "binned-sizes.txt", binned_trace(true)), parse_value_mode("binned:0.01"),
                     old);
  EXPECT_EQ(read_all(old), read_all(v3));
  EXPECT_LT(sizes_binned.size() * 10, kVersion3Bytes * 9)
      << sizes_binned.size() << " B, version 3 " << kVersion3Bytes << " B";
  // and every compute volume is the bin of the plain trace's token (decimals, integers; small ones kept), every
  // message size the plain trace's
  std::vector<std::vector<std::string>> actions = read_all(mine);
  fs::path plain = scratch_dir() / "binned.txt";
  std::vector<std::vector<std::string>> original = read_all(plain);
  ASSERT_EQ(actions.size(), original.size());
  auto p = TraceSet::open(plain, std::nullopt);
  auto c = TraceSet::open(mine, std::nullopt);
  int decimals = 0, integers = 0, kept = 0, sizes = 0;
  for (int r = 0; r < 2; ++r) {
    auto pr = p->reader(r), cr = c->reader(r);
    Action pa, ca;
    while (pr->next(pa)) {
      ASSERT_TRUE(cr->next(ca));
      EXPECT_EQ(ca.bytes, pa.bytes) << pa.text;
      sizes += pa.kind == Kind::Send || pa.kind == Kind::Recv ? 1 : 0;
      std::string_view rest = pa.text, back = ca.text;
      std::vector<std::size_t> volumes = cformat::binned_positions(pa);
      detail::next_field(rest), detail::next_field(rest), detail::next_field(back), detail::next_field(back);
      for (std::size_t i = 0; !rest.empty(); ++i) {
        std::string_view token = detail::next_field(rest), got = detail::next_field(back);
        bool volume = std::find(volumes.begin(), volumes.end(), i) != volumes.end();
        EXPECT_EQ(got, volume ? cformat::bin_token(token, 0.01) : std::string(token)) << pa.text;
        decimals += volume && got.find('.') != std::string_view::npos ? 1 : 0;
        integers += volume && got.find('.') == std::string_view::npos && got != token ? 1 : 0;
        kept += volume && got == token ? 1 : 0;
      }
    }
  }
  EXPECT_GT(decimals, 200);
  EXPECT_GT(integers, 250);
  EXPECT_GT(kept, 0);
  EXPECT_EQ(sizes, 300);
}

TEST(CompressedTrace, TinyBinnedFilesKeepThePlainFormWhenItIsSmaller)
{
  // traces/halo4: 4 ranks of 24 actions, two message sizes: the bin indices cost more than the tokens they replace
  fs::path halo = kData / ".." / ".." / "traces" / "halo4";
  fs::path b = scratch_dir() / "halo4.tit";
  compress(*TraceSet::open(halo, std::nullopt), b, parse_value_mode("binned:0.01"));
  EXPECT_EQ(compressed_info(b).version, cformat::kBaseVersion);
  EXPECT_EQ(compressed_info(b).value_mode, "binned:0.01");
  // the same trace written with bin runs (write_compressed of the loaded file always writes them) is no smaller
  fs::path with_runs = scratch_dir() / "halo4-runs.tit";
  cformat::write_compressed(with_runs, cformat::load_compressed(b.string()));
  EXPECT_LE(fs::file_size(b), fs::file_size(with_runs));
  EXPECT_EQ(read_all(with_runs), read_all(b));
  // bin runs only when they make the file smaller: here the plain form, whose structure record has no bin bases
  EXPECT_TRUE(cformat::load_compressed(b.string()).meta.bin_bases.empty());
  EXPECT_FALSE(cformat::load_compressed(with_runs.string()).meta.bin_bases.empty());
  // read as any binned file: each volume the bin of the plain trace's (4965 for 5000, ...)
  auto p = TraceSet::open(halo, std::nullopt);
  auto c = TraceSet::open(b, std::nullopt);
  for (int r = 0; r < 4; ++r) {
    auto pr = p->reader(r), cr = c->reader(r);
    Action pa, ca;
    while (pr->next(pa)) {
      ASSERT_TRUE(cr->next(ca));
      std::vector<std::size_t> volumes = cformat::binned_positions(pa);
      std::string_view rest = pa.text, back = ca.text;
      detail::next_field(rest), detail::next_field(rest), detail::next_field(back), detail::next_field(back);
      for (std::size_t i = 0; !rest.empty(); ++i) {
        std::string_view token = detail::next_field(rest), got = detail::next_field(back);
        bool volume = std::find(volumes.begin(), volumes.end(), i) != volumes.end();
        EXPECT_EQ(got, volume ? cformat::bin_token(token, 0.01) : std::string(token)) << pa.text;
      }
    }
  }
  // the larger binned trace of the test above is written with bin runs: no smaller when written again
  fs::path larger = write_file(scratch_dir() / "binned-larger.tit", binned_file());
  fs::path again = scratch_dir() / "binned-again.tit";
  cformat::write_compressed(again, cformat::load_compressed(larger.string()));
  EXPECT_EQ(fs::file_size(again), fs::file_size(larger));
}

TEST(CompressedTrace, EveryTruncationAndCorruptByteOfABinnedFileIsAnError)
{
  std::string whole = binned_file();
  ASSERT_EQ(whole[8], 6);
  expect_every_truncation_is_an_error(whole);
  expect_every_corrupt_byte_is_an_error(whole);
}

TEST(CompressedTrace, LzmaPropertiesAreCheckedAndCoveredByTheCrc)
{
  // an LZMA2 record's stored bytes start with its LZMA properties byte (so the CRC-32 covers it)
  std::string raw; // a skewed byte distribution, which LZMA's range coder packs below deflate's bit a byte
  std::uint32_t x = 1;
  for (int i = 0; i < 20000; ++i) {
    x = x * 1664525u + 1013904223u;
    raw += (x >> 24) < 12 ? 'b' : 'a';
  }
  std::uint8_t codec = 0;
  std::string stored = cformat::pack(raw, codec);
  ASSERT_EQ(codec, cformat::kLzma2);
  ASSERT_TRUE(cformat::lzma_props_ok(static_cast<std::uint8_t>(stored[0])));
  EXPECT_EQ(cformat::unpack(stored, raw.size(), codec, "f.tit", "value chunk 0"), raw);
  // lc 4 + lp 1 (9 + 4 = 13) is more than LZMA2 accepts; 225 is beyond any properties byte
  for (std::uint8_t props : {std::uint8_t{13}, std::uint8_t{225}}) {
    std::string bad = stored;
    bad[0] = static_cast<char>(props);
    std::string error = trace_error([&] { cformat::unpack(bad, raw.size(), codec, "f.tit", "value chunk 0"); });
    EXPECT_NE(error.find(fmt::format("f.tit: error: value chunk 0: expected LZMA properties (a byte (pb * 5 + lp) * 9 + "
                                     "lc with lc + lp <= 4, pb <= 4), found {} (corrupt compressed trace)",
                                     props)),
              std::string::npos)
        << error;
  }
  std::string error = trace_error([&] { cformat::unpack("", raw.size(), codec, "f.tit", "value chunk 0"); });
  EXPECT_NE(error.find("f.tit: error: value chunk 0: expected its LZMA properties byte, found no byte"),
            std::string::npos)
      << error;
}

TEST(CompressedTrace, RecordsLargerThanTheWritersDictionaryRoundTrip)
{
  // the writer's LZMA dictionary is at most kLzmaWriterDict (its encoder's memory about 11 times that), the reader's
  // the record's size rounded up: a record of twice the same block, each larger than the writer's dictionary, packs as
  // two blocks (the second out of the window) and unpacks whole
  std::string block; // the numbers from 0 on: short matches everywhere, long ones nowhere
  for (std::uint64_t i = 0; block.size() < cformat::kLzmaWriterDict + 64 * 1024; ++i)
    block += fmt::format("{} ", i);
  std::uint8_t codec = 0;
  std::size_t one = cformat::pack(block, codec).size();
  std::string raw = block + block;
  std::string stored = cformat::pack(raw, codec);
  ASSERT_EQ(codec, cformat::kLzma2);
  EXPECT_GT(stored.size(), one * 3 / 2); // within the window, the second block would cost a few bytes
  EXPECT_EQ(cformat::unpack(stored, raw.size(), codec, "f.tit", "value chunk 0"), raw);
}

TEST(CompressedTrace, BodiesHoldTheirNodesAndLoopOverEarlierBodies)
{
  // a structure numbered as files before the canonical ids could be (a loop in body 0 over body 1): the structure
  // record lists each body's items inline, a loop only over an earlier body, so the writer renumbers the bodies (by height)
  cformat::Loaded l;
  cformat::Meta& meta = l.meta;
  meta.rank_count = 1;
  meta.value_mode = "exact";
  meta.signatures = {cformat::Signature{"compute", {cformat::Slot{}}}};
  meta.nodes = {cformat::Node{false, 0, 1}, cformat::Node{true, 1, 3}};
  meta.bodies = {{1, 0}, {0}}; // the root: 3 times body 1, then a compute
  meta.ranks = {cformat::RankEntry{0, Dialect::SimGrid, 0, "1"}};
  cformat::ValueStreams values;
  for (const char* v : {"5", "6", "7", "1e3"})
    values.add(0, 0, v);
  l.blocks.push_back(values.take());
  fs::path out = scratch_dir() / "renumbered.tit";
  cformat::write_compressed(out, l);
  EXPECT_EQ(read_all(out), read_all(write_file(scratch_dir() / "renumbered.txt",
                                               "0 compute 5\n0 compute 6\n0 compute 7\n0 compute 1e3\n")));
  cformat::Loaded back = cformat::load_compressed(out.string());
  ASSERT_EQ(back.meta.bodies.size(), 2u);
  EXPECT_EQ(back.meta.ranks[0].root, 1u); // the root now comes after the body it loops over
  // forged records: a loop over a later body, a loop over an empty body
  auto record = [](std::initializer_list<std::uint64_t> bodies) {
    cformat::ByteWriter w;
    w.varint(1);            // ranks
    w.byte(0);              // exact
    w.string("");           // compute unit
    w.varint(1);            // signatures
    w.string("compute");
    w.varint(1);
    w.byte(2);              // a value slot
    for (std::uint64_t v : bodies) // the body table, as given
      w.varint(v);
    return std::move(w.out());
  };
  auto error = [](const std::string& bytes) {
    return trace_error([&] { cformat::decode_meta(bytes, "f.tit"); });
  };
  std::string later = error(record({2, 1, 3, 2, 1, 0})); // body 0: a loop over body 1 twice; body 1: a compute
  EXPECT_NE(later.find("f.tit: error: structure record at byte"), std::string::npos) << later;
  EXPECT_NE(later.find("expected a loop over a body before body 0 (a loop repeats an earlier body), found body 1"),
            std::string::npos)
      << later;
  std::string empty = error(record({2, 0, 1, 1, 2})); // body 0 empty; body 1: a loop over body 0 twice
  EXPECT_NE(empty.find("expected a loop over a non-empty body, found one over body 0, which is empty"), std::string::npos)
      << empty;
}

TEST(CompressedTrace, BadBinBasesAreErrors)
{
  // version 5 binned: the structure record ends with the bin bases, each: signature | value slot | base (zigzag)
  cformat::Meta meta;
  meta.rank_count = 1;
  meta.value_mode = "binned:0.5";
  meta.signatures = {cformat::Signature{"compute", {cformat::Slot{}}}, cformat::Signature{"sleep", {cformat::Slot{}}}};
  meta.nodes = {cformat::Node{false, 0, 1}};
  meta.bodies = {{0}};
  meta.chunks = {cformat::ChunkRef{0, 1, 1, 0, cformat::kStored}};
  meta.blocks = {cformat::BlockRef{0, 0, 1}};
  meta.ranks = {cformat::RankEntry{0, Dialect::SimGrid, 0, "1"}};
  meta.bin_bases = {{{0, 0}, 3}, {{1, 0}, 5}};
  std::string record = cformat::encode_meta(meta);
  cformat::Meta back = cformat::decode_meta(record, "f.tit");
  EXPECT_EQ(back.bin_bases, meta.bin_bases);
  auto error = [](const std::string& bytes) { return trace_error([&] { cformat::decode_meta(bytes, "f.tit"); }); };
  std::string swapped = record; // the two entries (3 bytes each, at the end) in the wrong order
  std::size_t n = swapped.size();
  std::rotate(swapped.begin() + static_cast<std::ptrdiff_t>(n - 6), swapped.begin() + static_cast<std::ptrdiff_t>(n - 3),
              swapped.end());
  EXPECT_NE(error(swapped).find("expected bin bases in ascending (signature, slot) order, no two alike"),
            std::string::npos)
      << error(swapped);
  std::string slot = record; // value slot 1 of `sleep`, which has one
  slot[n - 2] = 1;
  EXPECT_NE(error(slot).find("expected a bin base's value slot below 1, found 1"), std::string::npos) << error(slot);
  meta.bin_bases = {{{0, 0}, std::int64_t{1} << 41}};
  std::string far = cformat::encode_meta(meta);
  EXPECT_NE(error(far).find("f.tit: error: structure record at byte"), std::string::npos) << error(far);
  EXPECT_NE(error(far).find("expected a bin base within +-2^40, found 2199023255552"), std::string::npos) << error(far);
}

TEST(CompressedTrace, Version6TablesHoldDifferencesAndBadOnesAreErrors)
{
  // two ranks of one structure, a value block each, one dialect: the record ends with the dialect byte, then per rank
  // the differences of its structure and its block from the previous rank's (zigzag): 01 | 00 00 | 00 02
  cformat::Meta meta;
  meta.rank_count = 2;
  meta.value_mode = "exact";
  meta.signatures = {cformat::Signature{"compute", {cformat::Slot{}}}};
  meta.nodes = {cformat::Node{false, 0, 1}};
  meta.bodies = {{0}};
  meta.chunks = {cformat::ChunkRef{0, 2, 2, 0, cformat::kStored}};
  meta.blocks = {cformat::BlockRef{0, 0, 1}, cformat::BlockRef{0, 1, 1}};
  meta.ranks = {cformat::RankEntry{0, Dialect::SimGrid, 0, "1"}, cformat::RankEntry{0, Dialect::SimGrid, 1, "1"}};
  std::string record = cformat::encode_meta(meta);
  std::size_t n = record.size();
  EXPECT_EQ(record.substr(n - 5), std::string("\x01\x00\x00\x00\x02", 5));
  cformat::Meta back = cformat::decode_meta(record, "f.tit");
  ASSERT_EQ(back.ranks.size(), 2u);
  EXPECT_EQ(back.ranks[1].block, 1u);
  EXPECT_EQ(back.ranks[1].dialect, Dialect::SimGrid);
  EXPECT_EQ(back.blocks[1].chunk, 0u);
  auto error = [](const std::string& bytes) { return trace_error([&] { cformat::decode_meta(bytes, "f.tit"); }); };
  std::string dialect = record;
  dialect[n - 5] = 3;
  // 3: thesis, the ids as they are: the second rank's difference 2 read as block 2, of 2
  EXPECT_NE(error(dialect).find("expected a rank's value block id below 2, found 2"), std::string::npos)
      << error(dialect);
  std::string root = record; // the second rank's structure one body further: body 1, of 1
  root[n - 2] = 2;
  EXPECT_NE(error(root).find("expected a rank's structure (a body id difference) that makes an id below 1 (the previous "
                             "one 0 plus it), found 1"),
            std::string::npos)
      << error(root);
  std::string block = record; // the second rank's block two further: block 2, of 2
  block[n - 1] = 4;
  EXPECT_NE(error(block).find("expected a rank's value block (an id difference) that makes an id below 2 (the previous "
                              "one 0 plus it), found 2"),
            std::string::npos)
      << error(block);
  std::string back_block = record; // a difference of -1 from block 0
  back_block[n - 3] = 1;
  EXPECT_NE(error(back_block).find("found -1"), std::string::npos) << error(back_block);
  // ranks of two dialects: 2, then each rank's dialect in its entry
  meta.ranks[0].dialect = Dialect::Thesis;
  std::string mixed = cformat::encode_meta(meta);
  EXPECT_EQ(mixed.substr(mixed.size() - 7), std::string("\x02\x00\x00\x00\x00\x01\x02", 7));
  EXPECT_EQ(cformat::decode_meta(mixed, "f.tit").ranks[0].dialect, Dialect::Thesis);
  // the ids as they are (the writer's choice when that packs smaller): the dialect byte 3 more, 4 for SimGrid
  meta.ranks[0].dialect = Dialect::SimGrid;
  meta.ranks[0].block = 1;
  meta.ranks[1].block = 0;
  meta.absolute_ids = true;
  std::string ids = cformat::encode_meta(meta);
  EXPECT_EQ(ids.substr(ids.size() - 5), std::string("\x04\x00\x01\x00\x00", 5));
  cformat::Meta read_ids = cformat::decode_meta(ids, "f.tit");
  EXPECT_TRUE(read_ids.absolute_ids);
  EXPECT_EQ(read_ids.ranks[0].block, 1u);
  EXPECT_EQ(read_ids.ranks[1].block, 0u);
  std::string six = ids;
  six[six.size() - 5] = 6;
  EXPECT_NE(error(six).find("expected the ranks' dialect (0 thesis, 1 SimGrid, 2 each rank's own; 3 more when the ids "
                            "are not differences), found 6"),
            std::string::npos)
      << error(six);
  // a block's chunk: a difference as well (chunk 1 of 1)
  std::string chunk = record;
  std::size_t at = n - 5 - 4; // the block table: 02 | 00 01 | 00 01, before the ranks
  ASSERT_EQ(chunk.substr(at - 1, 5), std::string("\x02\x00\x01\x00\x01", 5));
  chunk[at + 2] = 2;
  EXPECT_NE(error(chunk).find("expected a value block's chunk (a difference) that makes an id below 1"),
            std::string::npos)
      << error(chunk);
}

TEST(CompressedTrace, Version6NumbersTheActionNamesOfItsTable)
{
  // `compute` is number 5 of kActionNames: an empty name, then 5; `Isend` (dialect 1's) is no entry: its string
  cformat::Meta meta;
  meta.rank_count = 1;
  meta.value_mode = "exact";
  meta.signatures = {cformat::Signature{"compute", {cformat::Slot{}}}, cformat::Signature{"Isend", {cformat::Slot{}}}};
  meta.nodes = {cformat::Node{false, 0, 1}, cformat::Node{false, 1, 1}};
  meta.bodies = {{0, 1}};
  meta.chunks = {cformat::ChunkRef{0, 1, 1, 0, cformat::kStored}};
  meta.blocks = {cformat::BlockRef{0, 0, 1}};
  meta.ranks = {cformat::RankEntry{0, Dialect::SimGrid, 0, "1"}};
  std::string record = cformat::encode_meta(meta);
  std::string compute("\x02\x00\x05\x01\x02", 5); // 2 signatures; "", number 5; one value slot
  std::size_t at = record.find(compute);
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(record.substr(at + compute.size(), 6), std::string("\x05Isend", 6));
  cformat::Meta back = cformat::decode_meta(record, "f.tit");
  EXPECT_EQ(back.signatures, meta.signatures);
  std::string bad = record;
  bad[at + 2] = static_cast<char>(cformat::kActionNames.size());
  std::string error = trace_error([&] { cformat::decode_meta(bad, "f.tit"); });
  EXPECT_NE(error.find(fmt::format("expected an action name's number below {} (a name of the format's table), found {}",
                                   cformat::kActionNames.size(), cformat::kActionNames.size())),
            std::string::npos)
      << error;
}

TEST(CompressedTrace, BadBinRunsAreErrors)
{
  // one rank, one compute stream of one run, its value block forged: the bin indices (each a byte less the stream's
  // base, which the structure record gives), then the stream
  cformat::Meta meta;
  meta.rank_count = 1;
  meta.value_mode = "binned:0.5"; // q = 3: bin k is [3^k, 3^(k+1)), represented by 3^(k+1) / 2
  meta.bin_runs = 0.5;
  meta.signatures = {cformat::Signature{"compute", {cformat::Slot{}}}};
  auto based = [&meta](std::int64_t base) { // the meta whose one stream's bin indices count from `base`
    cformat::Meta m = meta;
    m.bin_bases = {{{0, 0}, base}};
    return m;
  };
  auto block = [](std::size_t indices, std::uint64_t count_form, int bin_runs = 1) {
    cformat::ByteWriter w;
    w.varint(indices);
    for (std::size_t i = 0; i < indices; ++i)
      w.byte(static_cast<std::uint8_t>(i));
    w.varint(1); // streams
    w.varint(0); // signature
    w.varint(0); // slot
    w.varint(static_cast<std::uint64_t>(bin_runs)); // repeats, each one run
    for (int i = 0; i < bin_runs; ++i) {
      w.varint(0);
      w.varint(1);
      w.varint(count_form);
    }
    return std::move(w.out());
  };
  auto error = [&](const std::string& bytes, const cformat::Meta& m) {
    return trace_error([&] { cformat::decode_streams(bytes, m, "f.tit", 0); });
  };
  // bin 4 in form 0 (integer), 3 times: 3^5 / 2 = 121.5, written 122; bin 2 in form 1: 13.5
  std::vector<cformat::Stream> s = cformat::decode_streams(block(1, 3 << 1 | 0), based(4), "f.tit", 0);
  ASSERT_EQ(s.size(), 1u);
  ASSERT_EQ(s[0].runs.size(), 1u);
  EXPECT_EQ(s[0].runs[0], (cformat::ValueRun{true, 122, 0, "", 3}));
  s = cformat::decode_streams(block(1, 1 << 1 | 1), based(2), "f.tit", 0);
  EXPECT_EQ(s[0].runs[0], (cformat::ValueRun{false, 0, 0, "13.5", 1}));
  // the writer gives these runs back so: the index less its stream's base (bin 2 from base 1: 1)
  cformat::Bins bins(0.5);
  cformat::Meta one = based(1);
  std::string one_block = std::string("\x01\x01") + block(1, 1 << 1 | 1).substr(2); // 1 index: byte 1; the stream
  EXPECT_EQ(cformat::encode_streams(s, &bins, &one.bin_bases), one_block);
  EXPECT_EQ(cformat::decode_streams(one_block, one, "f.tit", 0)[0].runs, s[0].runs);
  EXPECT_NE(error(one_block, meta).find("expected no bin run in the stream of signature 0's value slot 0 (the "
                                        "structure record gives it no bin base), found one"),
            std::string::npos)
      << error(one_block, meta);
  EXPECT_NE(error(one_block, based(std::int64_t{1} << 40))
                .find("expected a bin index within +-2^40, found the base 1099511627776 plus 1"),
            std::string::npos)
      << error(one_block, based(std::int64_t{1} << 40));
  cformat::ByteWriter wide; // an index whose difference from its base is beyond any index
  wide.varint(1);
  wide.byte(255);
  wide.zigzag(std::int64_t{1} << 42);
  EXPECT_NE(error(wide.out(), one).find("expected a bin index less its stream's base within +-2^41, found 4398046511104"),
            std::string::npos)
      << error(wide.out(), one);
  EXPECT_NE(error(block(1, 2), based(-40)).find("f.tit: error: value block 0 at byte"), std::string::npos);
  EXPECT_NE(error(block(1, 2), based(-40)).find("expected a bin index whose representative is a positive integer "
                                                "below 2^61 (binned:0.5), found -40"),
            std::string::npos)
      << error(block(1, 2), based(-40));
  EXPECT_NE(error(block(1, 3), based(700)).find("representative is a positive number (binned:0.5), found 700"),
            std::string::npos)
      << error(block(1, 3), based(700));
  EXPECT_NE(error(block(1, 0 << 1 | 1), based(2)).find("expected a run length of at least 1, found 0"),
            std::string::npos);
  EXPECT_NE(error(block(2, 3), based(2)).find("expected 2 bin runs (the block's bin indices), found 1"),
            std::string::npos);
  EXPECT_NE(error(block(1, 3, 2), based(2)).find("expected at most 1 bin runs (the block's bin indices), found more"),
            std::string::npos);
  // an exact file has no bin runs: a head of 1 is a token of no bytes
  cformat::Meta exact = meta;
  exact.bin_runs = 0;
  std::string plain = block(0, 3).substr(1); // the stream alone, without the (empty) bin indices
  EXPECT_NE(error(plain, exact).find("expected a value token of 1 to"), std::string::npos) << error(plain, exact);
  EXPECT_NE(error(plain, exact).find("found a length of 0"), std::string::npos) << error(plain, exact);
}

TEST(CompressedTrace, DeployedRanksMustMatch)
{
  ring_file();
  EXPECT_NE(trace_error([&] { TraceSet::open(scratch_dir() / "ring.tit", 3); }).find("rank mismatch"),
            std::string::npos);
  EXPECT_EQ(TraceSet::open(scratch_dir() / "ring.tit", 4)->rank_count(), 4);
}

TEST(CompressedTrace, ErrorsOfActionsNameTheRankAndTheAction)
{
  // a partner out of range is only seen when the trace set's rank count is known: compress a merged file of
  // 2 ranks, whose action parses; its replay errors carry "<file> (rank r):<action number>"
  fs::path t = write_file(scratch_dir() / "t.txt", "0 init\n0 compute 5\n0 send 1 0 8 0\n0 finalize\n1 init\n"
                                                   "1 finalize\n");
  expect_round_trip(t);
  // integers at the edge of the range of value runs (|v| < 2^61), steps of nearly 2^62, and beyond it
  expect_round_trip(write_file(scratch_dir() / "big.txt", "0 init\n0 waitall 2305843009213693950\n"
                                                          "0 waitall -2305843009213693950\n0 waitall 2305843009213693950\n"
                                                          "0 waitall 2305843009213693951\n0 waitall -9223372036854775808\n"
                                                          "0 waitall 99999999999999999999\n0 finalize\n"));
  expect_round_trip(t);
  std::unique_ptr<TraceSet> set = TraceSet::open(scratch_dir() / "out.tit", std::nullopt);
  std::unique_ptr<RankReader> reader = set->reader(0);
  Action a;
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(reader->next(a));
  EXPECT_EQ(*a.file, (scratch_dir() / "out.tit").string() + " (rank 0)");
  EXPECT_EQ(a.line, 3u);
}

TEST(CompressedTrace, UnknownValueModeListsTheAccepted)
{
  EXPECT_EQ(trace_error([] { parse_value_mode("lossy"); }),
            "error: unknown value mode 'lossy' (accepted: exact, binned:R, stats)");
  EXPECT_EQ(value_mode_name(parse_value_mode("stats")), "stats");
  EXPECT_NE(trace_error([] { parse_value_mode("binned:1.5"); }).find("must be a number between 0 and 1"),
            std::string::npos);
  EXPECT_NE(trace_error([] { parse_value_mode("binned:x"); }).find("binned:0.01"), std::string::npos);
  EXPECT_EQ(value_mode_name(parse_value_mode("binned:0.01")), "binned:0.01");
}


// ---- the tracer's path (trace/compressed_build.hpp): lines folded online, parts merged along a tree ---------------

/// Each rank of `traces` folded from its action lines (RankCompressor::add_line, as the tracer feeds it; `stats`: with
/// exact values, then fold_gaps, as the tracer does at MPI_Finalize; `binned:R`: consecutive computes summed into one
/// line first, as the tracer sums them), the parts merged along a binomial tree through their byte form (as the ranks
/// send them), written by write_compressed.
fs::path compress_online(const fs::path& traces, const ValueMode& mode, const fs::path& out)
{
  std::unique_ptr<TraceSet> set = TraceSet::open(traces, std::nullopt);
  int n = set->rank_count();
  bool stats = mode.kind == ValueMode::Kind::Stats;
  bool join = mode.kind == ValueMode::Kind::Binned;
  std::vector<cformat::Part> parts;
  for (int r = 0; r < n; ++r) {
    cformat::RankCompressor rank(r, n, stats ? ValueMode{} : mode);
    std::unique_ptr<RankReader> reader = set->reader(r);
    std::vector<std::string> pending; // consecutive compute volumes
    auto flush = [&] {
      if (pending.size() == 1) {
        rank.add_line(fmt::format("{} compute {}", r, pending[0]));
      } else if (!pending.empty()) {
        std::int64_t whole = 0, v = 0;
        double sum = 0;
        bool integers = true;
        for (const std::string& t : pending) {
          integers = integers && cformat::canonical_int(t, v) && !__builtin_add_overflow(whole, v, &whole);
          sum += std::stod(t);
        }
        rank.add_line(integers ? fmt::format("{} compute {}", r, whole) : fmt::format("{} compute {}", r, sum));
      }
      pending.clear();
    };
    Action a;
    while (reader->next(a)) {
      if (join && a.kind == Kind::Compute) {
        std::string_view rest = a.text;
        detail::next_field(rest);
        detail::next_field(rest);
        pending.emplace_back(detail::next_field(rest));
        continue;
      }
      flush();
      rank.add_line(a.text);
    }
    flush();
    parts.push_back(stats ? cformat::fold_gaps(rank.finish(), n) : rank.finish());
  }
  for (int mask = 1; mask < n; mask <<= 1)
    for (int r = 0; r + mask < n; r += 2 * mask) {
      std::vector<cformat::Part> two;
      two.push_back(std::move(parts[static_cast<std::size_t>(r)]));
      two.push_back(cformat::decode_part(cformat::encode_part(parts[static_cast<std::size_t>(r + mask)]), "test"));
      parts[static_cast<std::size_t>(r)] = cformat::merge_parts(std::move(two));
    }
  if (n == 1) {
    std::vector<cformat::Part> one;
    one.push_back(std::move(parts[0]));
    parts[0] = cformat::merge_parts(std::move(one));
  }
  cformat::write_compressed(out, n, mode, set->compute_unit(), parts[0]);
  return out;
}

TEST(CompressedOnline, LinesFoldedPerRankAndMergedAlongATreeGiveTheFileOfCompress)
{
  int compared = 0;
  for (const fs::path& traces : repository_trace_sets()) {
    std::unique_ptr<TraceSet> set;
    bool simgrid = trace_error([&] {
                     set = TraceSet::open(traces, std::nullopt);
                     for (int r = 0; r < set->rank_count(); ++r) {
                       std::unique_ptr<RankReader> reader = set->reader(r);
                       Action a;
                       while (reader->next(a))
                         if (a.dialect != Dialect::SimGrid)
                           throw TraceError("thesis");
                     }
                   }) == "<no error>";
    if (!simgrid || is_compressed_trace(traces))
      continue;
    for (const char* mode : {"exact", "binned:0.05", "stats"}) {
      fs::path offline = scratch_dir() / "offline.tit";
      std::unique_ptr<TraceSet> plain = TraceSet::open(traces, std::nullopt);
      compress(*plain, offline, parse_value_mode(mode));
      fs::path online = compress_online(traces, parse_value_mode(mode), scratch_dir() / "online.tit");
      ASSERT_EQ(file_bytes(online), file_bytes(offline)) << traces << " " << mode;
    }
    ++compared;
  }
  EXPECT_GE(compared, 40);
}

/// Rank `rank` of `set` (of `ranks` ranks) folded from its action lines, as the tracer feeds them (exact values).
cformat::Part fold_lines(TraceSet& set, int rank, int ranks)
{
  cformat::RankCompressor out(rank, ranks, ValueMode{});
  std::unique_ptr<RankReader> reader = set.reader(rank);
  Action a;
  while (reader->next(a))
    out.add_line(a.text);
  return out.finish();
}

TEST(CompressedOnline, ReadPartGivesBackTheActionsOfEachRank)
{
  fs::path plain = write_file(scratch_dir() / "sporadic-read.txt", sporadic_trace(50, 5));
  std::unique_ptr<TraceSet> set = TraceSet::open(plain, std::nullopt);
  std::vector<cformat::Part> parts;
  for (int r : {3, 1, 4}) // some ranks of five, not in order
    parts.push_back(fold_lines(*set, r, 5));
  std::vector<std::vector<std::string>> expected = read_all(plain);
  std::vector<std::unique_ptr<RankReader>> readers =
      cformat::read_part(cformat::merge_parts(std::move(parts)), 5, "held");
  ASSERT_EQ(readers.size(), 3u);
  std::size_t i = 0;
  for (int r : {1, 3, 4}) { // the merged part's ranks, ascending
    std::vector<std::string> got;
    Action a;
    while (readers[i]->next(a)) {
      got.push_back(fields(a));
      EXPECT_EQ(*a.file, "held (rank " + std::to_string(r) + ")");
    }
    EXPECT_EQ(got, expected[static_cast<std::size_t>(r)]) << "rank " << r;
    ++i;
  }
}

TEST(CompressedOnline, StatsOfRanksFoldedExactIsTheFileOfCompress)
{
  // sporadic computes (the gaps change the structure) and jittered volumes (drawn from schedules)
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"sporadic", sporadic_trace(400, 4)},
                                   {"noisy", noisy_trace(500, 3)}}) {
    fs::path plain = write_file(scratch_dir() / (name + ".txt"), text);
    fs::path offline = scratch_dir() / (name + "-offline.tit"), exact = scratch_dir() / (name + "-exact.tit");
    CompressStats c = compress(*TraceSet::open(plain, std::nullopt), offline, parse_value_mode("stats"));
    CompressStats e = compress(*TraceSet::open(plain, std::nullopt), exact, ValueMode{});
    EXPECT_LT(c.bytes * 5, e.bytes) << name << ": the drawn file, not the one keeping every value";
    fs::path online = compress_online(plain, parse_value_mode("stats"), scratch_dir() / (name + "-online.tit"));
    EXPECT_EQ(file_bytes(online), file_bytes(offline)) << name;
  }
}

/// A rank's lines folded as the tracer's compressed path folds them (RankCompressor::add_record, add_compute, and
/// add_line with the record on a miss) and, beside it, from the lines alone; returns whether the two parts are equal.
/// A record is the line's bytes in words, plus an alias word (`aliases` of them in turn: one line, several records,
/// as the tracer's name addresses may be). `folded` counts the actions folded without their line.
bool records_fold_as_lines(int rank, int ranks, const std::vector<std::string>& lines, const ValueMode& mode,
                           std::uint64_t aliases, std::uint64_t& folded)
{
  cformat::RankCompressor by_line(rank, ranks, mode), by_record(rank, ranks, mode);
  std::string compute = fmt::format("{} compute ", rank);
  std::vector<std::uint64_t> record;
  std::uint64_t seen = 0;
  for (const std::string& line : lines) {
    by_line.add_line(line);
    record.assign((line.size() + 7) / 8 + 1, 0);
    std::memcpy(record.data(), line.data(), line.size());
    record.back() = (seen++ % aliases) << 32 | line.size();
    std::int64_t volume = 0;
    bool is_compute =
        line.starts_with(compute) && cformat::canonical_int(std::string_view(line).substr(compute.size()), volume);
    if (is_compute ? by_record.add_compute(volume) : by_record.add_record(record)) {
      ++folded;
      continue;
    }
    by_record.add_line(line, record);
  }
  bool same_count = by_line.actions() == by_record.actions();
  return same_count && cformat::encode_part(by_line.finish()) == cformat::encode_part(by_record.finish());
}

TEST(CompressedOnline, RecordsFoldAsTheirLines)
{
  // the tracer hands the folder a record of each action and its line only for a record it has not seen: every trace of
  // the repository (SimGrid dialect), in exact and binned values, with one and with three records per line, must give
  // the part its lines give
  int compared = 0;
  std::uint64_t folded = 0, actions = 0;
  for (const fs::path& traces : repository_trace_sets()) {
    std::unique_ptr<TraceSet> set;
    std::vector<std::vector<std::string>> lines;
    bool simgrid = trace_error([&] {
                     set = TraceSet::open(traces, std::nullopt);
                     for (int r = 0; r < set->rank_count(); ++r) {
                       lines.emplace_back();
                       std::unique_ptr<RankReader> reader = set->reader(r);
                       Action a;
                       while (reader->next(a)) {
                         if (a.dialect != Dialect::SimGrid)
                           throw TraceError("thesis");
                         lines.back().emplace_back(a.text);
                       }
                     }
                   }) == "<no error>";
    if (!simgrid || is_compressed_trace(traces))
      continue;
    for (const char* mode : {"exact", "binned:0.05"})
      for (std::uint64_t aliases : {1, 3})
        for (int r = 0; r < set->rank_count(); ++r) {
          ASSERT_TRUE(records_fold_as_lines(r, set->rank_count(), lines[static_cast<std::size_t>(r)],
                                            parse_value_mode(mode), aliases, folded))
              << traces << " rank " << r << " " << mode << " aliases " << aliases;
          actions += lines[static_cast<std::size_t>(r)].size();
        }
    ++compared;
  }
  EXPECT_GE(compared, 40);
  EXPECT_GT(folded, actions / 20); // the path was taken (the repository's traces are short: about a tenth of their actions)
}

TEST(CompressedOnline, RecordsBeyondTheRememberedLinesFoldAsTheirLines)
{
  // more distinct lines than the folder remembers (4096), repeated, with computes between them whose volumes exceed
  // the integers of value runs now and then (their shortcut refused: the line is given), in both value modes
  std::vector<std::string> lines = {"2 init"};
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < 5000; ++i) {
      lines.push_back(fmt::format("2 send {} {} 64 2", (i + 1) % 4, i % 4500));
      lines.push_back(i % 97 == 0 ? "2 compute 3000000000000000000" : fmt::format("2 compute {}", 100 + i % 7));
      lines.push_back("2 waitall 4");
      if (i % 16 == 0)
        lines.push_back("2 allreduce 1 0 0 comm=1");
    }
  lines.push_back("2 finalize");
  for (const char* mode : {"exact", "binned:0.01"}) {
    std::uint64_t folded = 0;
    EXPECT_TRUE(records_fold_as_lines(2, 4, lines, parse_value_mode(mode), 2, folded)) << mode;
    EXPECT_GT(folded, lines.size() / 3) << mode;
  }
}

TEST(CompressedOnline, MergeOrderAndGroupingDoNotChangeThePart)
{
  std::string text;
  for (int r = 0; r < 6; ++r) {
    text += fmt::format("{} init\n", r);
    for (int it = 0; it < 20 + r % 2; ++it)
      text += fmt::format("{} compute {}\n{} send {} 0 {} 0\n{} recv {} 0 {} 0\n", r, 1000 + it * (r % 3), r, (r + 1) % 6,
                          8 * (r % 2 + 1), r, (r + 5) % 6, 8 * ((r + 5) % 6 % 2 + 1));
    text += fmt::format("{} finalize\n", r);
  }
  fs::path merged = write_file(scratch_dir() / "six.txt", text);
  auto parts = [&] {
    std::unique_ptr<TraceSet> set = TraceSet::open(merged, std::nullopt);
    std::vector<cformat::Part> out;
    for (int r = 0; r < 6; ++r)
      out.push_back(fold_lines(*set, r, 6));
    return out;
  };
  std::string at_once = cformat::encode_part(cformat::merge_parts(parts()));
  std::vector<cformat::Part> p = parts();
  std::reverse(p.begin(), p.end());
  EXPECT_EQ(cformat::encode_part(cformat::merge_parts(std::move(p))), at_once);
  p = parts();
  std::vector<cformat::Part> high(std::make_move_iterator(p.begin() + 3), std::make_move_iterator(p.end()));
  std::vector<cformat::Part> low(std::make_move_iterator(p.begin()), std::make_move_iterator(p.begin() + 3));
  std::vector<cformat::Part> halves;
  halves.push_back(cformat::merge_parts(std::move(high)));
  halves.push_back(cformat::merge_parts(std::move(low)));
  cformat::Part joined = cformat::merge_parts(std::move(halves));
  EXPECT_EQ(cformat::encode_part(joined), at_once);
  // ranks 0, 2, 4 (and 1, 3, 5) do the same thing: one structure each, and the values of equal ranks are shared
  std::set<std::uint32_t> roots;
  for (const auto& r : joined.ranks)
    roots.insert(r.root);
  EXPECT_EQ(roots.size(), 2u);
  EXPECT_EQ(joined.blocks.size(), 6u); // compute volumes differ with r % 3, sizes with r % 2
}

TEST(CompressedOnline, RenumberedBlocksAreTheirDecodedStreamsRenumbered)
{
  // one rank with integer and token values, runs, repeats and several signatures, its signature ids then reversed
  std::string text = "0 init\n";
  for (int it = 0; it < 300; ++it)
    text += fmt::format("0 compute {}\n0 send 1 {} {} 0\n0 recv 1 0 64 0\n0 compute {}\n0 sleep {}\n",
                        it % 5 == 0 ? 100 : 1000 + it * 37 % 101, it % 3, 8 << (it % 2), 5 + it, 0.25 * (it % 4 + 1));
  text += "0 finalize\n1 init\n";
  for (int it = 0; it < 300; ++it)
    text += fmt::format("1 recv 0 {} {} 0\n1 send 0 0 64 0\n", it % 3, 8 << (it % 2));
  text += "1 finalize\n";
  fs::path file = write_file(scratch_dir() / "renumber.txt", text);
  std::unique_ptr<TraceSet> set = TraceSet::open(file, std::nullopt);
  cformat::Part part = fold_lines(*set, 0, 2);
  ASSERT_EQ(part.blocks.size(), 1u);
  cformat::Meta meta;
  meta.signatures = part.signatures;
  std::size_t n = meta.signatures.size();
  ASSERT_GE(n, 4u);
  std::vector<std::int64_t> reversed(n);
  for (std::size_t i = 0; i < n; ++i)
    reversed[i] = static_cast<std::int64_t>(n - 1 - i);
  std::vector<cformat::Stream> streams = cformat::decode_streams(part.blocks[0], meta, "renumber", 0);
  ASSERT_GE(streams.size(), 4u);
  for (cformat::Stream& st : streams)
    st.signature = static_cast<std::uint32_t>(reversed[st.signature]);
  std::sort(streams.begin(), streams.end(), [](const cformat::Stream& a, const cformat::Stream& b) {
    return std::pair(a.signature, a.slot) < std::pair(b.signature, b.slot);
  });
  std::string renumbered = cformat::renumber_streams(part.blocks[0], meta, reversed, "renumber", 0);
  EXPECT_EQ(renumbered, cformat::encode_streams(streams));
  EXPECT_NE(renumbered, part.blocks[0]);

  // a stream of a signature the merge did not meet in the ranks' structures, and a cut block: errors naming the block
  std::vector<std::int64_t> missing = reversed;
  missing[cformat::decode_streams(part.blocks[0], meta, "renumber", 0).front().signature] = -1;
  try {
    cformat::renumber_streams(part.blocks[0], meta, missing, "rank 0's part", 0);
    ADD_FAILURE() << "a stream of a signature no action has was renumbered";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0's part: error: value block 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("which no action of its ranks has"), std::string::npos) << e.what();
  }
  std::string cut = part.blocks[0].substr(0, part.blocks[0].size() - 1);
  EXPECT_THROW(cformat::renumber_streams(cut, meta, reversed, "rank 0's part", 0), TraceError);
}

/// Every value of every stream of `bytes`, read in place (InPlaceCursor), and expanded from decode_streams: equal.
void expect_read_in_place_as_decoded(const std::string& bytes, const cformat::Meta& meta, std::size_t at_least)
{
  std::vector<cformat::Stream> decoded = cformat::decode_streams(bytes, meta, "f.tit", 0);
  cformat::BlockInPlace block = cformat::block_in_place(bytes, meta, "f.tit", 0);
  ASSERT_EQ(block.streams.size(), decoded.size());
  std::size_t values = 0;
  for (std::size_t i = 0; i < decoded.size(); ++i) {
    const cformat::Stream& st = decoded[i];
    EXPECT_EQ(block.streams[i].signature, st.signature);
    EXPECT_EQ(block.streams[i].slot, st.slot);
    cformat::InPlaceCursor c;
    c.start(block, i);
    for (const cformat::Repeat& rep : st.repeats)
      for (std::uint64_t pass = 0; pass < rep.count; ++pass)
        for (std::uint32_t k = 0; k < rep.length; ++k) {
          const cformat::ValueRun& run = st.runs[rep.first + k];
          for (std::uint64_t j = 0; j < run.count; ++j, ++values, c.advance()) {
            ASSERT_FALSE(c.ended()) << "stream " << i << " value " << values;
            ASSERT_EQ(c.text == nullptr, run.is_int) << "stream " << i << " value " << values;
            if (run.is_int)
              ASSERT_EQ(c.value, run.first + static_cast<std::int64_t>(j) * run.step) << "stream " << i;
            else
              ASSERT_EQ(*c.text, run.text) << "stream " << i << " value " << values;
          }
        }
    EXPECT_TRUE(c.ended()) << "stream " << i;
  }
  EXPECT_GE(values, at_least);
}

TEST(CompressedOnline, BlocksReadInPlaceGiveTheirDecodedValues)
{
  // integer runs with steps, tokens, repeats of several runs read many times, nested in loops; several signatures
  std::string text = "0 init\n";
  std::mt19937 random(7);
  for (int it = 0; it < 400; ++it)
    text += fmt::format("0 compute {}\n0 send 1 {} {} 0\n0 recv 1 0 64 0\n0 sleep {}\n0 compute {}\n",
                        it % 7 < 3 ? 1000 : 2000 + random() % 5000, it % 3, 8 << (it % 2), 0.25 * (it % 4 + 1),
                        100 + it);
  text += "0 finalize\n1 init\n";
  for (int it = 0; it < 400; ++it)
    text += fmt::format("1 recv 0 {} {} 0\n1 send 0 0 64 0\n", it % 3, 8 << (it % 2));
  text += "1 finalize\n";
  fs::path file = write_file(scratch_dir() / "in-place.txt", text);
  std::unique_ptr<TraceSet> set = TraceSet::open(file, std::nullopt);
  cformat::Part part = fold_lines(*set, 0, 2);
  cformat::Meta meta;
  meta.signatures = part.signatures;
  ASSERT_EQ(part.blocks.size(), 1u);
  expect_read_in_place_as_decoded(part.blocks[0], meta, 2000);

  // the values binned (version 5: bin indices first, each less its stream's base)
  cformat::RankCompressor folder(0, 2, parse_value_mode("binned:0.01"));
  std::unique_ptr<TraceSet> again = TraceSet::open(file, std::nullopt);
  std::unique_ptr<RankReader> reader = again->reader(0);
  for (Action a; reader->next(a);)
    folder.add_line(a.text);
  part = folder.finish();
  meta.signatures = part.signatures;
  std::vector<cformat::Stream> streams = cformat::decode_streams(part.blocks[0], meta, "f.tit", 0);
  cformat::Bins bins(0.01);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::int64_t>> indices;
  cformat::bin_indices(streams, bins, indices);
  ASSERT_FALSE(indices.empty());
  cformat::Meta binned = meta;
  binned.bin_runs = 0.01;
  for (const auto& [stream, of] : indices)
    binned.bin_bases[stream] = cformat::bin_base(of);
  std::string bytes = cformat::encode_streams(streams, &bins, &binned.bin_bases);
  EXPECT_GE(cformat::block_in_place(bytes, binned, "f.tit", 0).bin_indices.size(), 200u);
  expect_read_in_place_as_decoded(bytes, binned, 2000);
}

TEST(CompressedOnline, StructureDoesNotGrowWithIterations)
{
  auto items_after = [](int iterations) {
    cformat::RankCompressor rank(1, 4, ValueMode{});
    rank.add_line("1 init");
    for (int it = 0; it < iterations; ++it) {
      rank.add_line(fmt::format("1 compute {}", 1000 + it * 7 % 13));
      rank.add_line("1 irecv 0 3 64 6");
      rank.add_line("1 isend 2 3 64 6");
      rank.add_line("1 waitall 2");
      for (int k = 0; k < 3; ++k)
        rank.add_line(fmt::format("1 compute {}", 10 + k));
      if (it % 16 == 15)
        rank.add_line("1 allreduce 1 0 0");
    }
    rank.add_line("1 finalize");
    return rank.structure_items();
  };
  std::uint64_t small = items_after(1024);
  EXPECT_EQ(items_after(16384), small);
  EXPECT_LT(small, 40u);
}

TEST(CompressedOnline, RepetitionOfANestedBodyBrokenAtEveryAction)
{
  // the folder walks the expansion of the last loop's body (here loop(body, n) with body = [allreduce,
  // loop([irecv, isend, compute], 3), waitall]) and sends the actions it matched through the full search only when an
  // action breaks the repetition: a break after each of the body's 11 actions, and none, must give back every action
  // (in the order written) and the same file online and offline, with the repetitions on both sides folded
  std::vector<std::string> body = {"allreduce 1 0 0"};
  for (int k = 0; k < 3; ++k)
    body.insert(body.end(), {"irecv 0 0 64 2", "isend 0 0 64 2", fmt::format("compute {}", 100 + k)});
  body.push_back("waitall 6");
  for (std::size_t cut = 0; cut <= body.size(); ++cut) {
    std::string t = "0 init\n";
    auto iterations = [&](int n, std::size_t actions) {
      for (int it = 0; it < n; ++it)
        for (std::size_t i = 0; i < actions; ++i)
          t += "0 " + body[i] + "\n";
    };
    iterations(6, body.size());
    iterations(1, cut);
    t += "0 barrier\n";
    iterations(5, body.size());
    t += "0 finalize\n";
    fs::path plain = write_file(scratch_dir() / "broken.txt", t);
    CompressStats s = expect_round_trip(plain);
    EXPECT_LE(s.loops, 6u) << cut; // loop(body) on each side of the break, the inner loop (and what the cut folds)
    fs::path offline = scratch_dir() / "offline.tit";
    compress(*TraceSet::open(plain, std::nullopt), offline, ValueMode{});
    EXPECT_EQ(file_bytes(compress_online(plain, ValueMode{}, scratch_dir() / "online.tit")), file_bytes(offline))
        << cut;
  }
}

TEST(CompressedOnline, HeldBackValuesKeepTheirOrderInEachStream)
{
  // a remembered line repeated alone only counts its occurrences; a new line of the same signature (whose values go to
  // the same streams), another remembered one, and the end must first add the counted ones: the file is the one of
  // the offline path, whose values come back in order
  std::string t = "0 init\n";
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 4; ++i)
      t += "0 irecv 0 1 64 2\n";
    t += fmt::format("0 irecv 0 {} 64 2\n0 compute {}\n", 7 + round, 100 + round); // new on each round
    for (int i = 0; i < 3; ++i)
      t += "0 irecv 0 1 64 2\n0 irecv 0 7 64 2\n"; // two remembered lines taking the streams in turn
    t += "0 isend 0 1 64 2\n0 isend 0 1 64 2\n0 waitall 2\n";
  }
  t += "0 irecv 0 1 64 2\n0 finalize\n";
  fs::path plain = write_file(scratch_dir() / "held.txt", t);
  for (const char* mode : {"exact", "binned:0.05"}) {
    fs::path offline = scratch_dir() / "offline.tit";
    compress(*TraceSet::open(plain, std::nullopt), offline, parse_value_mode(mode));
    fs::path online = compress_online(plain, parse_value_mode(mode), scratch_dir() / "online.tit");
    EXPECT_EQ(file_bytes(online), file_bytes(offline)) << mode;
    if (std::string_view(mode) == "exact") { // binned compute volumes come back binned
      EXPECT_EQ(read_all(online), read_all(plain));
    }
  }
}

TEST(CompressedOnline, UnknownActionAndCorruptPartsAreErrors)
{
  cformat::RankCompressor rank(0, 2, ValueMode{});
  EXPECT_EQ(trace_error([&] { rank.add_line("0 teleport 1"); }), "error: unknown action 'teleport' in line '0 teleport 1'");
  rank.add_line("0 init");
  rank.add_line("0 send 1 0 8 0");
  std::string bytes = cformat::encode_part(rank.finish());
  for (std::size_t cut = 0; cut < bytes.size(); ++cut)
    EXPECT_NE(trace_error([&] { cformat::decode_part(bytes.substr(0, cut), "rank 1's part"); })
                  .find("rank 1's part: error: part of a compressed trace at byte"),
              std::string::npos)
        << cut;
  cformat::Part p = cformat::decode_part(bytes, "rank 1's part");
  EXPECT_EQ(cformat::encode_part(p), bytes);
  EXPECT_NE(trace_error([&] { cformat::write_compressed(scratch_dir() / "one.tit", 2, ValueMode{}, "", p); })
                .find("1 ranks of 2 were merged"),
            std::string::npos);
}


TEST(CompressedOnline, ValueRunsGroupIntoTheRepeatsOfFindRepeats)
{
  // the online grouping (a look-ahead of 2 kPeriod runs) must choose the repeats find_repeats chooses on the whole
  // stream: stretches of a random period (1 to 70 runs, past kPeriod) repeated 1 to 5 times, integers and fractions
  std::mt19937 rng(7);
  for (int trial = 0; trial < 30; ++trial) {
    cformat::RankCompressor rank(0, 1, ValueMode{});
    for (int n = 0; n < 3000;) {
      std::size_t period = 1 + rng() % 70;
      unsigned times = 1 + rng() % 5;
      std::vector<std::string> pattern;
      for (std::size_t k = 0; k < period; ++k)
        pattern.push_back(rng() % 3 == 0 ? fmt::format("{}.5", rng() % 4) : std::to_string(rng() % 5 * 10));
      for (unsigned t = 0; t < times; ++t)
        for (const std::string& v : pattern) {
          rank.add_line("0 compute " + v);
          ++n;
        }
    }
    cformat::Part p = rank.finish();
    cformat::Meta meta;
    meta.signatures = p.signatures;
    std::vector<cformat::Stream> streams = cformat::decode_streams(p.blocks[0], meta, "test", 0);
    ASSERT_EQ(streams.size(), 1u);
    cformat::Stream flat{streams[0].signature, streams[0].slot, {}, {}};
    for (const cformat::Repeat& rep : streams[0].repeats)
      for (std::uint64_t c = 0; c < rep.count; ++c)
        for (std::uint32_t i = 0; i < rep.length; ++i)
          flat.runs.push_back(streams[0].runs[rep.first + i]);
    std::size_t expanded = flat.runs.size();
    cformat::find_repeats(flat);
    ASSERT_EQ(cformat::encode_streams({flat}), cformat::encode_streams({streams[0]})) << "trial " << trial;
    EXPECT_GT(expanded, streams[0].runs.size()) << "trial " << trial; // some repeats were found
  }
}


TEST(CompressedTrace, BinnedConsecutiveComputesAreSummedThenBinned)
{
  // computes in half the iterations; in some of them two or three in a row (as SMPI writes several between two calls):
  // each run of computes reads back as one compute within R of its sum, the other actions as binned:R gives them
  std::mt19937_64 rng(11);
  std::string t;
  std::vector<std::vector<double>> sums(2);
  for (int r = 0; r < 2; ++r) {
    t += fmt::format("{} init\n", r);
    for (int i = 0; i < 300; ++i) {
      double sum = 0;
      std::uint64_t draw = rng() % 20; // no compute (half the iterations), one, two or three
      for (int k = draw < 10 ? 0 : draw < 16 ? 1 : draw < 19 ? 2 : 3; k > 0; --k) {
        std::uint64_t v = 1000000 + rng() % 1000000;
        sum += static_cast<double>(v);
        t += k == 2 ? fmt::format("{} compute {}.5\n", r, v) : fmt::format("{} compute {}\n", r, v);
        sum += k == 2 ? 0.5 : 0;
      }
      if (sum > 0)
        sums[static_cast<std::size_t>(r)].push_back(sum);
      t += fmt::format("{} send {} 0 1000\n{} recv {} 0 1000\n", r, 1 - r, r, 1 - r);
    }
    t += fmt::format("{} compute 5000\n{} compute 7000\n{} finalize\n", r, r, r); // two before the last action
    sums[static_cast<std::size_t>(r)].push_back(12000);
  }
  fs::path plain = write_file(scratch_dir() / "joined.txt", t);
  fs::path b = scratch_dir() / "joined.tit";
  ValueMode mode = parse_value_mode("binned:0.01");
  CompressStats stats = compress(*TraceSet::open(plain, std::nullopt), b, mode);
  std::string unjoined = folded_as_read(plain, mode, scratch_dir() / "unjoined.tit");
  EXPECT_LT(stats.bytes, unjoined.size());
  auto p = TraceSet::open(plain, std::nullopt);
  auto c = TraceSet::open(b, std::nullopt);
  for (int r = 0; r < 2; ++r) {
    auto pr = p->reader(r), cr = c->reader(r);
    Action x, y;
    std::size_t i = 0;
    const std::vector<double>& expected = sums[static_cast<std::size_t>(r)];
    while (cr->next(y)) {
      if (y.kind == Kind::Compute) {
        ASSERT_LT(i, expected.size()) << "rank " << r;
        EXPECT_NEAR(y.amount / expected[i++], 1, 0.01) << "rank " << r << ": " << y.text;
        continue;
      }
      do
        ASSERT_TRUE(pr->next(x)) << "rank " << r;
      while (x.kind == Kind::Compute);
      EXPECT_EQ(x.kind, y.kind) << "rank " << r;
      EXPECT_NEAR(y.bytes, x.bytes, 0.01 * x.bytes) << "rank " << r << ": " << y.text;
    }
    EXPECT_EQ(i, expected.size()) << "rank " << r;
  }
}

TEST(CompressedTrace, BinnedTracesWithoutConsecutiveComputesKeepTheirBytes)
{
  // one compute at most between two other actions: the file is the one of the actions folded as they come
  ValueMode mode = parse_value_mode("binned:0.01");
  fs::path plain = write_file(scratch_dir() / "sporadic-keep.txt", sporadic_trace(200, 4));
  fs::path b = scratch_dir() / "sporadic-keep.tit";
  compress(*TraceSet::open(plain, std::nullopt), b, mode);
  EXPECT_EQ(file_bytes(b), folded_as_read(plain, mode, scratch_dir() / "sporadic-keep-plain.tit"));
}

TEST(CompressedTrace, BinnedSlotsOfOneTokenInEveryBlockBecomeLiterals)
{
  // 4 ranks of a ring, jittered computes, tags 0 to 2, messages of 8192 bytes; in the second trace rank 2's of 4096
  auto ring = [](int odd_rank) {
    std::mt19937_64 rng(5);
    std::string t;
    for (int r = 0; r < 4; ++r) {
      int size = r == odd_rank ? 4096 : 8192;
      t += fmt::format("{} init\n", r);
      for (int i = 0; i < 100; ++i)
        t += fmt::format("{} compute {}\n{} isend {} {} {}\n{} irecv {} {} {}\n{} waitall\n", r, 1000000 + rng() % 1000000,
                         r, (r + 1) % 4, i % 3, size, r, (r + 3) % 4, i % 3, size, r);
      t += fmt::format("{} finalize\n", r);
    }
    return t;
  };
  for (int odd_rank : {-1, 2}) {
    fs::path plain = write_file(scratch_dir() / fmt::format("literal{}.txt", odd_rank), ring(odd_rank));
    fs::path b = scratch_dir() / fmt::format("literal{}.tit", odd_rank);
    compress(*TraceSet::open(plain, std::nullopt), b, parse_value_mode("binned:0.01"));
    EXPECT_EQ(compressed_info(b).version, cformat::kBaseVersion);
    cformat::Loaded loaded = cformat::load_compressed(b.string());
    int sends = 0;
    for (const cformat::Signature& s : loaded.meta.signatures) {
      if (s.name == "compute") { // its volumes vary
        ASSERT_EQ(s.slots.size(), 1u);
        EXPECT_EQ(s.slots[0].kind, cformat::Slot::Kind::Value);
      }
      if (s.name != "isend" && s.name != "irecv")
        continue;
      ++sends;
      ASSERT_EQ(s.slots.size(), 3u) << s.name;
      EXPECT_EQ(s.slots[0].kind, cformat::Slot::Kind::Relative) << s.name;
      EXPECT_EQ(s.slots[1].kind, cformat::Slot::Kind::Value) << s.name; // the tags vary
      if (odd_rank < 0) { // the size: one token in every block, the representative of 8192
        ASSERT_EQ(s.slots[2].kind, cformat::Slot::Kind::Literal) << s.name;
        EXPECT_NEAR(std::stod(s.slots[2].literal), 8192, 0.01 * 8192) << s.name;
      } else { // rank 2's block holds 4096
        EXPECT_EQ(s.slots[2].kind, cformat::Slot::Kind::Value) << s.name;
      }
    }
    EXPECT_EQ(sends, 2);
    // and every action reads as binned:R gives it
    auto p = TraceSet::open(plain, std::nullopt);
    auto c = TraceSet::open(b, std::nullopt);
    for (int r = 0; r < 4; ++r) {
      auto pr = p->reader(r), cr = c->reader(r);
      Action x, y;
      while (pr->next(x)) {
        ASSERT_TRUE(cr->next(y)) << "rank " << r;
        ASSERT_EQ(x.kind, y.kind) << "rank " << r << ": " << y.text;
        EXPECT_EQ(x.partner, y.partner) << y.text;
        EXPECT_EQ(x.tag, y.tag) << y.text;
        EXPECT_NEAR(y.bytes, x.bytes, 0.01 * x.bytes) << y.text;
        EXPECT_NEAR(y.amount, x.amount, 0.01 * x.amount) << y.text;
      }
      EXPECT_FALSE(cr->next(y)) << "rank " << r;
    }
  }
}

} // namespace
} // namespace tit::trace

// Compressed traces read back (docs/compressed-format.md): round trips action by action, loop folding and
// relative partners, whole files loaded, trace lists, errors naming the rank and the action.
#include "compressed_test_support.hpp"

namespace tit::trace {
namespace {

using namespace compressed_test;

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

} // namespace
} // namespace tit::trace

// Folding compressed traces (libs/compressed/fold): ranks folded online as the tracer does, parts merged along a
// tree, records, value runs and blocks renumbered or read in place.
#include "compressed_test_support.hpp"

namespace tit::trace {
namespace {

using namespace compressed_test;

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

} // namespace
} // namespace tit::trace

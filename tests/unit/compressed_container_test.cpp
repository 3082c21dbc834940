// The container of compressed traces (libs/compressed/container): versions, the structure record, packing, and
// truncated, corrupt or forged files.
#include "compressed_test_support.hpp"

namespace tit::trace {
namespace {

using namespace compressed_test;

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

TEST(CompressedTrace, BadSchedulesAreErrors)
{
  // a structure of one loop over [compute, waitall] and its schedules, forged one fault at a time
  cformat::Meta meta;
  meta.rank_count = 1;
  meta.value_mode = "stats";
  meta.pooled = true;
  meta.gaps = true;
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
  EXPECT_NE(error({bad}).find("expected a schedule's draw (a non-negative number), found '-3.5'"), std::string::npos);
  bad.rank_order = false; // sizes are not scaled: any token
  EXPECT_EQ(error({bad}), "<no error>");
  EXPECT_NE(error({good}, "-2").find("expected a rank's level (a non-negative number), found '-2'"),
            std::string::npos);
  EXPECT_NE(error({good}, "x").find("expected a rank's level (a non-negative number), found 'x'"), std::string::npos);
  // value mode byte 4 (one compute per gap, the only pooled form): a draw of 0 (no compute there) and a level of 0 (a
  // rank that never computes at those sites) are read
  bad = good;
  bad.draws[5] = cformat::ValueRun{true, 0, 0, "", 1};
  EXPECT_EQ(error({bad}, "0"), "<no error>");
  EXPECT_EQ(cformat::decode_meta(cformat::encode_meta(meta), "f.tit").gaps, true);
  // value mode byte 3 (pooled without gaps, of earlier versions) is refused
  std::string mode3 = cformat::encode_meta(meta);
  ASSERT_EQ(mode3[1], 4);
  mode3[1] = 3;
  EXPECT_NE(trace_error([&] { cformat::decode_meta(mode3, "f.tit"); })
                .find("expected a value mode (0 exact, 1 binned, 2 stats, 4 pooled stats with compute gaps), found 3"),
            std::string::npos);
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
  EXPECT_NE(error({bad_phases}).find("expected a schedule's phase (a non-negative number), found '-1'"), std::string::npos)
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
  head.head = {cformat::ValueRun{true, -1, 0, "", 1}};
  EXPECT_NE(error({head}).find("expected a schedule's head value (a non-negative number), found '-1'"),
            std::string::npos)
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
  EXPECT_NE(error({bad_rare}).find("expected a schedule's rare value (a non-negative number), found '-2'"),
            std::string::npos);
  bad_rare.rare.assign(17, rare.rare[0]);
  EXPECT_NE(error({bad_rare}).find("expected a schedule's count of rare values (1 to 16), found 17"),
            std::string::npos);
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
  m.gaps = true;
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

} // namespace
} // namespace tit::trace

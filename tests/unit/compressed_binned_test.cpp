// The `binned:R` values of compressed traces (libs/compressed/values): bins, bin runs, literals.
#include "compressed_test_support.hpp"

namespace tit::trace {
namespace {

using namespace compressed_test;

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

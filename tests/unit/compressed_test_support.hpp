// Helpers of the compressed trace tests (compressed_*_test.cpp): traces made for them, a trace set's actions read
// back, files written and forged. Header-only: each test file of the codec includes it.
#pragma once

#include "compressed/compressed.hpp"
#include "compressed/container/container.hpp"
#include "compressed/values/values.hpp"
#include "trace/reader.hpp"
#include "trace_test_support.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
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

namespace tit::trace::compressed_test {

namespace fs = std::filesystem;
using namespace test_support;

inline const fs::path kData = fs::path(TIT_TEST_DATA_DIR);

/// Every field an action carries once parsed (all but its file and line).
inline std::string fields(const Action& a)
{
  return fmt::format("{} d{} r{} {} [{}] p{} p{} t{} b{} b{} s{} d{} w{} a{} root{} dt{} sc[{}] rc[{}] blk{} c{} n{} "
                     "ca{} col{} key{} g[{}] ns{}",
                     kind_name(a.kind), static_cast<int>(a.dialect), a.rank, a.name, fmt::join(a.args, " "),
                     a.partner, a.partner2, a.tag, a.bytes, a.bytes2, a.src, a.dst, a.wait_last_irecv, a.amount,
                     a.root, a.datatype_size, fmt::join(a.send_counts, " "), fmt::join(a.recv_counts, " "),
                     kind_name(a.blocking), a.comm, a.new_comm, a.comm_args, a.color, a.key, fmt::join(a.group, " "), a.new_size);
}

/// The bytes of file `p`.
inline std::string file_bytes(const fs::path& p)
{
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

/// Every rank's actions (as fields()), rank by rank.
inline std::vector<std::vector<std::string>> read_all(const fs::path& traces, std::set<Kind>* kinds = nullptr)
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
inline CompressStats expect_round_trip(const fs::path& traces, std::set<Kind>* kinds = nullptr)
{
  fs::path out = scratch_dir() / "out.tit";
  std::unique_ptr<TraceSet> plain = TraceSet::open(traces, std::nullopt);
  CompressStats stats = compress(*plain, out, ValueMode{});
  EXPECT_TRUE(is_compressed_trace(out));
  EXPECT_EQ(read_all(out), read_all(traces, kinds)) << traces;
  EXPECT_EQ(TraceSet::open(out, std::nullopt)->compute_unit(), TraceSet::open(traces, std::nullopt)->compute_unit());
  return stats;
}

inline std::uint64_t action_line_bytes(const fs::path& traces)
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
inline std::vector<fs::path> repository_trace_sets()
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

/// A 1-D stencil of `ranks` ranks without periodic boundary: `outer` x (`middle` x (`inner` x exchange) + compute).
inline std::string stencil(int ranks, int outer, int middle, int inner)
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

inline std::string read_error(const std::string& bytes);

/// `ranks` ranks in a ring exchanging messages of jittered sizes after jittered computations (rank r computing r + 1
/// times as much as rank 0, with the same relative jitter), `iterations` times.
inline std::string noisy_trace(int iterations, int ranks = 2)
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

/// `file` (a compressed trace) with its header saying `version` (a varint of one byte, as every version's).
inline std::string with_version(std::string file, unsigned version)
{
  file[8] = static_cast<char>(version);
  return file;
}

inline std::string binned_trace(bool sizes_binned = false);
inline std::string folded_as_read(const fs::path& traces, const ValueMode& mode, const fs::path& out);

/// `ranks` ranks of a ring, `iterations` times: a compute of random volume before the isend in 40 % of the iterations
/// (as SMPI traces a computation only above its threshold), a small one after the recv in 10 %, never one between the
/// isend and the recv.
inline std::string sporadic_trace(int iterations, int ranks)
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

/// `ranks` ranks in pairs (r, r xor 1), `iterations` times: a compute of jittered volume (rank r computes about
/// r + 1 times as much as rank 0), an isend to the partner and a recv from it of jittered sizes (even ranks send about
/// 40,000, odd ones about 90,000). Even ranks' partner is +1, odd ranks' -1: two rank structures of one shape.
inline std::string pairs_trace(int iterations, int ranks)
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

/// A number in [0, 1] that looks random, from `x` (the stats tests' noise: the same on every run and platform).
inline double noise01(std::uint64_t x)
{
  x = (x ^ (x >> 31)) * 0x7fb5d329728ea185ULL;
  return static_cast<double>((x ^ (x >> 27)) % 10007) / 10006.0;
}

/// Rank r's own noise at iteration `it` (noise01 of both).
inline double rank_noise(int it, int r)
{
  return noise01(static_cast<std::uint64_t>(it) * 104729 + static_cast<std::uint64_t>(r) * 31 + 5);
}

/// The ranks of the trace `plain` folded with exact values and their stats pooled, as `tit-trace compress --values
/// stats` pools them before writing.
inline cformat::Part pooled_stats(const fs::path& plain)
{
  std::uint64_t actions = 0;
  cformat::Part part = cformat::fold_parts(*TraceSet::open(plain, std::nullopt), parse_value_mode("stats"), actions);
  cformat::pool_stats(part);
  return part;
}

/// The first schedule of `part` whose values are drawn in each rank's order (the compute volumes), or nullptr.
inline const cformat::Schedule* compute_schedule(const cformat::Part& part)
{
  auto it = std::find_if(part.schedules.begin(), part.schedules.end(), [](const auto& s) { return s.rank_order; });
  return it == part.schedules.end() ? nullptr : &*it;
}

/// Each rank's compute volumes, in order, as the trace set `path` gives them.
inline std::vector<std::vector<double>> compute_volumes(const fs::path& path)
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

// ---- bad files ----------------------------------------------------------------------------------------------

inline std::string ring_file()
{
  fs::path out = scratch_dir() / "ring.tit";
  std::unique_ptr<TraceSet> plain = TraceSet::open(kData / ".." / ".." / "traces" / "ring4", std::nullopt);
  compress(*plain, out, ValueMode{});
  std::ifstream f(out, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

inline std::string read_error(const std::string& bytes)
{
  fs::path p = write_file(scratch_dir() / "bad.tit", bytes);
  return trace_error([&] { read_all(p); });
}

/// Every cut of `whole` after its magic (the first 9 bytes) is an error naming the file.
inline void expect_every_truncation_is_an_error(const std::string& whole)
{
  for (std::size_t n = 9; n < whole.size(); ++n) {
    std::string error = read_error(whole.substr(0, n));
    EXPECT_NE(error, "<no error>") << "truncated to " << n << " bytes";
    EXPECT_NE(error.find("bad.tit"), std::string::npos) << error;
  }
}

/// Every byte of `whole` after the magic, changed, makes an error naming the file.
inline void expect_every_corrupt_byte_is_an_error(const std::string& whole)
{
  for (std::size_t i = 8; i < whole.size(); ++i) {
    std::string bad = whole;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    std::string error = read_error(bad);
    EXPECT_NE(error, "<no error>") << "byte " << i;
    EXPECT_NE(error.find("bad.tit"), std::string::npos) << error;
  }
}

inline std::string stats_file()
{
  fs::path out = scratch_dir() / "stats.tit";
  compress(*TraceSet::open(write_file(scratch_dir() / "n.txt", noisy_trace(40, 4)), std::nullopt), out,
           parse_value_mode("stats"));
  std::ifstream f(out, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

/// A binned trace of 2 ranks: measured-looking compute times (5 significant digits, as SMPI writes them), integer
/// compute volumes (some too small for their bin), message sizes. tests/data/compressed/binned-v3.expanded.txt is
/// what the version 3 writer made of it with binned:0.01, as it read back (the same text, written by a Python loop of
/// the same arithmetic).
/// `sizes_binned`: each message size replaced by its bin (bin_token at 1 %), as the writers binned them before they
/// kept sizes exact.
inline std::string binned_trace(bool sizes_binned)
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
inline std::string folded_as_read(const fs::path& traces, const ValueMode& mode, const fs::path& out)
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
inline std::string binned_file()
{
  return folded_as_read(write_file(scratch_dir() / "binned.txt", binned_trace()), parse_value_mode("binned:0.01"),
                        scratch_dir() / "binned.tit");
}

// ---- the tracer's path (compressed/compressed.hpp): lines folded online, parts merged along a tree ---------------

/// Each rank of `traces` folded from its action lines (RankCompressor::add_line, as the tracer feeds it; `stats`: with
/// exact values, then fold_gaps, as the tracer does at MPI_Finalize; `binned:R`: consecutive computes summed into one
/// line first, as the tracer sums them), the parts merged along a binomial tree through their byte form (as the ranks
/// send them), written by write_compressed.
inline fs::path compress_online(const fs::path& traces, const ValueMode& mode, const fs::path& out)
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

/// Rank `rank` of `set` (of `ranks` ranks) folded from its action lines, as the tracer feeds them (exact values).
inline cformat::Part fold_lines(TraceSet& set, int rank, int ranks)
{
  cformat::RankCompressor out(rank, ranks, ValueMode{});
  std::unique_ptr<RankReader> reader = set.reader(rank);
  Action a;
  while (reader->next(a))
    out.add_line(a.text);
  return out.finish();
}

/// A rank's lines folded as the tracer's compressed path folds them (RankCompressor::add_record, add_compute, and
/// add_line with the record on a miss) and, beside it, from the lines alone; returns whether the two parts are equal.
/// A record is the line's bytes in words, plus an alias word (`aliases` of them in turn: one line, several records,
/// as the tracer's name addresses may be). `folded` counts the actions folded without their line.
inline bool records_fold_as_lines(int rank, int ranks, const std::vector<std::string>& lines, const ValueMode& mode,
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

/// Every value of every stream of `bytes`, read in place (InPlaceCursor), and expanded from decode_streams: equal.
inline void expect_read_in_place_as_decoded(const std::string& bytes, const cformat::Meta& meta, std::size_t at_least)
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

} // namespace tit::trace::compressed_test

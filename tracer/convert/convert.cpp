#include "convert.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;

namespace tit::convert {

namespace {

[[noreturn]] void fail(const Line& l, const std::string& what)
{
  throw ConvertError(l.file + ":" + std::to_string(l.number) + ": error: " + what + "\n  " + l.text);
}

std::vector<std::string> split(const std::string& s)
{
  std::vector<std::string> w;
  std::istringstream in(s);
  for (std::string t; in >> t;)
    w.push_back(t);
  return w;
}

bool to_int(const std::string& s, long long& v)
{
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

double number(const Line& l, std::size_t i, const char* what)
{
  if (i >= l.words.size())
    fail(l, std::string("'") + l.words[1] + "' needs " + what);
  const std::string& s = l.words[i];
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size())
    fail(l, std::string("'") + l.words[1] + "' " + what + " '" + s + "' is not a number");
  return v;
}

std::string fmt(double v)
{
  if (v == static_cast<double>(static_cast<long long>(v)) && v > -1e15 && v < 1e15)
    return std::to_string(static_cast<long long>(v)); // sizes: integers as integers, not 2e+05
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string join(const std::vector<std::string>& w, std::size_t from = 0)
{
  std::string s;
  for (std::size_t i = from; i < w.size(); ++i) {
    if (i > from)
      s += ' ';
    s += w[i];
  }
  return s;
}

// Sizes of the datatype ids of the SimGrid dialect (as tit-replay and SimGrid 3.32 read them).
constexpr std::array<int, 60> kSizes = {8, 4, 1, 2, 8,  4,  1,  8, 1, 1, 2, 4, 8, 8, 16, 4, 1, 1, 2,  4,
                                        8, 1, 2, 4, 8,  8,  16, 32, 8, 8, 8, 16, 16, 8, 8, 8, 16, 16, 4, 4,
                                        8, 16, 8, 16, 16, 4, 2, 4, 8, 16, 32, 1, 8, 16, 32, 0, 0, 1, 8, 8};

int dt_size(const Line& l, std::size_t i, int def)
{
  if (i >= l.words.size())
    return def;
  long long id = 0;
  if (!to_int(l.words[i], id) || id < -1 || id >= static_cast<long long>(kSizes.size()))
    fail(l, "'" + l.words[i] + "' is not a datatype id (-1, 0..59)");
  if (id == -1)
    fail(l, "datatype -1 (a derived type SimGrid could not size) cannot be converted to bytes");
  return kSizes[static_cast<std::size_t>(id)];
}

struct Pending {
  std::string src, dst, tag;
  bool recv;
};

} // namespace

// ---------------------------------------------------------------------------------------------
// Reading

std::vector<RankLines> read_traces(const fs::path& input)
{
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(input, ec)) {
    for (auto const& e : fs::directory_iterator(input))
      if (e.is_regular_file() && e.path().extension() == ".txt")
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty())
      throw ConvertError(input.string() + ": error: no .txt trace file in this directory");
  } else {
    std::ifstream in(input);
    if (!in)
      throw ConvertError(input.string() + ": error: cannot read this file");
    // A trace list names existing files on every non-blank line; anything else is a trace file.
    std::vector<fs::path> listed;
    bool is_list = true;
    for (std::string s; std::getline(in, s);) {
      auto w = split(s);
      if (w.empty())
        continue;
      fs::path p = w[0];
      if (p.is_relative() && !fs::exists(p))
        p = input.parent_path() / p;
      if (w.size() != 1 || !fs::is_regular_file(p)) {
        is_list = false;
        break;
      }
      listed.push_back(p);
    }
    files = is_list && !listed.empty() ? listed : std::vector<fs::path>{input};
  }
  std::map<int, RankLines> ranks;
  for (auto const& f : files) {
    std::ifstream in(f);
    if (!in)
      throw ConvertError(f.string() + ": error: cannot read this file");
    int n = 0;
    std::vector<std::string> header; // this file's, before its first action
    for (std::string s; std::getline(in, s);) {
      ++n;
      Line l{f.string(), n, s, split(s)};
      if (l.words.empty() || l.words[0][0] == '#') {
        // The header lines saying what compute volumes count travel with the rank's lines.
        if (s.starts_with("# compute: ") || s.starts_with("# rate: "))
          header.push_back(s);
        continue;
      }
      long long r = 0;
      if (!to_int(l.words[0], r) || r < 0 || l.words.size() < 2)
        fail(l, "expected '<rank> <action> [arguments]'");
      RankLines& rl = ranks[static_cast<int>(r)];
      rl.rank = static_cast<int>(r);
      if (rl.lines.empty())
        rl.header = header;
      rl.lines.push_back(std::move(l));
    }
  }
  std::vector<RankLines> out;
  int expect = 0;
  for (auto& [r, rl] : ranks) {
    if (r != expect)
      throw ConvertError(input.string() + ": error: no line of rank " + std::to_string(expect) +
                         " (ranks must be 0..n-1)");
    ++expect;
    out.push_back(std::move(rl));
  }
  if (out.empty())
    throw ConvertError(input.string() + ": error: no action line");
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dialect 1 / pre-3.20 -> SimGrid 3.20+

std::vector<std::string> to_simgrid(const RankLines& in, Source source)
{
  static const std::map<std::string, std::string> kRenamed = {
      {"allreduce", "allreduce"},   {"alltoall", "alltoall"}, {"reducescatter", "reducescatter"},
      {"allgather", "allgather"},   {"gatherv", "gatherv"},   {"scatterv", "scatterv"},
      {"bcast", "bcast"},           {"reduce", "reduce"},     {"gather", "gather"},
      {"scatter", "scatter"},       {"barrier", "barrier"},   {"compute", "compute"},
      {"sleep", "sleep"},           {"finalize", "finalize"}, {"comm_size", "comm_size"}};
  std::vector<std::string> out = in.header; // what the volumes count
  std::vector<Pending> pending;
  const std::string me = std::to_string(in.rank);
  for (const Line& l : in.lines) {
    std::string a = l.words[1];
    std::string lower = a;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    const auto& w = l.words;
    std::string head = me + " ";
    if (lower == "init") {
      // pre-3.20 keeps init's arguments (they choose the default datatype, as in 3.20+); the thesis
      // dialect's sizes are bytes, i.e. the default byte type of an argument-less init.
      out.push_back(head + (source == Source::Pre320 ? join(w, 1) : "init"));
    } else if (lower == "send" || lower == "recv" || lower == "isend" || lower == "irecv") {
      if (w.size() < 3)
        fail(l, "'" + a + "' needs a partner rank");
      std::string count = w.size() > 3 ? join(w, 3) : "-1"; // a receive of unknown size
      if (lower == "send" || lower == "isend")
        if (w.size() < 4)
          fail(l, "'" + a + "' needs a size");
      out.push_back(head + lower + " " + w[2] + " 0 " + count);
      if (lower == "isend")
        pending.push_back({me, w[2], "0", false});
      if (lower == "irecv")
        pending.push_back({w[2], me, "0", true});
    } else if (lower == "wait" || lower == "test") {
      auto it = pending.end();
      if (source == Source::Thesis && lower == "wait") {
        auto r = std::find_if(pending.rbegin(), pending.rend(), [](const Pending& p) { return p.recv; });
        if (r != pending.rend())
          it = std::next(r).base();
      } else if (!pending.empty()) {
        it = pending.end() - 1;
      }
      if (it == pending.end())
        fail(l, source == Source::Thesis ? "'wait' with no pending Irecv to complete"
                                         : "'" + a + "' with no pending Isend or Irecv to complete");
      out.push_back(head + lower + " " + it->src + " " + it->dst + " " + it->tag);
      if (lower == "wait")
        pending.erase(it);
    } else if (lower == "waitall") {
      out.push_back(head + "waitall");
      pending.clear();
    } else if (lower == "alltoallv") {
      // sendbufsize sendcounts[n] senddispls[n] recvbufsize recvcounts[n] recvdispls[n] [flag]
      std::size_t nargs = w.size() - 2;
      bool flag = (nargs - 3) % 4 == 0 && nargs >= 7;
      if (!flag && ((nargs - 2) % 4 != 0 || nargs < 6))
        fail(l, "'allToAllV' needs <send_buf_size> <send_counts x n> <send_displs x n> <recv_buf_size> "
                "<recv_counts x n> <recv_displs x n> [<datatype>]");
      std::size_t n = (nargs - (flag ? 3 : 2)) / 4;
      std::vector<std::string> o = {me, "alltoallv", w[2]};
      for (std::size_t i = 0; i < n; ++i)
        o.push_back(w[3 + i]);
      o.push_back(w[3 + 2 * n]);
      for (std::size_t i = 0; i < n; ++i)
        o.push_back(w[4 + 2 * n + i]);
      if (flag) {
        o.push_back(w.back());
        o.push_back(w.back());
      }
      out.push_back(join(o));
    } else if (lower == "allgatherv") {
      std::size_t nargs = w.size() - 2;
      if (nargs < 3 || (nargs - 1) % 2 != 0)
        fail(l, "'allGatherV' needs <send_count> <recv_counts x n> <recv_displs x n>");
      std::size_t n = (nargs - 1) / 2;
      std::vector<std::string> o = {me, "allgatherv", w[2]};
      for (std::size_t i = 0; i < n; ++i)
        o.push_back(w[3 + i]);
      out.push_back(join(o));
    } else if (auto it = kRenamed.find(lower); it != kRenamed.end()) {
      out.push_back(head + it->second + (w.size() > 2 ? " " + join(w, 2) : ""));
    } else {
      fail(l, "unknown action '" + a + "' (known: init finalize compute sleep send recv Isend Irecv wait test waitAll "
              "barrier bcast reduce allReduce allToAll allToAllV gather gatherV scatter scatterV allGather "
              "allGatherV reduceScatter comm_size)");
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// SimGrid 3.20+ -> dialect 1

std::vector<std::string> to_thesis(const RankLines& in, int ranks)
{
  std::vector<std::string> out = in.header; // what the volumes count (sizes become bytes, volumes stay)
  std::vector<Pending> pending;
  int def = 1; // default datatype: byte, double when init has an argument
  const std::string me = std::to_string(in.rank);
  auto n_of = [&](const Line& l, std::size_t fixed) {
    if (l.words.size() < 2 + fixed + static_cast<std::size_t>(ranks))
      fail(l, "'" + l.words[1] + "' needs " + std::to_string(ranks) + " counts (one per rank)");
    return static_cast<std::size_t>(ranks);
  };
  for (const Line& l : in.lines) {
    const auto& w = l.words;
    const std::string& a = w[1];
    std::string head = me + " ";
    if (a == "init") {
      def = w.size() > 2 ? 8 : 1;
      out.push_back(head + "init");
    } else if (a == "finalize" || a == "barrier" || a == "compute" || a == "sleep" || a == "comm_size") {
      out.push_back(l.words[0] == me ? join(w) : head + join(w, 1));
    } else if (a == "send" || a == "recv" || a == "isend" || a == "irecv") {
      if (w.size() < 5)
        fail(l, "'" + a + "' needs <partner> <tag> <count> [dt]");
      if (w[2] == "-333")
        fail(l, "a receive from any source (-333) has no equivalent in dialect 1");
      double count = number(l, 4, "count");
      std::string name = a == "isend" ? "Isend" : a == "irecv" ? "Irecv" : a;
      if (count < 0) {
        if (a != "recv")
          fail(l, "a negative (unknown) size is only possible for 'recv' in dialect 1");
        out.push_back(head + "recv " + w[2]);
      } else {
        out.push_back(head + name + " " + w[2] + " " + fmt(count * dt_size(l, 5, def)));
      }
      if (a == "isend")
        pending.push_back({me, w[2], w[3], false});
      if (a == "irecv")
        pending.push_back({w[2], me, w[3], true});
    } else if (a == "wait") {
      if (w.size() != 5)
        fail(l, "'wait' needs <src> <dst> <tag>");
      auto it = std::find_if(pending.begin(), pending.end(), [&](const Pending& p) {
        return p.src == w[2] && p.dst == w[3] && p.tag == w[4];
      });
      if (it == pending.end())
        fail(l, "'wait' names no pending request of this rank");
      if (it->recv) {
        auto last = std::find_if(pending.rbegin(), pending.rend(), [](const Pending& p) { return p.recv; });
        if (&*last != &*it)
          fail(l, "this wait completes an Irecv that is not the most recent pending one; dialect 1's 'wait' "
                  "always completes the most recent, so the trace cannot be said in dialect 1");
        out.push_back(head + "wait");
      } // a wait on an Isend has no dialect 1 form: the Isend completes at the next waitAll or the end
      pending.erase(it);
    } else if (a == "waitall") {
      out.push_back(head + "waitAll");
      pending.clear();
    } else if (a == "bcast") {
      double c = number(l, 2, "<count>");
      out.push_back(head + "bcast " + fmt(c * dt_size(l, 4, def)) + " " + (w.size() > 3 ? w[3] : "0"));
    } else if (a == "reduce") {
      double c = number(l, 2, "<count>");
      out.push_back(head + "reduce " + fmt(c * dt_size(l, 5, def)) + " " + fmt(number(l, 3, "<comp>")) + " " +
                    (w.size() > 4 ? w[4] : "0"));
    } else if (a == "allreduce") {
      double c = number(l, 2, "<count>");
      out.push_back(head + "allReduce " + fmt(c * dt_size(l, 4, def)) + " " + fmt(number(l, 3, "<comp>")));
    } else if (a == "alltoall") {
      out.push_back(head + "allToAll " + fmt(number(l, 2, "<sendcount>") * dt_size(l, 4, def)) + " " +
                    fmt(number(l, 3, "<recvcount>") * dt_size(l, 5, def)));
    } else if (a == "gather") {
      out.push_back(head + "gather " + fmt(number(l, 2, "<sendcount>") * dt_size(l, 5, def)) + " " +
                    fmt(number(l, 3, "<recvcount>") * dt_size(l, 6, def)) + " " + (w.size() > 4 ? w[4] : "0"));
    } else if (a == "allgatherv") {
      std::size_t n = n_of(l, 1);
      int sd = dt_size(l, 3 + n, def), rd = dt_size(l, 4 + n, def);
      std::string o = head + "allGatherV " + fmt(number(l, 2, "<sendcount>") * sd);
      std::string displs;
      double at = 0;
      for (std::size_t i = 0; i < n; ++i) {
        double b = number(l, 3 + i, "<recvcount>") * rd;
        o += " " + fmt(b);
        displs += " " + fmt(at);
        at += b;
      }
      out.push_back(o + displs);
    } else if (a == "alltoallv") {
      std::size_t n = n_of(l, 2 + static_cast<std::size_t>(ranks));
      int sd = dt_size(l, 4 + 2 * n, def), rd = dt_size(l, 5 + 2 * n, def);
      auto part = [&](std::size_t first, int size) {
        std::string counts, displs;
        double at = 0;
        for (std::size_t i = 0; i < n; ++i) {
          double b = number(l, first + i, "<count>") * size;
          counts += " " + fmt(b);
          displs += " " + fmt(at);
          at += b;
        }
        return counts + displs;
      };
      out.push_back(head + "allToAllV " + fmt(number(l, 2, "<sendbufsize>") * sd) + part(3, sd) + " " +
                    fmt(number(l, 3 + n, "<recvbufsize>") * rd) + part(4 + n, rd));
    } else if (a == "reducescatter") {
      std::size_t n = n_of(l, 1);
      int d = dt_size(l, 3 + n, def);
      std::string o = head + "reduceScatter";
      for (std::size_t i = 0; i < n; ++i)
        o += " " + fmt(number(l, 2 + i, "<recvcount>") * d);
      out.push_back(o + " " + fmt(number(l, 2 + n, "<comp>")));
    } else {
      fail(l, "'" + a + "' has no equivalent in dialect 1 (it has: init finalize compute sleep send recv isend "
              "irecv wait waitall barrier bcast reduce allreduce alltoall alltoallv gather allgatherv "
              "reducescatter comm_size)");
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Perfect computation

std::vector<std::string> with_durations(const fs::path& trace_file, const fs::path& timings_csv)
{
  std::ifstream t(timings_csv);
  if (!t)
    throw ConvertError(timings_csv.string() + ": error: cannot read the timings file (TIT_TRACE_TIMINGS=1 writes it)");
  std::map<long long, double> seconds; // trace line -> compute duration
  std::string s;
  int n = 0;
  while (std::getline(t, s)) {
    ++n;
    if (n == 1) {
      if (s != "line,action,start_s,end_s")
        throw ConvertError(timings_csv.string() + ":1: error: expected the header 'line,action,start_s,end_s'\n  " + s);
      continue;
    }
    std::vector<std::string> f;
    std::stringstream ss(s);
    for (std::string x; std::getline(ss, x, ',');)
      f.push_back(x);
    Line l{timings_csv.string(), n, s, {"?", "timings"}};
    long long line = 0;
    double start = 0, end = 0;
    if (f.size() != 4 || !to_int(f[0], line) || std::from_chars(f[2].data(), f[2].data() + f[2].size(), start).ec != std::errc() ||
        std::from_chars(f[3].data(), f[3].data() + f[3].size(), end).ec != std::errc() || end < start)
      fail(l, "expected '<line>,<action>,<start_s>,<end_s>' with start <= end");
    if (f[1] == "compute")
      seconds[line] = end - start;
  }
  std::ifstream in(trace_file);
  if (!in)
    throw ConvertError(trace_file.string() + ": error: cannot read this file");
  std::vector<std::string> out = {"# tit-convert --durations: each compute replaced by its measured duration"};
  n = 0;
  while (std::getline(in, s)) {
    ++n;
    Line l{trace_file.string(), n, s, split(s)};
    if (l.words.size() >= 2 && l.words[0][0] != '#' && l.words[1] == "compute") {
      auto it = seconds.find(n);
      if (it == seconds.end())
        fail(l, "no compute row for this line in " + timings_csv.string() + " (timings of another run?)");
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9g", it->second);
      out.push_back(l.words[0] + " sleep " + buf);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

void write_traces(const fs::path& outdir, const std::vector<std::pair<int, std::vector<std::string>>>& ranks)
{
  std::error_code ec;
  fs::create_directories(outdir, ec);
  if (ec)
    throw ConvertError(outdir.string() + ": error: cannot create the output directory: " + ec.message());
  std::ofstream list(outdir / "trace.list");
  for (auto const& [r, lines] : ranks) {
    std::string name = "rank-" + std::to_string(r) + ".txt";
    std::ofstream f(outdir / name);
    for (auto const& l : lines)
      f << l << '\n';
    f.close();
    if (!f)
      throw ConvertError((outdir / name).string() + ": error: writing failed");
    list << name << '\n';
  }
  list.close();
  if (!list)
    throw ConvertError((outdir / "trace.list").string() + ": error: writing failed");
}

} // namespace tit::convert

// `tit-trace proxy`: walks the compressed structure of a trace (docs/compressed-format.md) and writes it as C.
#include "proxy.hpp"
#include "proxy_check.hpp"

#include "compressed/compressed.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fmt/ostream.h>

#include <charconv>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace tit::tracetool {

namespace {

using trace::cformat::Loaded;
using trace::cformat::Signature;
using trace::cformat::Slot;

constexpr const char* kRuntime =
#include "proxy_runtime.inc"
    ;

/// The compressed form of `traces`: read as it is, or folded in memory (exact values).
Loaded load(const fs::path& traces)
{
  if (trace::is_compressed_trace(traces))
    return trace::cformat::load_compressed(traces.string());
  std::unique_ptr<trace::TraceSet> set = trace::TraceSet::open(traces, std::nullopt);
  return trace::cformat::fold(*set, trace::ValueMode{});
}

/// A value of a stream as a C double: an integer run's value, or a token run's number.
std::string c_number(const trace::cformat::ValueRun& r, const std::string& file, bool first)
{
  if (r.is_int)
    return fmt::format("{}", first ? r.first : r.step);
  if (!first)
    return "0";
  double v = 0;
  auto [end, ec] = std::from_chars(r.text.data(), r.text.data() + r.text.size(), v);
  if (ec != std::errc() || end != r.text.data() + r.text.size())
    throw trace::TraceError(fmt::format("{}: error: value '{}' is not a number", file, r.text));
  return fmt::format("{}", v);
}

/// Writes one signature as a C statement; throws TraceError naming it when the proxy cannot say it.
class StatementWriter {
public:
  StatementWriter(const Loaded& t, const std::string& file) : t_(t), file_(file)
  {
    first_cursor_.assign(t.meta.signatures.size() + 1, 0);
    for (std::size_t s = 0; s < t.meta.signatures.size(); ++s) {
      std::size_t values = 0;
      for (const Slot& slot : t.meta.signatures[s].slots)
        values += slot.kind == Slot::Kind::Value ? 1 : 0;
      first_cursor_[s + 1] = first_cursor_[s] + values;
    }
    find_constants();
  }
  /// The value of cursor k when it is the same number everywhere (every value of every block): then written
  /// into the statement, and its stream left out of the tables.
  const std::string* constant(std::size_t k) const
  {
    auto c = constants_.find(k);
    return c == constants_.end() ? nullptr : &c->second;
  }
  std::size_t cursor(std::uint32_t sig, std::uint32_t slot) const { return first_cursor_[sig] + slot; }
  std::size_t cursors() const { return first_cursor_.back(); }

  std::string statement(std::uint32_t sig) const
  {
    const Signature& s = t_.meta.signatures[sig];
    std::vector<std::string> a;
    std::optional<std::string> comm; // `comm=H`: the action runs on the trace's communicator H
    std::uint32_t value = 0;
    for (const Slot& slot : s.slots) {
      switch (slot.kind) {
        case Slot::Kind::Literal: {
          int h = 0;
          std::string_view lit = slot.literal;
          if (lit.substr(0, 5) == "comm=") {
            auto [end, ec] = std::from_chars(lit.data() + 5, lit.data() + lit.size(), h);
            if (ec != std::errc() || end != lit.data() + lit.size() || h < 0)
              fail(s, fmt::format("'{}': expected comm=HANDLE, a communicator handle of the rank", lit));
            comm = std::to_string(h);
            break;
          }
          double v = 0;
          auto [end, ec] = std::from_chars(lit.data(), lit.data() + lit.size(), v);
          if (ec != std::errc() || end != lit.data() + lit.size())
            fail(s, fmt::format("argument '{}' is not a number", lit));
          a.push_back(slot.literal);
          break;
        }
        case Slot::Kind::Relative:
          a.push_back(fmt::format("R({})", slot.offset));
          break;
        case Slot::Kind::Value: {
          std::size_t k = cursor(sig, value++);
          const std::string* c = constant(k);
          a.push_back(c ? *c : fmt::format("V({})", k));
          break;
        }
      }
    }
    std::string call = call_of(s, a, comm.has_value());
    if (!comm || *comm == "0")
      return call;
    return fmt::format("ON({}, {});", *comm, call.substr(0, call.size() - 1));
  }

private:
  /// The C call of an action with arguments `a` (comm: on another communicator than MPI_COMM_WORLD).
  std::string call_of(const Signature& s, const std::vector<std::string>& a, bool comm) const
  {
    auto arg = [&](std::size_t i, const char* absent) { return i < a.size() ? a[i] : std::string(absent); };
    auto need = [&](std::size_t lo, std::size_t hi) {
      if (a.size() < lo || a.size() > hi)
        fail(s, fmt::format("expected {} to {} arguments, found {}", lo, hi, a.size()));
    };
    const std::string& n = s.name;
    if (n == "comm_split" || n == "comm_dup") {
      if (a.empty()) // SimGrid's traces: no arguments, no effect (as in tit-replay)
        return fmt::format("/* {} without arguments: no effect */", n);
      if (n == "comm_dup")
        return need(2, 2), fmt::format("comm_dup_({}, {});", a[0], a[1]);
      return need(4, 5), fmt::format("comm_split_({}, {}, {}, {});", a[0], a[1], a[2], a[3]);
    }
    if (n == "comm_create") {
      need(3, 3 + static_cast<std::size_t>(t_.meta.rank_count));
      std::string members = "(const double[]){";
      for (std::size_t i = 3; i < a.size(); ++i)
        members += (i > 3 ? ", " : "") + a[i];
      return fmt::format("comm_create_({}, {}, {}, {}{}}});", a[0], a[1], a[2], members, a.size() == 3 ? "0" : "");
    }
    if (n == "comm_free")
      return need(1, 1), fmt::format("comm_free_({});", a[0]);
    if (n == "init" || n == "finalize" || n == "comm_size")
      return fmt::format("/* {}: in main */", n);
    if (n == "compute")
      return need(1, 1), fmt::format("compute({});", a[0]);
    if (n == "sleep")
      return need(1, 1), fmt::format("sleep_({});", a[0]);
    static const std::map<std::string, std::pair<const char*, int>> kSends = {
        {"send", {"send_", 0}},   {"Ssend", {"send_", 1}},   {"bsend", {"send_", 2}},
        {"isend", {"isend_", 0}}, {"ISsend", {"isend_", 1}}, {"ibsend", {"isend_", 2}}};
    if (auto k = kSends.find(n); k != kSends.end())
      return need(3, 4), fmt::format("{}({}, {}, {}, {}, {});", k->second.first, k->second.second, a[0], a[1], a[2],
                                     arg(3, "6"));
    if (n == "recv" || n == "irecv")
      return need(3, 4), fmt::format("{}_({}, {}, {}, {});", n, a[0], a[1], a[2], arg(3, "6"));
    if (n == "wait")
      return need(3, 3), fmt::format("wait_({}, {}, {});", a[0], a[1], a[2]);
    if (n == "waitall")
      return need(0, 1), "waitall_();";
    if (n == "test")
      return need(3, 3), fmt::format("test_({}, {}, {});", a[0], a[1], a[2]);
    if (n == "waitAny")
      return need(1, 1), fmt::format("waitany_({});", a[0]);
    if (n == "testall" || n == "testany" || n == "testsome")
      return fmt::format("{}_();", n);
    if (n == "sendRecv")
      return need(4, 6), fmt::format("sendrecv_({}, {}, {}, {}, {}, {});", a[0], a[1], a[2], a[3], arg(4, "6"),
                                     arg(5, "6"));
    return collective(s, a, comm);
  }

  /// A collective, blocking or not (`ibcast` is `bcast` with nb = 1): its C call, or fails.
  std::string collective(const Signature& s, const std::vector<std::string>& a, bool comm) const
  {
    static const std::set<std::string> kNonblocking = {
        "ibarrier", "ibcast", "ireduce", "iallreduce", "ialltoall", "ialltoallv", "igather", "iscatter",
        "iallgather", "igatherv", "iscatterv", "iallgatherv", "ireducescatter", "iscan", "iexscan"};
    int nb = kNonblocking.count(s.name) ? 1 : 0;
    std::string n = nb ? s.name.substr(1) : s.name;
    auto arg = [&](std::size_t i, const char* absent) { return i < a.size() ? a[i] : std::string(absent); };
    auto need = [&](std::size_t lo, std::size_t hi) {
      if (a.size() < lo || a.size() > hi)
        fail(s, fmt::format("expected {} to {} arguments, found {}", lo, hi, a.size()));
    };
    auto size_t_n = static_cast<std::size_t>(t_.meta.rank_count);
    std::size_t vector_size = size_t_n;
    auto vec = [&](std::size_t from) { // the count vector a[from .. from + vector_size)
      std::string v = "(const double[]){";
      for (std::size_t i = 0; i < vector_size; ++i)
        v += (i ? ", " : "") + a[from + i];
      return v + "}";
    };
    if (n == "barrier")
      return need(0, 0), fmt::format("barrier_({});", nb);
    if (n == "bcast")
      return need(1, 3), fmt::format("bcast_({}, {}, {}, {});", nb, a[0], arg(1, "0"), arg(2, "6"));
    if (n == "reduce")
      return need(2, 4), fmt::format("reduce_(0, {}, {}, {}, {});", nb, a[0], arg(2, "0"), arg(3, "6"));
    static const std::map<std::string, int> kAllReduce = {{"allreduce", 1}, {"scan", 2}, {"exscan", 3}};
    if (auto k = kAllReduce.find(n); k != kAllReduce.end())
      return need(2, 3), fmt::format("reduce_({}, {}, {}, 0, {});", k->second, nb, a[0], arg(2, "6"));
    static const std::map<std::string, int> kAllToAll = {{"alltoall", 0}, {"gather", 1}, {"scatter", 2},
                                                         {"allgather", 3}};
    if (auto k = kAllToAll.find(n); k != kAllToAll.end()) {
      bool rooted = n == "gather" || n == "scatter";
      need(2, rooted ? 5 : 4);
      std::size_t dt = rooted ? 3 : 2;
      return fmt::format("alltoall_({}, {}, {}, {}, {}, {}, {});", k->second, nb, a[0], a[1],
                         rooted ? arg(2, "0") : "0", arg(dt, "6"), arg(dt + 1, "6"));
    }
    // count vectors have the communicator's size: the trace's ranks on MPI_COMM_WORLD; on another communicator,
    // what the arguments leave (our tracer writes every optional root and datatype there)
    std::size_t r = size_t_n;
    if (comm) {
      std::size_t fixed = n == "gatherv" || n == "scatterv" ? 4 : n == "allgatherv" ? 3 : n == "reducescatter" ? 2 : 4;
      r = n == "alltoallv" ? (a.size() >= 4 ? (a.size() - 4) / 2 : 0) : (a.size() >= fixed ? a.size() - fixed : 0);
      if (r == 0 && (n == "gatherv" || n == "scatterv" || n == "allgatherv" || n == "reducescatter" || n == "alltoallv"))
        fail(s, "expected a count vector and every optional argument on a communicator other than MPI_COMM_WORLD");
    }
    vector_size = r;
    if (n == "gatherv" || n == "allgatherv") { // SENDCOUNT RECVCOUNTS×n [root [dt1 dt2]] / [dt1 dt2 [DISPLS×n]]
      bool g = n == "gatherv";
      need(1 + r, g ? 4 + r : 3 + 2 * r);
      std::size_t dt = g ? 2 + r : 1 + r;
      return fmt::format("gatherv_({}, {}, {}, NULL, 0, {}, {}, {}, {});", g ? 0 : 2, nb, a[0], vec(1),
                         g ? arg(1 + r, "0") : "0", arg(dt, "6"), arg(dt + 1, "6"));
    }
    if (n == "scatterv") // SENDCOUNTS×n RECVCOUNT [root [dt1 dt2]]
      return need(1 + r, 4 + r), fmt::format("gatherv_(1, {}, 0, {}, {}, NULL, {}, {}, {});", nb, vec(0), a[r],
                                             arg(r + 1, "0"), arg(r + 2, "6"), arg(r + 3, "6"));
    if (n == "alltoallv") // SENDSUM SENDCOUNTS×n RECVSUM RECVCOUNTS×n [dt1 dt2]
      return need(2 + 2 * r, 4 + 2 * r), fmt::format("alltoallv_({}, {}, {}, {}, {});", nb, vec(1), vec(2 + r),
                                                     arg(2 + 2 * r, "6"), arg(3 + 2 * r, "6"));
    if (n == "reducescatter") // RECVCOUNTS×n COMP [dt]
      return need(1 + r, 2 + r), fmt::format("reducescatter_({}, {}, {});", nb, vec(0), arg(r + 1, "6"));
    fail(s, "this action is not supported by the proxy generator yet (supported: compute, sleep, send, Ssend, bsend, "
            "isend, ISsend, ibsend, recv, irecv, wait, waitall, waitAny, test, testall, testany, testsome, sendRecv, "
            "every collective, blocking or not, comm_split, comm_dup, comm_create, comm_free)");
  }

  void find_constants()
  {
    std::map<std::size_t, std::optional<std::string>> seen; // nullopt: varies
    for (const auto& block : t_.blocks)
      for (const auto& st : block) {
        std::size_t k = cursor(st.signature, st.slot);
        for (const auto& r : st.runs) {
          std::string v = c_number(r, file_, true);
          bool steady = !r.is_int || r.step == 0 || r.count == 1;
          auto [it, fresh] = seen.emplace(k, v);
          if (!steady || (!fresh && it->second != v))
            it->second.reset();
        }
      }
    for (const auto& [k, v] : seen)
      if (v)
        constants_.emplace(k, *v);
  }

  [[noreturn]] void fail(const Signature& s, std::string_view what) const
  {
    throw trace::TraceError(fmt::format("{}: error: action '{}': {}", file_, s.name, what));
  }
  const Loaded& t_;
  const std::string& file_;
  std::vector<std::size_t> first_cursor_;
  std::map<std::size_t, std::string> constants_;
};

class ProgramWriter {
public:
  ProgramWriter(const Loaded& t, std::string file, std::string out_name, const ProxyOptions& o,
                const TraceFacts& facts)
      : t_(t), file_(std::move(file)), out_name_(std::move(out_name)), o_(o), facts_(facts), s_(t, file_)
  {
  }

  void write(std::ostream& out)
  {
    const auto& m = t_.meta;
    std::vector<std::string> statements;
    for (std::uint32_t sig = 0; sig < m.signatures.size(); ++sig)
      statements.push_back(s_.statement(sig));
    std::map<std::uint32_t, int> structure; // root body -> structure number
    for (const auto& r : m.ranks)
      structure.emplace(r.root, 0);
    int k = 0;
    for (auto& [root, number] : structure)
      number = k++;
    std::optional<double> rate = o_.rate ? o_.rate : trace::compute_unit_rate(m.compute_unit);
    std::uint64_t actions = 0;
    for (const auto& r : m.ranks)
      actions += count(r.root);

    fmt::print(out,
               "/* MPI proxy program generated by `tit-trace proxy` (tit-replay, docs/proxy.md) from the trace\n"
               " *   {}\n"
               " * {} ranks, {} actions, {} loop structures, compute volumes in '{}'.\n"
               " * Each action of the trace is the MPI call it records (same partners, tags, sizes, datatypes,\n"
               " * roots); each compute volume V runs {} of a multiply-add kernel (2 flops per iteration).\n"
               " * Build and run:\n"
               " *   mpicc -O2 -o proxy {}\n"
               " *   mpirun -np {} ./proxy\n"
               " * It prints the run time: MPI_Wtime from after MPI_Init to before MPI_Finalize, max over ranks. */\n",
               file_, m.rank_count, actions, structure.size(), m.compute_unit.empty() ? "flops" : m.compute_unit,
               rate ? fmt::format("V / {:g} seconds (kernel speed calibrated at start-up)", *rate)
                    : std::string("V / 2 iterations"),
               out_name_, m.rank_count);
    out << kRuntime;
    fmt::print(out, "\n/* ---- the trace ---------------------------------------------------------------------- */\n");
    fmt::print(out, "static const int tp_id_size[60] = {{{}}}; /* bytes of each datatype id */\n",
               fmt::join(trace::detail::kDatatypeSizes, ","));
    fmt::print(out, "/* MPI_Bsend's buffer: every byte the busiest rank sends buffered, as if none were delivered */\n"
                    "#define BSEND_BYTES ({:.0f} + {} * (double)MPI_BSEND_OVERHEAD)\n",
               facts_.bsend_bytes, facts_.bsend_count);
    fmt::print(out, "#define RANKS {}\n#define RATE {} /* volume units per second; 0: one flop per unit */\n",
               m.rank_count, rate ? fmt::format("{:g}", *rate) : "0");
    write_values(out);
    write_actions(out, statements);
    std::set<std::uint32_t> done;
    for (const auto& [root, number] : structure)
      write_body(out, root, done);
    write_tables(out, done);
    write_main(out, structure);
  }

private:
  std::uint64_t count(std::uint32_t body)
  {
    if (auto c = counts_.find(body); c != counts_.end())
      return c->second;
    std::uint64_t n = 0;
    for (std::uint32_t id : t_.meta.bodies[body]) {
      const auto& node = t_.meta.nodes[id];
      n += node.loop ? node.count * count(node.ref) : 1;
    }
    return counts_[body] = n;
  }

  /// Whether the first action of `body` that makes an MPI call or computes is a compute (init and comm_size make no
  /// call of their own in the proxy); nullopt when the body has neither.
  std::optional<bool> starts_computing(std::uint32_t body) const
  {
    for (std::uint32_t id : t_.meta.bodies[body]) {
      const auto& node = t_.meta.nodes[id];
      if (node.loop) {
        if (auto first = starts_computing(node.ref))
          return first;
        continue;
      }
      const std::string& name = t_.meta.signatures[node.ref].name;
      if (name != "init" && name != "comm_size")
        return name == "compute";
    }
    return std::nullopt;
  }
  bool first_is_compute(std::uint32_t body) const { return starts_computing(body).value_or(false); }

  void write_values(std::ostream& out)
  {
    fmt::print(out, "\n/* Value streams, one set per value block (ranks with the same numbers share one): each run is\n"
                    " * {{first, step, count}}, each repeat {{count, first run, runs}}. */\n");
    for (std::size_t b = 0; b < t_.blocks.size(); ++b) {
      std::vector<const trace::cformat::Stream*> streams;
      for (const auto& st : t_.blocks[b])
        if (!s_.constant(s_.cursor(st.signature, st.slot)))
          streams.push_back(&st);
      nstreams_.push_back(streams.size());
      for (std::size_t i = 0; i < streams.size(); ++i) {
        const auto& st = *streams[i];
        fmt::print(out, "static const tp_run b{}s{}_runs[] = {{", b, i);
        for (const auto& r : st.runs)
          fmt::print(out, "{{{}, {}, {}}},", c_number(r, file_, true), c_number(r, file_, false), r.count);
        fmt::print(out, "}};\nstatic const tp_repeat b{}s{}_reps[] = {{", b, i);
        for (const auto& r : st.repeats)
          fmt::print(out, "{{{}, {}, {}}},", r.count, r.first, r.length);
        fmt::print(out, "}};\n");
      }
      fmt::print(out, "static const tp_stream b{}_streams[] = {{\n", b);
      for (std::size_t i = 0; i < streams.size(); ++i)
        fmt::print(out, "  {{{}, b{}s{}_runs, b{}s{}_reps, {}}},\n", s_.cursor(streams[i]->signature, streams[i]->slot),
                   b, i, b, i, streams[i]->repeats.size());
      fmt::print(out, "  {{0, 0, 0, 0}}}};\n");
    }
  }

  /// One function per signature: sig_S runs one action of signature S (its values from the streams). The bodies
  /// are data that name them (write_body): a trace that folds little (AMG's set-up) is thousands of calls, which
  /// as C statements took gcc -O2 minutes and gigabytes to build (AMG at 8 ranks: 124 s; at 32 ranks, stopped
  /// after 10 minutes at 3.5 GB).
  void write_actions(std::ostream& out, const std::vector<std::string>& statements) const
  {
    fmt::print(out, "\n/* Actions: sig_S runs one action of signature S. */\n");
    for (std::size_t sig = 0; sig < statements.size(); ++sig)
      fmt::print(out, "static void sig_{}(void) {{ {} }}\n", sig, statements[sig]);
    fmt::print(out, "static void (*const tp_sigs[])(void) = {{");
    for (std::size_t sig = 0; sig < statements.size(); ++sig)
      fmt::print(out, "sig_{},", sig);
    fmt::print(out, "}};\n\n/* Loop bodies: an item S >= 0 runs sig_S, an item -1 - L runs loop L of tp_loops, {{trip count, "
                    "body}}. */\ntypedef struct {{ long long count; int body; }} tp_loop;\n"
                    "typedef struct {{ const int* items; int n; }} tp_body;\n");
  }

  /// Body `body` (and the bodies its loops run, first) as an array of items.
  void write_body(std::ostream& out, std::uint32_t body, std::set<std::uint32_t>& done)
  {
    if (!done.insert(body).second)
      return;
    for (std::uint32_t id : t_.meta.bodies[body])
      if (t_.meta.nodes[id].loop)
        write_body(out, t_.meta.nodes[id].ref, done);
    std::vector<long long> items;
    for (std::uint32_t id : t_.meta.bodies[body]) {
      const auto& node = t_.meta.nodes[id];
      if (!node.loop) {
        items.push_back(node.ref);
        continue;
      }
      auto [at, added] = loops_.emplace(std::make_pair(node.count, node.ref), loops_.size());
      if (added)
        loop_order_.push_back(at->first);
      items.push_back(-1 - static_cast<long long>(at->second));
    }
    fmt::print(out, "static const int tp_body_{}[] = {{{}{}}};\n", body, fmt::join(items, ","), items.empty() ? "0" : "");
  }

  /// The loops, the bodies by number (those written, `done`) and tp_walk, which runs a body.
  void write_tables(std::ostream& out, const std::set<std::uint32_t>& done) const
  {
    fmt::print(out, "static const tp_loop tp_loops[] = {{");
    for (auto const& [count, body] : loop_order_)
      fmt::print(out, "{{{}, {}}},", count, body);
    fmt::print(out, "{}}};\nstatic const tp_body tp_bodies[] = {{", loop_order_.empty() ? "{0, 0}" : "");
    for (std::uint32_t b = 0; b < t_.meta.bodies.size(); ++b) {
      if (done.count(b) == 0)
        fmt::print(out, "{{0, 0}},");
      else
        fmt::print(out, "{{tp_body_{}, {}}},", b, t_.meta.bodies[b].size());
    }
    fmt::print(out, "}};\n"
                    "static void tp_walk(int b)\n{{\n"
                    "  const tp_body* body = &tp_bodies[b];\n"
                    "  for (int i = 0; i < body->n; ++i) {{\n"
                    "    int x = body->items[i];\n"
                    "    if (x >= 0) {{ tp_sigs[x](); continue; }}\n"
                    "    const tp_loop* l = &tp_loops[-1 - x];\n"
                    "    for (long long k = 0; k < l->count; ++k) tp_walk(l->body);\n"
                    "  }}\n}}\n");
  }

  void write_main(std::ostream& out, const std::map<std::uint32_t, int>& structure)
  {
    const auto& m = t_.meta;
    fmt::print(out, "\nstatic const int rank_structure[RANKS] = {{");
    for (const auto& r : m.ranks)
      fmt::print(out, "{},", structure.at(r.root));
    fmt::print(out, "}};\nstatic const int rank_block[RANKS] = {{");
    for (const auto& r : m.ranks)
      fmt::print(out, "{},", r.block);
    fmt::print(out, "}};\n/* per structure: whether its first action after init is a compute */\n"
                    "static const char starts_computing[] = {{");
    for (const auto& [root, number] : structure)
      fmt::print(out, "{},", first_is_compute(root) ? 1 : 0);
    fmt::print(out, "}};\nstatic const tp_stream* const block_streams[] = {{");
    for (std::size_t b = 0; b < t_.blocks.size(); ++b)
      fmt::print(out, "b{}_streams,", b);
    fmt::print(out, "}};\nstatic const int block_nstreams[] = {{");
    for (std::size_t n : nstreams_)
      fmt::print(out, "{},", n);
    fmt::print(out, "}};\n\n"
                    "int main(int argc, char** argv)\n{{\n"
                    "  /* calibration before MPI_Init, so that a tracer does not see it */\n"
                    "  double iters_per_second = RATE > 0 ? tp_calibrate() : 0;\n"
                    "  MPI_Init(&argc, &argv);\n"
                    "  double init_end = tp_now(); /* where a tracer's first segment starts */\n"
                    "  MPI_Comm_rank(MPI_COMM_WORLD, &me);\n"
                    "  MPI_Comm_size(MPI_COMM_WORLD, &np);\n"
                    "  if (np != RANKS) {{\n"
                    "    if (me == 0) fprintf(stderr, \"proxy: made for %d ranks, running on %d: use mpirun -np %d\\n\", RANKS, np, RANKS);\n"
                    "    MPI_Finalize();\n    return 2;\n  }}\n"
                    "  tp_use(0);\n"
                    "  tp_rate = RATE;\n"
                    "  tp_ips = iters_per_second;\n"
                    "  tp_start({}, block_streams[rank_block[me]], block_nstreams[rank_block[me]]);\n"
                    "  if (BSEND_BYTES > 0) tp_bsend_attach(BSEND_BYTES);\n"
                    "  double t0 = MPI_Wtime();\n"
                    "  /* a first compute lasts from MPI_Init's return: the set-up above is part of its segment */\n"
                    "  if (starts_computing[rank_structure[me]]) tp_seg0 = init_end;\n"
                    "  switch (rank_structure[me]) {{\n",
               s_.cursors());
    for (const auto& [root, number] : structure)
      fmt::print(out, "    case {}: tp_walk({}); break;\n", number, root);
    fmt::print(out, "  }}\n"
                    "  double t = MPI_Wtime() - t0;\n"
                    "  /* the maximum over ranks of the time, of minus and plus each rank's kernel rate (each rank computes\n"
                    "   * at its own measured rate) and of its late computations; through the profiling interface (PMPI_), so\n"
                    "   * that a trace of the proxy does not have it */\n"
                    "  double v[5] = {{t, -iters_per_second, iters_per_second, tp_overruns, tp_worst_overrun}}, m[5] = {{0, 0, 0, 0, 0}};\n"
                    "  PMPI_Reduce(v, m, 5, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);\n"
                    "  if (me == 0 && RATE > 0)\n"
                    "    fprintf(stderr, \"proxy: kernel calibration (median of %d runs of %g s per rank): %.4g to %.4g flop/s; a compute volume V lasts V / %g s\\n\", TP_CAL_RUNS, TP_CAL_SECONDS, -2 * m[1], 2 * m[2], (double)RATE);\n"
                    "  if (me == 0 && m[3] > 0)\n"
                    "    fprintf(stderr, \"proxy: up to %.0f timed computation(s) per rank ended more than 5 %% late (worst %.0f %%): the processor stalled near their end (interrupts, the hypervisor); their volumes are over\\n\", m[3], 100 * m[4]);\n"
                    "  if (me == 0) printf(\"proxy time: %.6f s\\n\", m[0]);\n"
                    "  tp_finish(BSEND_BYTES > 0);\n"
                    "  MPI_Finalize();\n  return 0;\n}}\n");
  }

  const Loaded& t_;
  std::string file_;
  std::string out_name_;
  const ProxyOptions& o_;
  TraceFacts facts_;
  StatementWriter s_;
  std::map<std::uint32_t, std::uint64_t> counts_;
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::size_t> loops_; ///< (trip count, body) -> loop number
  std::vector<std::pair<std::uint64_t, std::uint32_t>> loop_order_;      ///< the loops by number
  std::vector<std::size_t> nstreams_; ///< per block: the streams in its table
};

/// Whether a rank of the trace set is in dialect 1 (each file has one dialect: its first action says it).
bool has_dialect1(const fs::path& traces)
{
  std::unique_ptr<trace::TraceSet> set = trace::TraceSet::open(traces, std::nullopt);
  trace::Action a;
  for (int r = 0; r < set->rank_count(); ++r)
    if (set->reader(r)->next(a) && a.dialect == trace::Dialect::Thesis)
      return true;
  return false;
}

} // namespace

void proxy(const fs::path& traces, const fs::path& out, const ProxyOptions& options, std::ostream& report,
           std::ostream& warnings)
{
  if (options.rate && !(*options.rate > 0))
    throw trace::TraceError(fmt::format("error: --rate {}: expected a positive number of volume units per second",
                                        *options.rate));
  // dialect 1 names no request in its waits and no tag: converted to dialect 2 as `tit-trace convert` does
  fs::path source = traces;
  struct Remove {
    fs::path p;
    ~Remove() { std::error_code ec; if (!p.empty()) fs::remove_all(p, ec); }
  } remove;
  // a pre-3.20 trace is told from dialect 1 by no line: converted whenever asked
  if (options.dialect1 == convert::Source::Pre320 || has_dialect1(traces)) {
    remove.p = fs::temp_directory_path() / fmt::format("tit-proxy-{}-dialect2", ::getpid());
    convert::convert_into(traces, remove.p, trace::Dialect::SimGrid, options.dialect1);
    source = remove.p / "trace.list";
  }
  TraceFacts facts;
  facts = check_trace(source, {options.detached_thresh}, warnings);
  Loaded t = load(source);
  std::ofstream f(out, std::ios::trunc);
  if (!f)
    throw trace::TraceError(fmt::format("error: cannot write '{}'", out.string()));
  ProgramWriter(t, traces.string(), out.filename().string(), options, facts).write(f);
  if (!f.flush())
    throw trace::TraceError(fmt::format("error: cannot write '{}'", out.string()));
  f.close();
  fmt::print(report, "{}: proxy of {} ranks, {} bytes of C\n", out.string(), t.meta.rank_count, fs::file_size(out));
}

} // namespace tit::tracetool

// Typed actions back to lines of either dialect (see writer.hpp).
#include "trace/writer.hpp"

#include "trace/reader.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <numeric>

namespace tit::trace {

namespace {

[[noreturn]] void cannot_say(const Action& a, Dialect dialect, std::string_view what)
{
  std::string_view name = a.name.empty() ? kind_name(a.kind) : a.name;
  std::string message = fmt::format("error: cannot write '{}' in {}: {}", name, detail::dialect_name(dialect), what);
  if (a.file != nullptr)
    throw TraceError(fmt::format("{}:{}: {}\n  {}", *a.file, a.line, message, a.text));
  throw TraceError(message);
}

/// Appends the arguments of one line, each after a blank.
class Args {
public:
  explicit Args(std::string& out) : out_(out) {}
  Args& num(double v)
  {
    fmt::format_to(std::back_inserter(out_), " {}", v + 0.0); // shortest text that reads back as v; no "-0"
    return *this;
  }
  Args& num(int v)
  {
    fmt::format_to(std::back_inserter(out_), " {}", v);
    return *this;
  }
  Args& nums(const std::vector<double>& vs, double scale = 1)
  {
    for (double v : vs)
      num(v / scale);
    return *this;
  }
  /// Displacements of contiguous buffers holding `counts`.
  Args& displs(const std::vector<double>& counts)
  {
    double at = 0;
    for (double c : counts) {
      num(at);
      at += c;
    }
    return *this;
  }
  Args& raw(const std::vector<std::string_view>& args)
  {
    for (std::string_view s : args) {
      out_ += ' ';
      out_ += s;
    }
    return *this;
  }
  Args& word(std::string_view w)
  {
    out_ += ' ';
    out_ += w;
    return *this;
  }

private:
  std::string& out_;
};

/// The datatype id of Action::datatype_size (the elements the reader counts), checking that `bytes` are
/// whole elements of it.
int element_type(const Action& a, Dialect d, double bytes)
{
  int size = static_cast<int>(a.datatype_size);
  std::optional<int> id = datatype_id_of_size(size);
  if (!id || static_cast<double>(size) != a.datatype_size)
    cannot_say(a, d, fmt::format("its elements of {} bytes have no datatype id", a.datatype_size));
  if (size > 0 && std::fmod(bytes, size) != 0)
    cannot_say(a, d, fmt::format("it moves {} bytes, not a whole number of its {}-byte elements", bytes, size));
  return *id;
}

double elements(double bytes, int size) { return size > 0 ? bytes / size : 0; }

// ---- dialect 2 (SimGrid) ---------------------------------------------------------------------------

void simgrid_collective(Args& w, const Action& a, Kind kind, Dialect d)
{
  constexpr int kByte = kByteDatatype;
  const int size = static_cast<int>(a.datatype_size);
  switch (kind) {
  case Kind::Barrier:
    return;
  case Kind::Bcast: {
    int dt = element_type(a, d, a.bytes);
    w.num(elements(a.bytes, size)).num(a.root).num(dt);
    return;
  }
  case Kind::Reduce: {
    int dt = element_type(a, d, a.bytes);
    w.num(elements(a.bytes, size)).num(a.amount).num(a.root).num(dt);
    return;
  }
  case Kind::AllReduce:
  case Kind::Scan:
  case Kind::Exscan: {
    int dt = element_type(a, d, a.bytes);
    w.num(elements(a.bytes, size)).num(a.amount).num(dt);
    return;
  }
  case Kind::AllToAll:
  case Kind::AllGather:
    w.num(a.bytes).num(a.bytes2).num(kByte).num(kByte);
    return;
  case Kind::Gather:
  case Kind::Scatter: {
    int dt = element_type(a, d, a.bytes);
    w.num(elements(a.bytes, size)).num(a.bytes2).num(a.root).num(dt).num(kByte);
    return;
  }
  case Kind::AllToAllV:
    w.num(std::accumulate(a.send_counts.begin(), a.send_counts.end(), 0.0)).nums(a.send_counts);
    w.num(std::accumulate(a.recv_counts.begin(), a.recv_counts.end(), 0.0)).nums(a.recv_counts);
    w.num(kByte).num(kByte);
    return;
  case Kind::GatherV:
    w.num(a.bytes).nums(a.recv_counts).num(a.root).num(kByte).num(kByte);
    return;
  case Kind::ScatterV:
    w.nums(a.send_counts).num(a.bytes2).num(a.root).num(kByte).num(kByte);
    return;
  case Kind::AllGatherV: {
    int dt = element_type(a, d, a.bytes);
    w.num(elements(a.bytes, size)).nums(a.recv_counts).num(dt).num(kByte);
    return;
  }
  case Kind::ReduceScatter: {
    int dt = element_type(a, d, 0);
    for (double c : a.recv_counts)
      element_type(a, d, c);
    w.nums(a.recv_counts, size > 0 ? size : 1).num(a.amount).num(dt);
    return;
  }
  default:
    cannot_say(a, d, "it is no collective");
  }
}

void simgrid_arguments(Args& w, const Action& a)
{
  constexpr Dialect d = Dialect::SimGrid;
  switch (a.kind) {
  case Kind::Init:
  case Kind::Location:
  case Kind::WaitAll:
  case Kind::Start:
  case Kind::Startall:
  case Kind::WaitAny:
  case Kind::TestAny:
  case Kind::TestAll:
  case Kind::TestSome:
    w.raw(a.args);
    break;
  case Kind::Finalize:
    break;
  case Kind::CommSize:
    if (a.amount > 0)
      w.num(a.amount);
    break;
  case Kind::CommSplit:
    if (a.comm_args) {
      w.num(a.comm).num(a.color).num(a.key).num(a.new_comm);
      if (a.new_size > 0)
        w.num(a.new_size);
    }
    return; // the parent is an argument, not a comm= token
  case Kind::CommDup:
    if (a.comm_args)
      w.num(a.comm).num(a.new_comm);
    return;
  case Kind::CommCreate:
    w.num(a.comm).num(a.new_comm).num(static_cast<int>(a.group.size()));
    for (int r : a.group)
      w.num(r);
    return;
  case Kind::CommFree:
    w.num(a.comm);
    return;
  case Kind::Compute:
  case Kind::Sleep:
    w.num(a.amount);
    break;
  case Kind::Wait:
  case Kind::Test:
    if (a.wait_last_irecv)
      cannot_say(a, d, "it completes the most recent Irecv (dialect 1's 'wait'); dialect 2's names its request");
    w.num(a.src).num(a.dst).num(a.tag);
    break;
  case Kind::SendRecv:
    w.num(a.bytes).num(a.partner).num(a.bytes2).num(a.partner2).num(kByteDatatype).num(kByteDatatype);
    break;
  case Kind::NonBlockingCollective:
    simgrid_collective(w, a, a.blocking, d);
    break;
  default:
    if (is_message(a.kind)) // send, isend, recv, irecv, and the synchronous and buffered sends
      w.num(a.partner).num(a.tag).num(a.bytes).num(kByteDatatype); // kUnknownSize is count -1
    else
      simgrid_collective(w, a, a.kind, d);
    break;
  }
  if (a.comm != 0)
    w.word(fmt::format("comm={}", a.comm));
}

// ---- dialect 1 (thesis) ----------------------------------------------------------------------------

void thesis_arguments(Args& w, const Action& a)
{
  constexpr Dialect d = Dialect::Thesis;
  if (a.comm != 0)
    cannot_say(a, d, fmt::format("it acts on communicator {}; dialect 1 has only MPI_COMM_WORLD", a.comm));
  bool p2p = a.kind == Kind::Send || a.kind == Kind::Isend || a.kind == Kind::Recv || a.kind == Kind::Irecv;
  if (p2p && a.tag != 0)
    cannot_say(a, d, fmt::format("it has tag {}, and dialect 1 has no tags", a.tag));
  switch (a.kind) {
  case Kind::Init:
  case Kind::WaitAll:
    w.raw(a.args);
    return;
  case Kind::Finalize:
  case Kind::Barrier:
    return;
  case Kind::CommSize:
  case Kind::Compute:
    w.num(a.amount);
    return;
  case Kind::Send:
  case Kind::Isend:
    w.num(a.partner).num(a.bytes);
    return;
  case Kind::Recv:
  case Kind::Irecv:
    w.num(a.partner);
    if (a.bytes == kUnknownSize && a.kind == Kind::Irecv)
      cannot_say(a, d, "its size is unknown; in dialect 1 only 'recv' may omit its size");
    if (a.bytes != kUnknownSize)
      w.num(a.bytes);
    return;
  case Kind::Wait:
    if (!a.wait_last_irecv)
      cannot_say(a, d, "it names its request; dialect 1's 'wait' completes the most recent Irecv");
    return;
  case Kind::Bcast:
    w.num(a.bytes).num(a.root);
    return;
  case Kind::Reduce:
    w.num(a.bytes).num(a.amount).num(a.root);
    return;
  case Kind::AllReduce:
    w.num(a.bytes).num(a.amount);
    return;
  case Kind::ReduceScatter:
    w.nums(a.recv_counts).num(a.amount);
    return;
  case Kind::AllToAll:
    w.num(a.bytes).num(a.bytes2);
    return;
  case Kind::AllToAllV:
    w.num(std::accumulate(a.send_counts.begin(), a.send_counts.end(), 0.0)).nums(a.send_counts).displs(a.send_counts);
    w.num(std::accumulate(a.recv_counts.begin(), a.recv_counts.end(), 0.0)).nums(a.recv_counts).displs(a.recv_counts);
    return;
  case Kind::Gather:
    w.num(a.bytes).num(a.bytes2).num(a.root);
    return;
  case Kind::AllGatherV:
    w.num(a.bytes).nums(a.recv_counts).displs(a.recv_counts);
    return;
  default:
    cannot_say(a, d, "the dialect has no such action"); // action_name() refused it before
  }
}

std::string_view name_or_fail(const Action& a, Dialect d)
{
  if (d == Dialect::Pre320)
    cannot_say(a, d, "traces are written in dialect 1 or 2 (SimGrid <= 3.19's format is only read)");
  std::optional<std::string_view> name = action_name(a.kind, d, a.blocking);
  if (!name)
    cannot_say(a, d, a.kind == Kind::NonBlockingCollective && d == Dialect::Thesis
                         ? "dialect 1 has no nonblocking collectives"
                         : "the dialect has no such action");
  return *name;
}

} // namespace

std::optional<std::string_view> action_name(Kind kind, Dialect dialect, Kind blocking)
{
  if (kind == Kind::NonBlockingCollective) {
    if (dialect != Dialect::SimGrid)
      return std::nullopt;
    std::string_view name = nonblocking_name(blocking);
    if (name.empty())
      return std::nullopt;
    return name;
  }
  for (const detail::ActionSpec& spec : detail::action_specs(dialect))
    if (spec.kind == kind)
      return spec.name;
  return std::nullopt;
}

namespace {

/// The arguments of `action`, each after a blank.
void write_arguments(std::string& out, const Action& action, Dialect dialect)
{
  Args w(out);
  if (dialect == Dialect::SimGrid)
    simgrid_arguments(w, action);
  else
    thesis_arguments(w, action);
}

} // namespace

std::string_view display_name(const Action& action)
{
  if (!action.name.empty())
    return action.name;
  return action_name(action.kind, action.dialect, action.blocking).value_or(kind_name(action.kind));
}

void append_arguments(std::string& out, const Action& action, Dialect dialect)
{
  name_or_fail(action, dialect);
  std::size_t start = out.size();
  write_arguments(out, action, dialect);
  if (out.size() > start)
    out.erase(start, 1); // no leading blank
}

void append_action(std::string& out, const Action& action, Dialect dialect)
{
  std::string_view name = name_or_fail(action, dialect);
  fmt::format_to(std::back_inserter(out), "{} {}", action.rank, name);
  write_arguments(out, action, dialect);
}

std::string format_action(const Action& action, Dialect dialect)
{
  std::string out;
  append_action(out, action, dialect);
  return out;
}

} // namespace tit::trace

// SimGrid's formats: dialect 2, what `smpirun -trace-ti` writes since 3.20 (element counts of a datatype, tags,
// (src, dst, tag) waits), and the format of SimGrid <= 3.19 ("pre-3.20"), which tit-trace convert reads on request:
// the same arguments for collectives, dialect 1's names, no tags, waits and tests naming no request.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace tit::trace::detail {

namespace {

void keep_raw(Action&, RankState&) {}

void init(Action& a, RankState& s)
{
  if (!a.args.empty()) // SimGrid: an argument to init makes double the default datatype
    s.default_datatype_size = 8;
}

void comm_size(Action& a, RankState& s)
{
  if (!a.args.empty())
    a.amount = std::trunc(amount_arg(a, 0, "size"));
  if (a.comm != 0 && a.amount > 0) // extension: the size of a communicator the rank created
    s.comm_sizes[a.comm] = static_cast<int>(a.amount);
}

/// A communicator handle argument: 0 (MPI_COMM_WORLD) or one this rank created; -1 (MPI_COMM_NULL) when allowed.
int handle_arg(const Action& a, std::size_t i, const RankState& s, std::string_view what, bool null_ok)
{
  int h = int_arg(a, i, what);
  if (h == -1 && null_ok)
    return h;
  if (h < 0)
    fail(a, fmt::format("'{}' {} {} is not a communicator handle (0 is MPI_COMM_WORLD, -1 MPI_COMM_NULL)", a.name,
                        what, h));
  if (h != 0 && !s.comm_sizes.contains(h) && !null_ok)
    fail(a, fmt::format("'{}' {} {} names no communicator this rank created before", a.name, what, h));
  return h;
}

/// The new handle of a comm_* line: not world, not one already in use on this rank.
int new_handle_arg(const Action& a, std::size_t i, const RankState& s)
{
  int h = handle_arg(a, i, s, "new communicator", true);
  if (h == 0 || s.comm_sizes.contains(h))
    fail(a, fmt::format("'{}' new communicator {} is already in use on this rank", a.name, h));
  return h;
}

void no_comm_token(const Action& a)
{
  if (a.comm != 0)
    fail(a, fmt::format("'{}' names its parent communicator as its first argument, not with comm=", a.name));
}

// comm_split [<parent> <color> <key> <new> [<size>]]
void comm_split(Action& a, RankState& s)
{
  no_comm_token(a);
  if (a.args.empty())
    return; // SimGrid's: no information, no effect
  if (a.args.size() != 4 && a.args.size() != 5)
    fail_arg_count(a, spec_of(a), 0);
  a.comm_args = true;
  a.comm = handle_arg(a, 0, s, "parent communicator", false);
  a.color = int_arg(a, 1, "color");
  a.key = int_arg(a, 2, "key");
  a.new_comm = new_handle_arg(a, 3, s);
  if (a.color < -1)
    fail(a, fmt::format("'comm_split' color {} is negative (-1 stands for MPI_UNDEFINED)", a.color));
  if ((a.color == -1) != (a.new_comm == -1))
    fail(a, "'comm_split' gives MPI_COMM_NULL (-1) exactly when the color is MPI_UNDEFINED (-1)");
  int size = a.args.size() == 5 ? int_arg(a, 4, "size") : 0;
  a.new_size = size > 0 ? size : 0;
  if (a.new_comm != -1)
    s.comm_sizes[a.new_comm] = a.new_size;
}

// comm_dup [<parent> <new>]
void comm_dup(Action& a, RankState& s)
{
  no_comm_token(a);
  if (a.args.empty())
    return;
  if (a.args.size() != 2)
    fail_arg_count(a, spec_of(a), 0);
  a.comm_args = true;
  a.comm = handle_arg(a, 0, s, "parent communicator", false);
  a.new_comm = new_handle_arg(a, 1, s);
  if (a.new_comm == -1)
    fail(a, "'comm_dup' new communicator -1: a duplicate is never MPI_COMM_NULL");
  s.comm_sizes[a.new_comm] = communicator_size_of(a, s);
}

// comm_create <parent> <new> <n> <member x n>
void comm_create(Action& a, RankState& s)
{
  no_comm_token(a);
  a.comm_args = true;
  a.comm = handle_arg(a, 0, s, "parent communicator", false);
  a.new_comm = new_handle_arg(a, 1, s);
  int n = int_arg(a, 2, "group size");
  if (n < 0 || a.args.size() != static_cast<std::size_t>(n) + 3)
    fail(a, fmt::format("'comm_create' announces {} members but lists {}", n, a.args.size() - 3));
  int parent_size = communicator_size_of(a, s);
  for (int i = 0; i < n; ++i) {
    int r = int_arg(a, static_cast<std::size_t>(i) + 3, "member");
    if (r < 0 || (parent_size > 0 && r >= parent_size))
      fail(a, fmt::format("'comm_create' member {} is not a rank of the parent communicator{}", r,
                          parent_size > 0 ? fmt::format(" (0..{})", parent_size - 1) : ""));
    if (std::find(a.group.begin(), a.group.end(), r) != a.group.end())
      fail(a, fmt::format("'comm_create' lists member {} twice", r));
    a.group.push_back(r);
  }
  if (a.new_comm != -1)
    s.comm_sizes[a.new_comm] = n;
}

// comm_free <comm>
void comm_free(Action& a, RankState& s)
{
  no_comm_token(a);
  a.comm = handle_arg(a, 0, s, "communicator", false);
  if (a.comm == 0)
    fail(a, "'comm_free' cannot free MPI_COMM_WORLD (0)");
}

void compute(Action& a, RankState&) { a.amount = amount_arg(a, 0, "amount"); }
void sleep(Action& a, RankState&) { a.amount = amount_arg(a, 0, "duration"); }
void location(Action& a, RankState&) { int_arg(a, a.args.size() - 1, "line number"); }

/// SimGrid 3.19's replayer knew ids 0..6 (the sizes of dialect 2's); any other id (its tracer wrote -1 for a derived
/// type, with the count in bytes) meant the default datatype (`decode_datatype` in 3.19's smpi_replay.cpp).
int pre320_datatype(const Action& a, std::size_t i, const RankState& s)
{
  int id = int_arg(a, i, "datatype");
  return id >= 0 && id <= kByteDatatype ? datatype_size(id) : s.default_datatype_size;
}

int datatype_or_default(const Action& a, std::size_t i, const RankState& s)
{
  if (i >= a.args.size())
    return s.default_datatype_size;
  return a.dialect == Dialect::Pre320 ? pre320_datatype(a, i, s) : datatype_arg(a, i, "datatype");
}

double send_bytes(const Action& a, std::size_t count_i, std::size_t dt_i, const RankState& s,
                  std::string_view what)
{
  double count = count_arg(a, count_i, what);
  if (count < 0)
    fail(a, fmt::format("'{}' {} '{}' is negative (only a receive may have a negative count: size unknown)",
                        a.name, what, a.args[count_i]));
  return count * datatype_or_default(a, dt_i, s);
}

/// A message's tag: MPI's are >= 0. -444, SimGrid's MPI_ANY_TAG (our tracer writes it for an MPI_Irecv
/// with MPI_ANY_TAG), is refused with its own message: receives from any tag are not replayed.
int message_tag(const Action& a, std::size_t i)
{
  int tag = int_arg(a, i, "tag");
  if (tag == kAnyTag)
    fail(a, fmt::format("'{}' tag -444 is MPI_ANY_TAG: receives from any tag are not supported (a message's tag "
                        "must be >= 0)",
                        a.name));
  if (tag < 0)
    fail(a, fmt::format("'{}' tag '{}' is negative (a message's tag must be >= 0)", a.name, a.args[i]));
  return tag;
}

void send(Action& a, RankState& s)
{
  a.partner = rank_arg(a, 0, "destination", s, false);
  a.tag = message_tag(a, 1);
  a.bytes = send_bytes(a, 2, 3, s, "count");
}

void recv(Action& a, RankState& s)
{
  a.partner = rank_arg(a, 0, "source", s, true);
  a.tag = message_tag(a, 1);
  double count = count_arg(a, 2, "count");
  int size = datatype_or_default(a, 3, s);
  a.bytes = count < 0 ? kUnknownSize : count * size;
}

void wait(Action& a, RankState&)
{
  a.src = int_arg(a, 0, "source");
  a.dst = int_arg(a, 1, "destination");
  a.tag = int_arg(a, 2, "tag");
}

void send_recv(Action& a, RankState& s)
{
  if (a.args.size() == 5)
    fail_arg_count(a, spec_of(a));
  a.bytes = send_bytes(a, 0, 4, s, "send count");
  a.partner = rank_arg(a, 1, "destination", s, false);
  a.bytes2 = send_bytes(a, 2, 5, s, "receive count");
  a.partner2 = rank_arg(a, 3, "source", s, true);
}

// ---- collectives: n is the number of ranks of the trace set (SimGrid uses MPI_COMM_WORLD's size) ----

void scale(std::vector<double>& counts, int datatype_size)
{
  for (double& c : counts)
    c *= datatype_size;
}

// The two datatypes of a `[dt1 dt2]` pair go together: one alone is refused, as for sendRecv.
void check_pair(const Action& a, std::size_t dt1)
{
  if (a.args.size() == dt1 + 1)
    fail_arg_count(a, spec_of(a));
}

// bcast <count> [root [dt]]
void bcast(Action& a, RankState& s)
{
  double count = size_arg(a, 0, "count");
  a.root = a.args.size() > 1 ? root_arg(a, 1, communicator_size_of(a, s)) : 0;
  a.bytes = count * datatype_or_default(a, 2, s);
  a.datatype_size = datatype_or_default(a, 2, s); // segment sizes and decisions count elements
}

// reduce <count> <comp> [root [dt]]
void reduce(Action& a, RankState& s)
{
  double count = size_arg(a, 0, "count");
  a.amount = amount_arg(a, 1, "comp");
  a.root = a.args.size() > 2 ? root_arg(a, 2, communicator_size_of(a, s)) : 0;
  a.bytes = count * datatype_or_default(a, 3, s);
  a.datatype_size = datatype_or_default(a, 3, s); // segment sizes and decisions count elements
}

// allreduce, scan, exscan: <count> <comp> [dt]
void reduction(Action& a, RankState& s)
{
  double count = size_arg(a, 0, "count");
  a.amount = amount_arg(a, 1, "comp");
  a.bytes = count * datatype_or_default(a, 2, s);
  a.datatype_size = datatype_or_default(a, 2, s); // segment sizes and decisions count elements
}

// alltoall, allgather: <sendcount> <recvcount> [dt1 dt2]
void all_to_all(Action& a, RankState& s)
{
  check_pair(a, 2);
  double send = size_arg(a, 0, "sendcount");
  double recv = size_arg(a, 1, "recvcount");
  a.bytes = send * datatype_or_default(a, 2, s);
  a.bytes2 = recv * datatype_or_default(a, 3, s);
}

// gather, scatter: <sendcount> <recvcount> [root [dt1 dt2]]
void rooted_gather(Action& a, RankState& s)
{
  check_pair(a, 3);
  double send = size_arg(a, 0, "sendcount");
  double recv = size_arg(a, 1, "recvcount");
  a.root = a.args.size() > 2 ? root_arg(a, 2, communicator_size_of(a, s)) : 0;
  a.bytes = send * datatype_or_default(a, 3, s);
  a.bytes2 = recv * datatype_or_default(a, 4, s);
  a.datatype_size = datatype_or_default(a, 3, s); // gather's segments count elements
}

// Whether the arguments number `base`, `base + 1` (root) or `base + 3` (root dt1 dt2).
bool rooted_vector_shape(const Action& a, std::size_t base)
{
  std::size_t count = a.args.size();
  return count == base || count == base + 1 || count == base + 3;
}

// alltoallv <sendbufsize> <sendcounts x n> <recvbufsize> <recvcounts x n> [dt1 dt2]
void all_to_all_v(Action& a, RankState& s)
{
  int n = known_size(a, communicator_size_of(a, s));
  auto un = static_cast<std::size_t>(n);
  if (a.args.size() != 2 * un + 2 && a.args.size() != 2 * un + 4)
    fail_arg_count(a, spec_of(a), n);
  size_arg(a, 0, "sendbufsize");
  sizes_arg(a, 1, n, "sendcounts", a.send_counts);
  size_arg(a, un + 1, "recvbufsize");
  sizes_arg(a, un + 2, n, "recvcounts", a.recv_counts);
  scale(a.send_counts, datatype_or_default(a, 2 * un + 2, s));
  scale(a.recv_counts, datatype_or_default(a, 2 * un + 3, s));
}

// gatherv <sendcount> <recvcounts x n> [root [dt1 dt2]]
void gather_v(Action& a, RankState& s)
{
  int n = known_size(a, communicator_size_of(a, s));
  auto un = static_cast<std::size_t>(n);
  if (!rooted_vector_shape(a, un + 1))
    fail_arg_count(a, spec_of(a), n);
  double send = size_arg(a, 0, "sendcount");
  sizes_arg(a, 1, n, "recvcounts", a.recv_counts);
  a.root = a.args.size() > un + 1 ? root_arg(a, un + 1, n) : 0;
  a.bytes = send * datatype_or_default(a, un + 2, s);
  scale(a.recv_counts, datatype_or_default(a, un + 3, s));
}

// scatterv <sendcounts x n> <recvcount> [root [dt1 dt2]]
void scatter_v(Action& a, RankState& s)
{
  int n = known_size(a, communicator_size_of(a, s));
  auto un = static_cast<std::size_t>(n);
  if (!rooted_vector_shape(a, un + 1))
    fail_arg_count(a, spec_of(a), n);
  sizes_arg(a, 0, n, "sendcounts", a.send_counts);
  double recv = size_arg(a, un, "recvcount");
  a.root = a.args.size() > un + 1 ? root_arg(a, un + 1, n) : 0;
  scale(a.send_counts, datatype_or_default(a, un + 2, s));
  a.bytes2 = recv * datatype_or_default(a, un + 3, s);
}

// allgatherv <sendcount> <recvcounts x n>, then nothing, [dt1 dt2], [displs x n] or [dt1 dt2 displs x n].
// SimGrid 3.32 tells them apart by the number r of fields after the counts: r > n: datatypes and
// displacements; else r > 2: displacements; else datatypes (so with n = 2, two fields are datatypes).
// Where its rule asks for more fields than there are (n = 1, r = 2: SimGrid fails an assertion on
// its own tracer's output), the two fields are read as datatypes.
void all_gather_v(Action& a, RankState& s)
{
  int n = known_size(a, communicator_size_of(a, s));
  auto un = static_cast<std::size_t>(n);
  if (a.args.size() < un + 1)
    fail_arg_count(a, spec_of(a), n);
  std::size_t r = a.args.size() - (un + 1);
  bool datatypes = false;
  bool displs = false;
  if (r > un && r != 2) {
    datatypes = displs = r == un + 2;
    if (!displs)
      fail_arg_count(a, spec_of(a), n);
  } else if (r > 2) {
    displs = r == un;
    if (!displs)
      fail_arg_count(a, spec_of(a), n);
  } else {
    datatypes = r == 2;
    if (r == 1)
      fail_arg_count(a, spec_of(a), n);
  }
  double send = size_arg(a, 0, "sendcount");
  sizes_arg(a, 1, n, "recvcounts", a.recv_counts);
  int send_size = s.default_datatype_size;
  int recv_size = s.default_datatype_size;
  if (datatypes) {
    send_size = datatype_arg(a, un + 1, "datatype");
    recv_size = datatype_arg(a, un + 2, "datatype");
  }
  a.bytes = send * send_size;
  a.datatype_size = send_size; // the ring's pieces count elements
  scale(a.recv_counts, recv_size);
  if (displs)
    numbers_arg(a, datatypes ? un + 3 : un + 1, n, "displs");
}

// reducescatter <recvcounts x n> <comp> [dt]
void reduce_scatter(Action& a, RankState& s)
{
  int n = known_size(a, communicator_size_of(a, s));
  auto un = static_cast<std::size_t>(n);
  if (a.args.size() != un + 1 && a.args.size() != un + 2)
    fail_arg_count(a, spec_of(a), n);
  sizes_arg(a, 0, n, "recvcounts", a.recv_counts);
  a.amount = amount_arg(a, un, "comp");
  int size = datatype_or_default(a, un + 1, s);
  a.datatype_size = size; // the algorithm choice counts elements
  scale(a.recv_counts, size);
}

// ---- SimGrid <= 3.19 (pre-3.20): the point-to-point lines without tags, the other lines as in dialect 2 ----

// send, Isend, Ssend, ISsend: <dst> <count> [dt]
void pre320_send(Action& a, RankState& s)
{
  a.partner = rank_arg(a, 0, "destination", s, false);
  a.bytes = send_bytes(a, 1, 2, s, "count");
}

// recv, Irecv: <src> <count> [dt]; a count <= 0 is "take the sender's" (3.19 probed the message then)
void pre320_recv(Action& a, RankState& s)
{
  a.partner = rank_arg(a, 0, "source", s, true);
  double count = count_arg(a, 1, "count");
  a.bytes = count <= 0 ? kUnknownSize : count * datatype_or_default(a, 2, s);
}

// wait, test: no arguments; the most recent pending request of either kind
void pre320_wait(Action& a, RankState&) { a.wait_last_irecv = true; }

// waitAny <count>: written by 3.19's tracer, which its replayer did not read
void pre320_wait_any(Action& a, RankState&)
{
  fail(a, "'waitAny' has no equivalent: the line does not say which request completed, so the waits that follow "
          "cannot be told which requests are still pending (SimGrid 3.19's replayer did not read 'waitAny' either)");
}

// scan, exscan: <count> [dt], as 3.19's tracer wrote them (no computation amount)
void pre320_scan(Action& a, RankState& s)
{
  double count = size_arg(a, 0, "count");
  a.bytes = count * datatype_or_default(a, 1, s);
  a.datatype_size = datatype_or_default(a, 1, s);
}

// allGatherV <sendcount> <recvcounts x n> [dt1 dt2]: no displacements before 3.20
void pre320_all_gather_v(Action& a, RankState& s)
{
  int n = known_size(a, communicator_size_of(a, s));
  auto un = static_cast<std::size_t>(n);
  if (a.args.size() != un + 1 && a.args.size() != un + 3)
    fail_arg_count(a, spec_of(a), n);
  double send = size_arg(a, 0, "sendcount");
  sizes_arg(a, 1, n, "recvcounts", a.recv_counts);
  int send_size = datatype_or_default(a, un + 1, s);
  a.bytes = send * send_size;
  a.datatype_size = send_size;
  scale(a.recv_counts, datatype_or_default(a, un + 2, s));
}

// comm_split, comm_dup: 3.19 ignored their arguments
void ignored(Action& a, RankState&) { a.args.clear(); }

constexpr std::uint16_t kAny = kAnyArgs;

/// A nonblocking collective: the arguments of its blocking form (as SimGrid's tracer writes them).
template <Kind K, void (*Parse)(Action&, RankState&)> void nonblocking(Action& a, RankState& s)
{
  Parse(a, s);
  a.blocking = K;
}

ActionSpec raw(std::string_view name, Kind kind, std::string_view usage)
{
  return ActionSpec{name, kind, 0, kAny, usage, keep_raw};
}

} // namespace

const std::vector<ActionSpec>& simgrid_action_specs()
{
  static const std::vector<ActionSpec> specs = {
      {kind_name(Kind::Init), Kind::Init, 0, kAny, "[anything]", init},
      {kind_name(Kind::Finalize), Kind::Finalize, 0, 0, "", keep_raw},
      {kind_name(Kind::CommSize), Kind::CommSize, 0, 1, "[n]", comm_size},
      {kind_name(Kind::CommSplit), Kind::CommSplit, 0, 5, "[<parent> <color> <key> <new> [<size>]]", comm_split},
      {kind_name(Kind::CommDup), Kind::CommDup, 0, 2, "[<parent> <new>]", comm_dup},
      {kind_name(Kind::CommCreate), Kind::CommCreate, 3, kAny, "<parent> <new> <n> <members x n>", comm_create},
      {kind_name(Kind::CommFree), Kind::CommFree, 1, 1, "<comm>", comm_free},
      {kind_name(Kind::Compute), Kind::Compute, 1, 1, "<flops>", compute},
      {kind_name(Kind::Sleep), Kind::Sleep, 1, 1, "<seconds>", sleep},
      {kind_name(Kind::Location), Kind::Location, 2, kAny, "<file> <line>", location},
      {kind_name(Kind::Send), Kind::Send, 3, 4, "<dst> <tag> <count> [dt]", send},
      {kind_name(Kind::Isend), Kind::Isend, 3, 4, "<dst> <tag> <count> [dt]", send},
      {kind_name(Kind::Recv), Kind::Recv, 3, 4, "<src> <tag> <count> [dt]", recv},
      {kind_name(Kind::Irecv), Kind::Irecv, 3, 4, "<src> <tag> <count> [dt]", recv},
      {kind_name(Kind::Wait), Kind::Wait, 3, 3, "<src> <dst> <tag>", wait},
      {kind_name(Kind::Test), Kind::Test, 3, 3, "<src> <dst> <tag>", wait},
      {kind_name(Kind::WaitAll), Kind::WaitAll, 0, 1, "[count]", keep_raw},
      {kind_name(Kind::SendRecv), Kind::SendRecv, 4, 6, "<sendcount> <dst> <recvcount> <src> [dt1 dt2]", send_recv},
      {kind_name(Kind::Barrier), Kind::Barrier, 0, 0, "", keep_raw},
      {kind_name(Kind::Bcast), Kind::Bcast, 1, 3, "<count> [root [dt]]", bcast},
      {kind_name(Kind::Reduce), Kind::Reduce, 2, 4, "<count> <comp> [root [dt]]", reduce},
      {kind_name(Kind::AllReduce), Kind::AllReduce, 2, 3, "<count> <comp> [dt]", reduction},
      {kind_name(Kind::AllToAll), Kind::AllToAll, 2, 4, "<sendcount> <recvcount> [dt1 dt2]", all_to_all},
      {kind_name(Kind::AllToAllV), Kind::AllToAllV, 0, kAny,
       "<sendbufsize> <sendcounts x n> <recvbufsize> <recvcounts x n> [dt1 dt2]", all_to_all_v},
      {kind_name(Kind::Gather), Kind::Gather, 2, 5, "<sendcount> <recvcount> [root [dt1 dt2]]", rooted_gather},
      {kind_name(Kind::Scatter), Kind::Scatter, 2, 5, "<sendcount> <recvcount> [root [dt1 dt2]]", rooted_gather},
      {kind_name(Kind::AllGather), Kind::AllGather, 2, 4, "<sendcount> <recvcount> [dt1 dt2]", all_to_all},
      {kind_name(Kind::GatherV), Kind::GatherV, 0, kAny, "<sendcount> <recvcounts x n> [root [dt1 dt2]]", gather_v},
      {kind_name(Kind::ScatterV), Kind::ScatterV, 0, kAny, "<sendcounts x n> <recvcount> [root [dt1 dt2]]", scatter_v},
      {kind_name(Kind::AllGatherV), Kind::AllGatherV, 0, kAny, "<sendcount> <recvcounts x n> [dt1 dt2] [displs x n]", all_gather_v},
      {kind_name(Kind::ReduceScatter), Kind::ReduceScatter, 0, kAny, "<recvcounts x n> <comp> [dt]", reduce_scatter},
      {kind_name(Kind::Scan), Kind::Scan, 2, 3, "<count> <comp> [dt]", reduction},
      {kind_name(Kind::Exscan), Kind::Exscan, 2, 3, "<count> <comp> [dt]", reduction},
      {kind_name(Kind::Ssend), Kind::Ssend, 3, 4, "<dst> <tag> <count> [dt]", send},
      {kind_name(Kind::Issend), Kind::Issend, 3, 4, "<dst> <tag> <count> [dt]", send},
      {kind_name(Kind::Bsend), Kind::Bsend, 3, 4, "<dst> <tag> <count> [dt]", send},
      {kind_name(Kind::Ibsend), Kind::Ibsend, 3, 4, "<dst> <tag> <count> [dt]", send},
      raw(kind_name(Kind::Start), Kind::Start, "<dst> <tag> <count> [dt]"),
      raw(kind_name(Kind::Startall), Kind::Startall, ""),
      raw(kind_name(Kind::WaitAny), Kind::WaitAny, "[count]"),
      raw(kind_name(Kind::TestAny), Kind::TestAny, ""),
      raw(kind_name(Kind::TestAll), Kind::TestAll, ""),
      raw(kind_name(Kind::TestSome), Kind::TestSome, ""),
      {nonblocking_name(Kind::Bcast), Kind::NonBlockingCollective, 1, 3, "<count> [root [dt]]", nonblocking<Kind::Bcast, bcast>},
      {nonblocking_name(Kind::Barrier), Kind::NonBlockingCollective, 0, 0, "", nonblocking<Kind::Barrier, keep_raw>},
      {nonblocking_name(Kind::AllReduce), Kind::NonBlockingCollective, 2, 3, "<count> <comp> [dt]", nonblocking<Kind::AllReduce, reduction>},
      {nonblocking_name(Kind::Reduce), Kind::NonBlockingCollective, 2, 4, "<count> <comp> [root [dt]]", nonblocking<Kind::Reduce, reduce>},
      {nonblocking_name(Kind::AllToAll), Kind::NonBlockingCollective, 2, 4, "<sendcount> <recvcount> [dt1 dt2]", nonblocking<Kind::AllToAll, all_to_all>},
      {nonblocking_name(Kind::AllToAllV), Kind::NonBlockingCollective, 0, kAny, "<sendbufsize> <sendcounts x n> <recvbufsize> <recvcounts x n> [dt1 dt2]", nonblocking<Kind::AllToAllV, all_to_all_v>},
      {nonblocking_name(Kind::Gather), Kind::NonBlockingCollective, 2, 5, "<sendcount> <recvcount> [root [dt1 dt2]]", nonblocking<Kind::Gather, rooted_gather>},
      {nonblocking_name(Kind::Scatter), Kind::NonBlockingCollective, 2, 5, "<sendcount> <recvcount> [root [dt1 dt2]]", nonblocking<Kind::Scatter, rooted_gather>},
      {nonblocking_name(Kind::AllGather), Kind::NonBlockingCollective, 2, 4, "<sendcount> <recvcount> [dt1 dt2]", nonblocking<Kind::AllGather, all_to_all>},
      {nonblocking_name(Kind::GatherV), Kind::NonBlockingCollective, 0, kAny, "<sendcount> <recvcounts x n> [root [dt1 dt2]]", nonblocking<Kind::GatherV, gather_v>},
      {nonblocking_name(Kind::ScatterV), Kind::NonBlockingCollective, 0, kAny, "<sendcounts x n> <recvcount> [root [dt1 dt2]]", nonblocking<Kind::ScatterV, scatter_v>},
      {nonblocking_name(Kind::AllGatherV), Kind::NonBlockingCollective, 0, kAny, "<sendcount> <recvcounts x n> [dt1 dt2] [displs x n]", nonblocking<Kind::AllGatherV, all_gather_v>},
      {nonblocking_name(Kind::ReduceScatter), Kind::NonBlockingCollective, 0, kAny, "<recvcounts x n> <comp> [dt]", nonblocking<Kind::ReduceScatter, reduce_scatter>},
      {nonblocking_name(Kind::Scan), Kind::NonBlockingCollective, 2, 3, "<count> <comp> [dt]", nonblocking<Kind::Scan, reduction>},
      {nonblocking_name(Kind::Exscan), Kind::NonBlockingCollective, 2, 3, "<count> <comp> [dt]", nonblocking<Kind::Exscan, reduction>},
  };
  return specs;
}

const std::vector<ActionSpec>& pre320_action_specs()
{
  // What SimGrid 3.19's replayer read (smpi_replay.cpp's xbt_replay_action_register calls), and what its tracer wrote
  // besides (sleep, Ssend, ISsend, sendRecv, scan, exscan; waitAny is refused).
  static const std::vector<ActionSpec> specs = {
      {"init", Kind::Init, 0, kAny, "[anything]", init},
      {"finalize", Kind::Finalize, 0, 0, "", keep_raw},
      {"comm_size", Kind::CommSize, 1, 1, "<n>", comm_size},
      {"comm_split", Kind::CommSplit, 0, kAny, "[ignored]", ignored},
      {"comm_dup", Kind::CommDup, 0, kAny, "[ignored]", ignored},
      {"compute", Kind::Compute, 1, 1, "<flops>", compute},
      {"sleep", Kind::Sleep, 1, 1, "<seconds>", sleep},
      {"send", Kind::Send, 2, 3, "<dst> <count> [dt]", pre320_send},
      {"Isend", Kind::Isend, 2, 3, "<dst> <count> [dt]", pre320_send},
      {"Ssend", Kind::Ssend, 2, 3, "<dst> <count> [dt]", pre320_send},
      {"ISsend", Kind::Issend, 2, 3, "<dst> <count> [dt]", pre320_send},
      {"recv", Kind::Recv, 2, 3, "<src> <count> [dt]", pre320_recv},
      {"Irecv", Kind::Irecv, 2, 3, "<src> <count> [dt]", pre320_recv},
      {"test", Kind::Test, 0, 0, "", pre320_wait},
      {"wait", Kind::Wait, 0, 0, "", pre320_wait},
      {"waitAny", Kind::WaitAny, 0, kAny, "[count]", pre320_wait_any},
      {"waitAll", Kind::WaitAll, 0, 1, "[count]", keep_raw},
      {"sendRecv", Kind::SendRecv, 4, 6, "<sendcount> <dst> <recvcount> <src> [dt1 dt2]", send_recv},
      {"barrier", Kind::Barrier, 0, 0, "", keep_raw},
      {"bcast", Kind::Bcast, 1, 3, "<count> [root [dt]]", bcast},
      {"reduce", Kind::Reduce, 2, 4, "<count> <comp> [root [dt]]", reduce},
      {"allReduce", Kind::AllReduce, 2, 3, "<count> <comp> [dt]", reduction},
      {"allToAll", Kind::AllToAll, 2, 4, "<sendcount> <recvcount> [dt1 dt2]", all_to_all},
      {"allToAllV", Kind::AllToAllV, 0, kAny, "<sendbufsize> <sendcounts x n> <recvbufsize> <recvcounts x n> [dt1 dt2]",
       all_to_all_v},
      {"gather", Kind::Gather, 2, 5, "<sendcount> <recvcount> [root [dt1 dt2]]", rooted_gather},
      {"scatter", Kind::Scatter, 2, 5, "<sendcount> <recvcount> [root [dt1 dt2]]", rooted_gather},
      {"gatherV", Kind::GatherV, 0, kAny, "<sendcount> <recvcounts x n> [root [dt1 dt2]]", gather_v},
      {"scatterV", Kind::ScatterV, 0, kAny, "<sendcounts x n> <recvcount> [root [dt1 dt2]]", scatter_v},
      {"allGather", Kind::AllGather, 2, 4, "<sendcount> <recvcount> [dt1 dt2]", all_to_all},
      {"allGatherV", Kind::AllGatherV, 0, kAny, "<sendcount> <recvcounts x n> [dt1 dt2]", pre320_all_gather_v},
      {"reduceScatter", Kind::ReduceScatter, 0, kAny, "<recvcounts x n> <comp> [dt]", reduce_scatter},
      {"scan", Kind::Scan, 1, 2, "<count> [dt]", pre320_scan},
      {"exscan", Kind::Exscan, 1, 2, "<count> [dt]", pre320_scan},
  };
  return specs;
}

} // namespace tit::trace::detail

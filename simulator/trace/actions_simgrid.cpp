// Dialect 2, what `smpirun -trace-ti` writes: element counts of a datatype, tags, (src, dst, tag) waits.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <cmath>

namespace tit::trace::detail {

namespace {

void keep_raw(Action&, RankState&) {}

void init(Action& a, RankState& s)
{
  if (!a.args.empty()) // SimGrid: an argument to init makes double the default datatype
    s.default_datatype_size = 8;
}

void comm_size(Action& a, RankState&)
{
  if (!a.args.empty())
    a.amount = std::trunc(amount_arg(a, 0, "size"));
}

void compute(Action& a, RankState&) { a.amount = amount_arg(a, 0, "amount"); }
void sleep(Action& a, RankState&) { a.amount = amount_arg(a, 0, "duration"); }
void location(Action& a, RankState&) { int_arg(a, a.args.size() - 1, "line number"); }

int datatype_or_default(const Action& a, std::size_t i, const RankState& s)
{
  return i < a.args.size() ? datatype_arg(a, i, "datatype") : s.default_datatype_size;
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

void send(Action& a, RankState& s)
{
  a.partner = rank_arg(a, 0, "destination", s, false);
  a.tag = int_arg(a, 1, "tag");
  a.bytes = send_bytes(a, 2, 3, s, "count");
}

void recv(Action& a, RankState& s)
{
  a.partner = rank_arg(a, 0, "source", s, true);
  a.tag = int_arg(a, 1, "tag");
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
    fail_arg_count(a, *find_action(Dialect::SimGrid, "sendRecv"));
  a.bytes = send_bytes(a, 0, 4, s, "send count");
  a.partner = rank_arg(a, 1, "destination", s, false);
  a.bytes2 = send_bytes(a, 2, 5, s, "receive count");
  a.partner2 = rank_arg(a, 3, "source", s, true);
}

constexpr std::uint16_t kAny = kAnyArgs;

ActionSpec raw(std::string_view name, Kind kind, std::string_view usage)
{
  return ActionSpec{name, kind, 0, kAny, usage, keep_raw};
}

} // namespace

const std::vector<ActionSpec>& simgrid_action_specs()
{
  static const std::vector<ActionSpec> specs = {
      {"init", Kind::Init, 0, kAny, "[anything]", init},
      {"finalize", Kind::Finalize, 0, 0, "", keep_raw},
      {"comm_size", Kind::CommSize, 0, 1, "[n]", comm_size},
      raw("comm_split", Kind::CommSplit, "[anything]"),
      raw("comm_dup", Kind::CommDup, "[anything]"),
      {"compute", Kind::Compute, 1, 1, "<flops>", compute},
      {"sleep", Kind::Sleep, 1, 1, "<seconds>", sleep},
      {"location", Kind::Location, 2, kAny, "<file> <line>", location},
      {"send", Kind::Send, 3, 4, "<dst> <tag> <count> [dt]", send},
      {"isend", Kind::Isend, 3, 4, "<dst> <tag> <count> [dt]", send},
      {"recv", Kind::Recv, 3, 4, "<src> <tag> <count> [dt]", recv},
      {"irecv", Kind::Irecv, 3, 4, "<src> <tag> <count> [dt]", recv},
      {"wait", Kind::Wait, 3, 3, "<src> <dst> <tag>", wait},
      {"test", Kind::Test, 3, 3, "<src> <dst> <tag>", wait},
      {"waitall", Kind::WaitAll, 0, 1, "[count]", keep_raw},
      {"sendRecv", Kind::SendRecv, 4, 6, "<sendcount> <dst> <recvcount> <src> [dt1 dt2]", send_recv},
      {"barrier", Kind::Barrier, 0, 0, "", keep_raw},
      raw("bcast", Kind::Bcast, "<count> [root [dt]]"),
      raw("reduce", Kind::Reduce, "<count> <comp> [root [dt]]"),
      raw("allreduce", Kind::AllReduce, "<count> <comp> [dt]"),
      raw("alltoall", Kind::AllToAll, "<sendcount> <recvcount> [dt1 dt2]"),
      raw("alltoallv", Kind::AllToAllV, "<sendbufsize> <sendcounts...> <recvbufsize> <recvcounts...> [dt1 dt2]"),
      raw("gather", Kind::Gather, "<sendcount> <recvcount> [root [dt1 dt2]]"),
      raw("scatter", Kind::Scatter, "<sendcount> <recvcount> [root [dt1 dt2]]"),
      raw("allgather", Kind::AllGather, "<sendcount> <recvcount> [dt1 dt2]"),
      raw("gatherv", Kind::GatherV, "<sendcount> <recvcounts...> [root [dt1 dt2]]"),
      raw("scatterv", Kind::ScatterV, "<sendcounts...> <recvcount> [root [dt1 dt2]]"),
      raw("allgatherv", Kind::AllGatherV, "<sendcount> <recvcounts...> [dt1 dt2] [displs...]"),
      raw("reducescatter", Kind::ReduceScatter, "<recvcounts...> <comp> [dt]"),
      raw("scan", Kind::Scan, "<count> <comp> [dt]"),
      raw("exscan", Kind::Exscan, "<count> <comp> [dt]"),
      raw("Ssend", Kind::Ssend, "<dst> <tag> <count> [dt]"),
      raw("ISsend", Kind::Issend, "<dst> <tag> <count> [dt]"),
      raw("bsend", Kind::Bsend, "<dst> <tag> <count> [dt]"),
      raw("ibsend", Kind::Ibsend, "<dst> <tag> <count> [dt]"),
      raw("Start", Kind::Start, "<dst> <tag> <count> [dt]"),
      raw("Startall", Kind::Startall, ""),
      raw("waitAny", Kind::WaitAny, "[count]"),
      raw("testany", Kind::TestAny, ""),
      raw("testall", Kind::TestAll, ""),
      raw("testsome", Kind::TestSome, ""),
      raw("ibcast", Kind::NonBlockingCollective, ""),
      raw("ibarrier", Kind::NonBlockingCollective, ""),
      raw("iallreduce", Kind::NonBlockingCollective, ""),
      raw("ireduce", Kind::NonBlockingCollective, ""),
      raw("ialltoall", Kind::NonBlockingCollective, ""),
      raw("ialltoallv", Kind::NonBlockingCollective, ""),
      raw("igather", Kind::NonBlockingCollective, ""),
      raw("iscatter", Kind::NonBlockingCollective, ""),
      raw("iallgather", Kind::NonBlockingCollective, ""),
      raw("igatherv", Kind::NonBlockingCollective, ""),
      raw("iscatterv", Kind::NonBlockingCollective, ""),
      raw("iallgatherv", Kind::NonBlockingCollective, ""),
      raw("ireducescatter", Kind::NonBlockingCollective, ""),
      raw("iscan", Kind::NonBlockingCollective, ""),
      raw("iexscan", Kind::NonBlockingCollective, ""),
  };
  return specs;
}

} // namespace tit::trace::detail

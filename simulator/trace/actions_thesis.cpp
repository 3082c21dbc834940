// Dialect 1, Markomanolis' thesis format: sizes in bytes, no tags, `wait` pops the last Irecv.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <cmath>

namespace tit::trace::detail {

namespace {

void keep_raw(Action&, RankState&) {}

void comm_size(Action& a, RankState&) { a.amount = std::trunc(amount_arg(a, 0, "size")); }
void compute(Action& a, RankState&) { a.amount = amount_arg(a, 0, "amount"); }

// bytes, or a count of the datatype given as the next argument
double sized(const Action& a, std::size_t i, double count)
{
  return i < a.args.size() ? count * datatype_arg(a, i, "datatype") : count;
}

void send(Action& a, RankState& s)
{
  a.partner = rank_arg(a, 0, "destination", s, false);
  double count = count_arg(a, 1, "size");
  if (count < 0)
    fail(a, fmt::format("'{}' size '{}' is negative (only a receive may have a negative size: size unknown)",
                        a.name, a.args[1]));
  a.bytes = sized(a, 2, count);
}

void recv(Action& a, RankState& s)
{
  a.partner = rank_arg(a, 0, "source", s, true);
  if (a.args.size() < 2) {
    a.bytes = kUnknownSize;
    return;
  }
  double count = count_arg(a, 1, "size");
  double bytes = sized(a, 2, count);
  a.bytes = count < 0 ? kUnknownSize : bytes;
}

void wait(Action& a, RankState&) { a.wait_last_irecv = true; }

constexpr std::uint16_t kAny = kAnyArgs;

ActionSpec raw(std::string_view name, Kind kind, std::string_view usage)
{
  return ActionSpec{name, kind, 0, kAny, usage, keep_raw};
}

} // namespace

const std::vector<ActionSpec>& thesis_action_specs()
{
  static const std::vector<ActionSpec> specs = {
      {"init", Kind::Init, 0, kAny, "[anything]", keep_raw},
      {"finalize", Kind::Finalize, 0, 0, "", keep_raw},
      {"comm_size", Kind::CommSize, 1, 1, "<n>", comm_size},
      {"compute", Kind::Compute, 1, 1, "<instructions>", compute},
      {"send", Kind::Send, 2, 3, "<dst> <bytes> [datatype]", send},
      {"Isend", Kind::Isend, 2, 3, "<dst> <bytes> [datatype]", send},
      {"recv", Kind::Recv, 1, 3, "<src> [<bytes>] [datatype]", recv},
      {"Irecv", Kind::Irecv, 2, 3, "<src> <bytes> [datatype]", recv},
      {"wait", Kind::Wait, 0, 0, "", wait},
      {"waitAll", Kind::WaitAll, 0, 1, "[count]", keep_raw},
      {"barrier", Kind::Barrier, 0, 0, "", keep_raw},
      raw("bcast", Kind::Bcast, "<bytes> [<root> [<datatype>]]"),
      raw("reduce", Kind::Reduce, "<vcomm> <vcomp> [<root> [<datatype>]]"),
      raw("allReduce", Kind::AllReduce, "<vcomm> <vcomp> [<datatype>]"),
      raw("reduceScatter", Kind::ReduceScatter, "<recv_counts...> <vcomp>"),
      raw("allToAll", Kind::AllToAll, "<send_volume> <recv_volume>"),
      raw("allToAllV", Kind::AllToAllV, "<send_buf_size> <send_counts...> <send_displs...> <recv_buf_size> ..."),
      raw("gather", Kind::Gather, "<send_volume> <recv_volume> [<root>]"),
      raw("allGatherV", Kind::AllGatherV, "<send_count> <recv_counts...> <recv_displs...>"),
  };
  return specs;
}

} // namespace tit::trace::detail

// Dialect 1, Markomanolis' thesis format: sizes in bytes, no tags, `wait` pops the last Irecv.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string>

namespace tit::trace::detail {

namespace {

void keep_raw(Action&, RankState&) {}

// Declares the size of the communicator of the rank's next collectives (every rank takes part: ranks 0..n-1).
void comm_size(Action& a, RankState& s)
{
  double n = std::trunc(amount_arg(a, 0, "size"));
  double most = s.rank_count > 0 ? s.rank_count : std::numeric_limits<int>::max();
  if (n < 1 || n > most) {
    std::string range = s.rank_count > 0 ? fmt::format(" of this trace set (1..{})", s.rank_count) : "";
    fail(a, fmt::format("'{}' size {} is not a communicator size{}", a.name, a.args[0], range));
  }
  a.amount = n;
  s.comm_size = static_cast<int>(n);
}

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

// ---- collectives: n is the rank's latest comm_size, else the number of ranks of the trace set ----

int communicator_size(const RankState& s) { return s.comm_size > 0 ? s.comm_size : s.rank_count; }

// bcast <bytes> [<root> [<datatype>]]
void bcast(Action& a, RankState& s)
{
  double count = size_arg(a, 0, "bytes");
  a.root = a.args.size() > 1 ? root_arg(a, 1, communicator_size(s)) : 0;
  a.bytes = sized(a, 2, count);
}

// reduce <vcomm> <vcomp> [<root> [<datatype>]]
void reduce(Action& a, RankState& s)
{
  double count = size_arg(a, 0, "vcomm");
  a.amount = amount_arg(a, 1, "vcomp");
  a.root = a.args.size() > 2 ? root_arg(a, 2, communicator_size(s)) : 0;
  a.bytes = sized(a, 3, count);
}

// allReduce <vcomm> <vcomp> [<datatype>]
void all_reduce(Action& a, RankState&)
{
  double count = size_arg(a, 0, "vcomm");
  a.amount = amount_arg(a, 1, "vcomp");
  a.bytes = sized(a, 2, count);
}

// reduceScatter <recv_counts x n> <vcomp>
void reduce_scatter(Action& a, RankState& s)
{
  int n = known_size(a, communicator_size(s));
  auto un = static_cast<std::size_t>(n);
  if (a.args.size() != un + 1)
    fail_arg_count(a, spec_of(a), n);
  sizes_arg(a, 0, n, "recv_counts", a.recv_counts);
  a.amount = amount_arg(a, un, "vcomp");
}

// allToAll <send_volume> <recv_volume>
void all_to_all(Action& a, RankState&)
{
  a.bytes = size_arg(a, 0, "send_volume");
  a.bytes2 = size_arg(a, 1, "recv_volume");
}

// allToAllV <send_buf_size> <send_counts x n> <send_displs x n> <recv_buf_size> <recv_counts x n>
//           <recv_displs x n> [<datatype>]
void all_to_all_v(Action& a, RankState& s)
{
  int n = known_size(a, communicator_size(s));
  auto un = static_cast<std::size_t>(n);
  if (a.args.size() != 4 * un + 2 && a.args.size() != 4 * un + 3)
    fail_arg_count(a, spec_of(a), n);
  size_arg(a, 0, "send_buf_size");
  sizes_arg(a, 1, n, "send_counts", a.send_counts);
  numbers_arg(a, un + 1, n, "send_displs");
  size_arg(a, 2 * un + 1, "recv_buf_size");
  sizes_arg(a, 2 * un + 2, n, "recv_counts", a.recv_counts);
  numbers_arg(a, 3 * un + 2, n, "recv_displs");
  if (a.args.size() > 4 * un + 2) {
    int size = datatype_arg(a, 4 * un + 2, "datatype");
    for (double& c : a.send_counts)
      c *= size;
    for (double& c : a.recv_counts)
      c *= size;
  }
}

// gather <send_volume> <recv_volume> [<root>]
void gather(Action& a, RankState& s)
{
  a.bytes = size_arg(a, 0, "send_volume");
  a.bytes2 = size_arg(a, 1, "recv_volume");
  a.root = a.args.size() > 2 ? root_arg(a, 2, communicator_size(s)) : 0;
}

// allGatherV <send_count> <recv_counts x n> <recv_displs x n>
void all_gather_v(Action& a, RankState& s)
{
  int n = known_size(a, communicator_size(s));
  auto un = static_cast<std::size_t>(n);
  if (a.args.size() != 2 * un + 1)
    fail_arg_count(a, spec_of(a), n);
  a.bytes = size_arg(a, 0, "send_count");
  sizes_arg(a, 1, n, "recv_counts", a.recv_counts);
  numbers_arg(a, un + 1, n, "recv_displs");
}

constexpr std::uint16_t kAny = kAnyArgs;

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
      {"bcast", Kind::Bcast, 1, 3, "<bytes> [<root> [<datatype>]]", bcast},
      {"reduce", Kind::Reduce, 2, 4, "<vcomm> <vcomp> [<root> [<datatype>]]", reduce},
      {"allReduce", Kind::AllReduce, 2, 3, "<vcomm> <vcomp> [<datatype>]", all_reduce},
      {"reduceScatter", Kind::ReduceScatter, 0, kAny, "<recv_counts x n> <vcomp>", reduce_scatter},
      {"allToAll", Kind::AllToAll, 2, 2, "<send_volume> <recv_volume>", all_to_all},
      {"allToAllV", Kind::AllToAllV, 0, kAny,
       "<send_buf_size> <send_counts x n> <send_displs x n> <recv_buf_size> <recv_counts x n> <recv_displs x n> "
       "[<datatype>]",
       all_to_all_v},
      {"gather", Kind::Gather, 2, 3, "<send_volume> <recv_volume> [<root>]", gather},
      {"allGatherV", Kind::AllGatherV, 0, kAny, "<send_count> <recv_counts x n> <recv_displs x n>", all_gather_v},
  };
  return specs;
}

} // namespace tit::trace::detail

// The message and collective balance of a trace (proxy_check.hpp).
#include "proxy_check.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace tit::tracetool {

namespace {

using trace::Kind;

bool is_buffered(Kind k) { return k == Kind::Bsend || k == Kind::Ibsend; }
bool is_send(Kind k)
{
  return k == Kind::Send || k == Kind::Isend || k == Kind::Ssend || k == Kind::Issend || is_buffered(k);
}
bool is_recv(Kind k) { return k == Kind::Recv || k == Kind::Irecv; }

} // namespace

TraceFacts check_balance(trace::TraceSet& set, std::ostream& warnings)
{
  using Key = std::tuple<int, int, int>; // source, destination, tag
  std::map<Key, std::int64_t> balance;   // sends minus receives
  std::map<std::pair<int, int>, std::int64_t> any_source; // (destination, tag) -> receives from any source
  std::vector<std::uint64_t> collectives(static_cast<std::size_t>(set.rank_count()), 0);
  TraceFacts facts;
  for (int r = 0; r < set.rank_count(); ++r) {
    std::unique_ptr<trace::RankReader> reader = set.reader(r);
    trace::Action a;
    double bsend_bytes = 0;
    std::uint64_t bsend_count = 0;
    while (reader->next(a)) {
      ++facts.actions;
      if (is_buffered(a.kind)) {
        bsend_bytes += a.bytes;
        ++bsend_count;
      }
      if (a.comm != 0)
        continue; // refused by the generator anyway
      if (is_send(a.kind)) {
        ++balance[{r, a.partner, a.tag}];
      } else if (is_recv(a.kind)) {
        if (a.partner == trace::kAnySource)
          ++any_source[{r, a.tag}];
        else
          --balance[{a.partner, r, a.tag}];
      } else if (a.kind == Kind::SendRecv) {
        ++balance[{r, a.partner, 0}];
        if (a.partner2 == trace::kAnySource)
          ++any_source[{r, 0}];
        else
          --balance[{a.partner2, r, 0}];
      } else if (trace::is_collective(a.kind) || a.kind == Kind::NonBlockingCollective) {
        ++collectives[static_cast<std::size_t>(r)];
      }
    }
    facts.bsend_bytes = std::max(facts.bsend_bytes, bsend_bytes);
    facts.bsend_count = std::max(facts.bsend_count, bsend_count);
  }
  for (auto& [key, left] : balance) {
    auto [src, dst, tag] = key;
    if (left > 0) { // sent but not received by name: receives from any source take them
      auto any = any_source.find({dst, tag});
      if (any != any_source.end()) {
        std::int64_t taken = std::min(left, any->second);
        any->second -= taken;
        left -= taken;
      }
    }
  }
  for (const auto& [key, left] : balance) {
    auto [src, dst, tag] = key;
    if (left < 0)
      throw ProxyDeadlock(fmt::format("{}: error: the trace deadlocks: rank {} receives {} more message(s) from rank {} "
                                      "with tag {} than rank {} sends it", set.describe(), dst, -left, src, tag, src));
  }
  for (const auto& [key, left] : any_source)
    if (left > 0)
      throw ProxyDeadlock(fmt::format("{}: error: the trace deadlocks: rank {} receives {} message(s) from any source "
                                      "with tag {} that no rank sends it", set.describe(), key.first, left,
                                      key.second));
  for (const auto& [key, left] : balance)
    if (left > 0)
      fmt::print(warnings, "tit-trace: warning: rank {} sends {} message(s) with tag {} to rank {} that it never "
                           "receives\n", std::get<0>(key), left, std::get<2>(key), std::get<1>(key));
  for (std::size_t r = 1; r < collectives.size(); ++r)
    if (collectives[r] != collectives[0])
      throw ProxyDeadlock(fmt::format("{}: error: the trace deadlocks: rank {} makes {} collective(s) on "
                                      "MPI_COMM_WORLD, rank 0 makes {}", set.describe(), r, collectives[r],
                                      collectives[0]));
  return facts;
}

} // namespace tit::tracetool

#include "insitu.hpp"

#include "csv.hpp"
#include "model/piecewise.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace tit::calib {
namespace {

InSituOverhead fit_bands(const std::vector<std::vector<Point>>& bands)
{
  InSituOverhead o;
  for (auto const& pts : bands) {
    o.calls.push_back(pts.size());
    if (pts.empty()) {
      o.bands.emplace_back(std::nullopt);
    } else if (std::all_of(pts.begin(), pts.end(), [](Point p) { return p.y <= 0; })) {
      LineFit zero; // calls too short for the clock: no overhead (relative residuals have no meaning at 0)
      zero.points = pts.size();
      o.bands.emplace_back(zero);
    } else {
      // The robust line gives the band's shape (one distinct size: a constant); its level is then raised or
      // lowered so that the line's sum over the calls is their measured sum. The calls the robust fit rejects
      // are the application's own (a cache miss, the progress of other requests, the kernel): over thousands of
      // calls they are a steady part of the run, which a replay charging the typical call leaves out (halo3d's
      // irecvs: 0.32 us typical, 2.1 us on average).
      // A line that would charge a negative time (SimGrid's overheads are written with offset and slope >= 0)
      // keeps the calls' sum too: times that fall with the size make a constant, their mean; a negative offset a
      // line through the origin.
      LineFit f = robust_line_fit(pts);
      double gap = 0, sum_x = 0, sum_y = 0;
      for (auto const& p : pts) {
        gap += p.y - (f.offset + f.slope * p.x);
        sum_x += p.x;
        sum_y += p.y;
      }
      auto n = static_cast<double>(pts.size());
      f.offset += gap / n;
      if (f.slope < 0) {
        f.slope = 0;
        f.offset = sum_y / n;
      } else if (f.offset < 0) {
        f.offset = 0;
        f.slope = sum_y / sum_x;
      }
      o.bands.emplace_back(f);
    }
  }
  return o;
}

model::PiecewiseLinear parse_overhead(const std::string& name, const std::string& text)
{
  try {
    return model::PiecewiseLinear::parse(text.empty() ? "0:0:0" : text);
  } catch (const model::ModelError& e) {
    throw InputError(fmt::format("error: the platform's {} '{}': {}", name, text, e.what()));
  }
}

model::FactorTable parse_factors(const std::string& name, const std::string& text)
{
  try {
    return model::FactorTable::parse(text);
  } catch (const model::ModelError& e) {
    throw InputError(fmt::format("error: the platform's {} '{}': {}", name, text, e.what()));
  }
}

/// One message between two ranks of one host: its send and the receive that matched it, with the time the
/// receiver was blocked for it: the blocking recv itself, or the wait that completed an irecv.
struct Message {
  const TimedAction* send = nullptr;
  const TimedAction* recv = nullptr;
  double recv_start = 0;
  double recv_end = 0;
};

/// A waitall that completed several irecvs (and no send of at least the rendez-vous threshold): it ended when
/// the last of them arrived, which match_messages may tell from their sends.
struct WaitAllGroup {
  double start = 0;
  double end = 0;
  std::vector<const TimedAction*> irecvs;
};

/// When the receiver of each irecv was blocked for its data: the wait that completed it (`wait SRC DST TAG`,
/// the oldest pending irecv of that key, as the replay reads it), or a waitall that completed it and no
/// other irecv nor a send of at least `detached_thresh` bytes (whose end could be the receiver's); a waitall of
/// several irecvs goes to `groups`. Irecvs completed otherwise (waitany, a test, a wait naming no request,
/// a waitall with a rendez-vous send) are counted in `unknown`: when their data arrived is not measured. A rank
/// with an irecv pending on a communicator other than the world gets no completion from a wait (the wait's key
/// may not name it).
std::map<const TimedAction*, std::pair<double, double>> irecv_completions(const std::vector<TimedAction>& actions,
                                                                          double detached_thresh, std::size_t& unknown,
                                                                          std::vector<WaitAllGroup>& groups)
{
  struct Pending {
    std::vector<const TimedAction*> irecvs, isends;
  };
  std::map<int, Pending> ranks;
  std::map<const TimedAction*, std::pair<double, double>> done;
  auto drop = [&](Pending& p) {
    unknown += p.irecvs.size();
    p.irecvs.clear();
    p.isends.clear();
  };
  for (auto const& a : actions) {
    Pending& p = ranks[a.rank];
    switch (a.kind) {
    case trace::Kind::Irecv:
      p.irecvs.push_back(&a);
      break;
    case trace::Kind::Isend:
      p.isends.push_back(&a);
      break;
    case trace::Kind::Wait:
    case trace::Kind::Test: {
      bool other_comm = std::any_of(p.irecvs.begin(), p.irecvs.end(), [](auto* r) { return r->comm != 0; });
      if (a.src < 0 || a.dst < 0 || other_comm) {
        drop(p);
        break;
      }
      if (a.src == a.rank) { // a send request
        auto it = std::find_if(p.isends.begin(), p.isends.end(),
                               [&](auto* x) { return x->partner == a.dst && x->tag == a.tag; });
        if (it != p.isends.end())
          p.isends.erase(it);
      }
      if (a.dst == a.rank) {
        auto it = std::find_if(p.irecvs.begin(), p.irecvs.end(),
                               [&](auto* x) { return x->partner == a.src && x->tag == a.tag; });
        if (it != p.irecvs.end()) {
          if (a.kind == trace::Kind::Wait)
            done[*it] = {a.start, a.end};
          else
            ++unknown;
          p.irecvs.erase(it);
        }
      }
      break;
    }
    case trace::Kind::WaitAll: {
      bool eager_sends = std::all_of(p.isends.begin(), p.isends.end(),
                                     [&](auto* x) { return x->bytes < detached_thresh; });
      bool other_comm = std::any_of(p.irecvs.begin(), p.irecvs.end(), [](auto* r) { return r->comm != 0; });
      if (p.irecvs.size() == 1 && eager_sends) {
        done[p.irecvs[0]] = {a.start, a.end};
        p.irecvs.clear();
        p.isends.clear();
      } else if (p.irecvs.size() > 1 && eager_sends && not other_comm) {
        groups.push_back({a.start, a.end, p.irecvs});
        p.irecvs.clear();
        p.isends.clear();
      } else {
        drop(p);
      }
      break;
    }
    case trace::Kind::WaitAny:
    case trace::Kind::TestAny:
    case trace::Kind::TestAll:
    case trace::Kind::TestSome:
      drop(p);
      break;
    default:
      break;
    }
  }
  return done;
}

/// Pairs each send with its receive, channel by channel (source, destination, tag, communicator) in the order
/// of each rank's trace, as MPI's non-overtaking rule does; a sendRecv is a send to its destination and a receive
/// from its source, with its one tag (as the replay runs it). Channels it cannot order are left out: receives
/// from any source or with any tag, and the sends of a rank that uses sends the trace keeps unparsed (Ssend,
/// bsend, Start, ...). Only pairs whose receive is a blocking recv, an irecv whose completion irecv_completions
/// tells, or a sendRecv whose end is its receive's (below), and whose two ranks share a host clock are returned.
/// The point-to-point actions of a run by channel, and the ranks whose messages cannot be paired.
struct Channels {
  using Key = std::tuple<int, int, int, int>; // source, destination, tag, communicator
  std::map<Key, std::vector<const TimedAction*>> sends, recvs;
  std::set<int> wildcard_receivers, unparsed_senders;
};

Channels channels_of(const std::vector<TimedAction>& actions)
{
  Channels c;
  for (auto const& a : actions) {
    switch (a.kind) {
    case trace::Kind::Send:
    case trace::Kind::Isend:
      c.sends[{a.rank, a.partner, a.tag, a.comm}].push_back(&a);
      break;
    case trace::Kind::Recv:
    case trace::Kind::Irecv:
      if (a.partner == trace::kAnySource || a.tag < 0)
        c.wildcard_receivers.insert(a.rank);
      else
        c.recvs[{a.partner, a.rank, a.tag, a.comm}].push_back(&a);
      break;
    case trace::Kind::SendRecv: // its two halves
      c.sends[{a.rank, a.partner, a.tag, a.comm}].push_back(&a);
      if (a.partner2 == trace::kAnySource || a.tag < 0)
        c.wildcard_receivers.insert(a.rank);
      else
        c.recvs[{a.partner2, a.rank, a.tag, a.comm}].push_back(&a);
      break;
    default: // the synchronous and buffered sends, persistent starts: not paired
      if (trace::is_point_to_point(a.kind))
        c.unparsed_senders.insert(a.rank);
      break;
    }
  }
  return c;
}

/// The send of every receive of a channel that can be ordered (messages of a rank to itself included: they take part
/// in telling which message of a waitall arrived last); `unequal` counts the channels whose counts differ.
std::map<const TimedAction*, const TimedAction*> pair_channels(const Channels& c, std::size_t& unequal)
{
  std::map<const TimedAction*, const TimedAction*> sender_of;
  for (auto const& [key, s] : c.sends) {
    auto [src, dst, tag, comm] = key;
    if (c.wildcard_receivers.contains(dst) || c.unparsed_senders.contains(src))
      continue;
    auto it = c.recvs.find(key);
    if (it == c.recvs.end())
      continue;
    auto const& r = it->second;
    if (r.size() != s.size())
      ++unequal;
    for (std::size_t i = 0; i < std::min(s.size(), r.size()); ++i)
      sender_of[r[i]] = s[i];
  }
  return sender_of;
}

/// A waitall of several irecvs ended when the last of them arrived: the message whose send started last, when every
/// other one started no later, is no larger, and all share the receiver's host clock (a one-way time that grows with
/// the size: none arrived after it), gets the waitall's times in `completions`; the others are left out. Returns how
/// many were timed so.
std::size_t time_last_of_waitalls(const std::vector<WaitAllGroup>& groups,
                                  std::map<const TimedAction*, const TimedAction*>& sender_of,
                                  std::map<const TimedAction*, std::pair<double, double>>& completions,
                                  std::size_t& unknown_completion)
{
  std::size_t last_of_group = 0;
  for (auto const& g : groups) {
    const TimedAction* last = nullptr;
    bool known = true;
    for (auto* r : g.irecvs) {
      auto it = sender_of.find(r);
      if (it == sender_of.end() || it->second->host < 0 || it->second->host != r->host) {
        known = false;
        break;
      }
      if (last == nullptr || it->second->start > sender_of[last]->start)
        last = r;
    }
    if (known)
      for (auto* r : g.irecvs)
        if (r != last && (sender_of[r]->start > sender_of[last]->start || sender_of[r]->bytes > sender_of[last]->bytes))
          known = false;
    if (known && last->partner != last->rank) {
      completions[last] = {g.start, g.end};
      ++last_of_group;
      unknown_completion += g.irecvs.size() - 1;
    } else {
      unknown_completion += g.irecvs.size();
    }
  }
  return last_of_group;
}

std::vector<Message> match_messages(const std::vector<TimedAction>& actions, double detached_thresh,
                                    std::vector<std::string>& notes)
{
  std::size_t unknown_completion = 0;
  std::vector<WaitAllGroup> groups;
  auto completions = irecv_completions(actions, detached_thresh, unknown_completion, groups);
  Channels c = channels_of(actions);
  std::size_t unequal = 0, irecvs = 0, sendrecvs = 0, sendrecv_send_later = 0;
  auto sender_of = pair_channels(c, unequal);
  std::size_t last_of_group = time_last_of_waitalls(groups, sender_of, completions, unknown_completion);
  std::vector<Message> out;
  for (auto const& [key, s] : c.sends) {
    auto it = c.recvs.find(key);
    if (std::get<0>(key) == std::get<1>(key) || it == c.recvs.end())
      continue;
    for (auto* r : it->second) {
      auto sit = sender_of.find(r);
      if (sit == sender_of.end())
        continue;
      const TimedAction* snd = sit->second;
      if (snd->host < 0 || snd->host != r->host)
        continue;
      if (r->kind == trace::Kind::Recv) {
        out.push_back({snd, r, r->start, r->end});
      } else if (r->kind == trace::Kind::SendRecv) {
        // Its end is its receive's when its own send ends first: an eager one (buffered at once), or in an exchange
        // with the same partner, one no larger than the message received (the two travel together).
        if (r->bytes < detached_thresh || (r->partner == r->partner2 && r->bytes <= snd->bytes)) {
          out.push_back({snd, r, r->start, r->end});
          ++sendrecvs;
        } else {
          ++sendrecv_send_later;
        }
      } else if (auto done = completions.find(r); done != completions.end()) {
        out.push_back({snd, r, done->second.first, done->second.second});
        ++irecvs;
      }
    }
  }
  if (not c.wildcard_receivers.empty())
    notes.push_back(fmt::format("messages to {} rank(s) receiving from any source or with any tag left out of the "
                                "network fit (their order cannot be told)",
                                c.wildcard_receivers.size()));
  if (not c.unparsed_senders.empty())
    notes.push_back(fmt::format("messages of {} rank(s) using Ssend, bsend or persistent requests left out of the "
                                "network fit",
                                c.unparsed_senders.size()));
  if (unequal > 0)
    notes.push_back(fmt::format("{} channel(s) with more sends than receives or the reverse: only the first ones "
                                "paired",
                                unequal));
  if (irecvs > 0)
    notes.push_back(fmt::format("{} of the messages matched were received by an irecv, timed by the wait (or waitall) "
                                "that completed it",
                                irecvs));
  if (sendrecvs > 0)
    notes.push_back(fmt::format("{} of the messages matched were received by a sendRecv, timed by it (its own send "
                                "eager, or no larger and to the same partner)",
                                sendrecvs));
  if (sendrecv_send_later > 0)
    notes.push_back(fmt::format("{} message(s) received by a sendRecv whose own send is rendez-vous, and larger or to "
                                "another rank, left out of the network fit (the sendRecv may end with its send)",
                                sendrecv_send_later));
  if (last_of_group > 0)
    notes.push_back(fmt::format("{} of them the last (latest sent, largest) of the irecvs a waitall completed",
                                last_of_group));
  if (unknown_completion > 0)
    notes.push_back(fmt::format("{} irecv(s) completed by a waitany, a test, a wait naming no request or a waitall "
                                "(not its last message, or with a rendez-vous send) left out of the network fit "
                                "(when their data arrived is not measured)",
                                unknown_completion));
  return out;
}

/// The one-way network times of the matched messages, per band (payload + 16 bytes against seconds): an eager message
/// when its receiver was already waiting (the send's and receive's overheads taken off), a rendez-vous one from when
/// both ranks were there.
std::vector<std::vector<Point>> one_way_points(const std::vector<Message>& messages, const InSituOptions& options,
                                               const std::vector<std::uint64_t>& breaks,
                                               const model::PiecewiseLinear& os, const model::PiecewiseLinear& ois,
                                               const model::PiecewiseLinear& orecv, std::vector<std::string>& notes)
{
  std::vector<std::vector<Point>> points(breaks.size() + 1);
  std::size_t late_receiver = 0;
  for (auto const& m : messages) {
    double size = m.send->bytes;
    double y = 0;
    if (size < options.detached_thresh) {
      if (m.recv_start > m.send->start) {
        ++late_receiver;
        continue;
      }
      // A sendRecv's send is an isend, as the replay runs it.
      const bool isend = m.send->kind == trace::Kind::Isend || m.send->kind == trace::Kind::SendRecv;
      y = m.recv_end - m.send->start - (isend ? ois(size) : os(size)) - orecv(size);
    } else {
      y = m.recv_end - std::max(m.send->start, m.recv_start);
    }
    points[segment_of(breaks, size)].push_back({size + kEnvelope, y});
  }
  if (late_receiver > 0)
    notes.push_back(fmt::format("{} eager message(s) whose receive started after the send left out of the network "
                                "fit (their one-way time is not measured)",
                                late_receiver));
  return points;
}

/// Band `i` whose messages have one size: latency and bandwidth cannot be told apart, so the band keeps the
/// platform's bandwidth factor (`old_bw`) and the rest of the measured time is latency.
void fit_one_size_band(std::size_t i, const std::vector<Point>& pts, const std::optional<model::FactorTable>& old_bw,
                       const Route& route, InSituNetwork& net, std::vector<std::string>& notes)
{
  const double lat = route.raw_latency();
  if (not old_bw || lat <= 0) {
    notes.push_back(fmt::format("band {}: {} message(s) of one size and no smpi/bw-factor in the platform to keep: "
                                "no factor fitted",
                                i, pts.size()));
    return;
  }
  std::vector<double> ys;
  for (auto const& p : pts)
    ys.push_back(p.y);
  double x = pts.front().x;
  double transfer = x / (route.lone_flow_bandwidth() * (*old_bw)(x));
  LineFit flat;
  flat.offset = median(ys);
  flat.points = pts.size();
  std::vector<double> dev;
  for (double y : ys)
    dev.push_back(std::abs(y - flat.offset) / std::abs(flat.offset));
  flat.residual = flat.offset != 0 ? 1.4826 * median(dev) : 0;
  net.line[i] = flat;
  net.lat_factor[i] = std::max((flat.offset - transfer) / lat, kMinLatFactor);
}

/// The network's factors per band from the matched messages (docs: calibration/README.md, "In situ").
InSituNetwork fit_network(const std::vector<Message>& messages, const InSituOptions& options,
                          const std::vector<std::uint64_t>& breaks, const model::PiecewiseLinear& os,
                          const model::PiecewiseLinear& ois, const model::PiecewiseLinear& orecv,
                          std::vector<std::string>& notes)
{
  std::size_t n = breaks.size() + 1;
  InSituNetwork net;
  net.lat_factor.assign(n, std::nullopt);
  net.bw_factor.assign(n, std::nullopt);
  net.line.assign(n, std::nullopt);
  net.messages.assign(n, 0);
  net.sizes.assign(n, 0);
  auto points = one_way_points(messages, options, breaks, os, ois, orecv, notes);
  const Route& route = *options.route;
  std::optional<model::FactorTable> old_bw;
  if (not options.bw_factor.empty())
    old_bw = parse_factors("smpi/bw-factor", options.bw_factor);
  for (std::size_t i = 0; i < n; ++i) {
    auto& pts = points[i];
    net.messages[i] = pts.size();
    std::set<double> sizes;
    for (auto const& p : pts)
      sizes.insert(p.x);
    net.sizes[i] = sizes.size();
    if (pts.empty())
      continue;
    if (sizes.size() < 2) {
      fit_one_size_band(i, pts, old_bw, route, net, notes);
      continue;
    }
    LineFit f = robust_line_fit(pts);
    if (f.offset < 0 || route.raw_latency() <= 0)
      f = robust_line_fit(pts, true);
    BandFactors b = band_factors(f, pts, route, options.max_bw_factor);
    net.line[i] = b.line;
    net.lat_factor[i] = b.lat_factor;
    net.bw_factor[i] = b.bw_factor;
    if (b.capped_from)
      notes.push_back(fmt::format("band {}: bandwidth factor {} is above --max-bw-factor {}; capped, latency "
                                  "factor refitted: {}",
                                  i, num(*b.capped_from), num(b.bw_factor), num(b.lat_factor)));
  }
  return net;
}

} // namespace

bool InSituNetwork::fitted() const
{
  return std::any_of(lat_factor.begin(), lat_factor.end(), [](auto const& f) { return f.has_value(); }) ||
         std::any_of(bw_factor.begin(), bw_factor.end(), [](auto const& f) { return f.has_value(); });
}

std::string InSituNetwork::config(bool lat, const std::vector<std::uint64_t>& breaks, const std::string& existing) const
{
  auto const& values = lat ? lat_factor : bw_factor;
  model::FactorTable old = existing.empty() ? model::FactorTable{}
                                            : parse_factors(lat ? "smpi/lat-factor" : "smpi/bw-factor", existing);
  // A band of payloads (low, high] is looked up at payload + 16 bytes, as the calibration's own fit writes it.
  std::vector<std::pair<std::uint64_t, double>> entries;
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint64_t low = i == 0 ? 0 : breaks[i - 1] + static_cast<std::uint64_t>(kEnvelope);
    if (values[i]) {
      entries.emplace_back(low, *values[i]);
      continue;
    }
    std::uint64_t high = i + 1 < values.size() ? breaks[i] + static_cast<std::uint64_t>(kEnvelope)
                                               : std::numeric_limits<std::uint64_t>::max();
    entries.emplace_back(low, old(static_cast<double>(low) + 0.5));
    for (auto const& e : old.entries())
      if (e.threshold > low && e.threshold < high)
        entries.emplace_back(e.threshold, e.value);
  }
  std::string out;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    out += fmt::format("{}{}:{}", out.empty() ? "" : ";", it->first, num(it->second));
  return out;
}

bool InSituOverhead::fitted() const
{
  return std::any_of(bands.begin(), bands.end(), [](auto const& b) { return b.has_value(); });
}

std::string InSituOverhead::config(const std::vector<std::uint64_t>& breaks, const std::string& existing) const
{
  model::PiecewiseLinear old = parse_overhead("overhead", existing);
  std::string out;
  auto add = [&](std::uint64_t threshold, double offset, double slope) {
    out += fmt::format("{}{}:{}:{}", out.empty() ? "" : ";", threshold, num(offset), num(slope));
  };
  for (std::size_t i = 0; i < bands.size(); ++i) {
    std::uint64_t low = i == 0 ? 0 : breaks[i - 1];
    if (bands[i]) {
      add(low, std::max(0.0, bands[i]->offset), std::max(0.0, bands[i]->slope));
      continue;
    }
    // The old function over (low, high]: its segment just above low, then every threshold inside the band.
    auto const& segs = old.segments();
    auto at = [&](double size) {
      const model::PiecewiseLinear::Segment* s = &segs.front();
      for (auto const& c : segs)
        if (static_cast<double>(c.threshold) < size)
          s = &c;
      return *s;
    };
    auto first = at(static_cast<double>(low) + 0.5);
    add(low, first.offset, first.slope);
    for (auto const& c : segs)
      if (c.threshold > low && (i + 1 == bands.size() || c.threshold < breaks[i]))
        add(c.threshold, c.offset, c.slope);
  }
  return out;
}

InSituFit fit_in_situ(const std::vector<TimedAction>& actions, const InSituOptions& options)
{
  InSituFit fit;
  fit.breaks = options.breaks;
  std::sort(fit.breaks.begin(), fit.breaks.end());
  fit.breaks.erase(std::unique(fit.breaks.begin(), fit.breaks.end()), fit.breaks.end());
  std::size_t n = fit.breaks.size() + 1;
  std::vector<std::vector<Point>> ois(n), os(n), oir(n), os_self(n);
  std::vector<Point> copies;
  std::size_t rendezvous = 0;
  P2pData polls; // the calls SimGrid charges one smpi/test each: test, testany (testall and testsome: one per request)
  std::size_t per_request = 0;
  for (auto const& a : actions) {
    if (a.kind == trace::Kind::Test || a.kind == trace::Kind::TestAny)
      polls.test.push_back({0, a.seconds});
    else if (a.kind == trace::Kind::TestAll || a.kind == trace::Kind::TestSome)
      ++per_request;
    if ((a.kind == trace::Kind::Isend || a.kind == trace::Kind::Send) && a.partner == a.rank) {
      // the MPI library copies the message within the call: its time is a copy, not the cost of posting a send
      os_self[segment_of(fit.breaks, a.bytes)].push_back({a.bytes, a.seconds});
    } else if (a.kind == trace::Kind::Irecv) {
      oir[segment_of(fit.breaks, a.bytes)].push_back({a.bytes, a.seconds});
    } else if (a.kind == trace::Kind::Isend) {
      ois[segment_of(fit.breaks, a.bytes)].push_back({a.bytes, a.seconds});
    } else if (a.kind == trace::Kind::Send) {
      if (a.bytes < options.detached_thresh)
        os[segment_of(fit.breaks, a.bytes)].push_back({a.bytes, a.seconds});
      else
        ++rendezvous;
    } else if (a.kind == trace::Kind::SendRecv && a.partner == a.rank && a.partner2 == a.rank) {
      copies.push_back({std::min(a.bytes, a.bytes2), a.seconds});
    }
  }
  fit.ois = fit_bands(ois);
  fit.os = fit_bands(os);
  fit.oir = fit_bands(oir);
  fit.os_self = fit_bands(os_self);
  fit.tests = polls.test.size();
  fit.poll = fit_polling(polls);
  if (per_request > 0)
    fit.notes.push_back(fmt::format("{} testall/testsome call(s) left out of smpi/test: SimGrid charges it once per "
                                    "request they test, and the trace does not say how many each tested",
                                    per_request));
  fit.copies = copies.size();
  if (std::size_t to_itself = std::accumulate(fit.os_self.calls.begin(), fit.os_self.calls.end(), std::size_t{0}))
    fit.notes.push_back(fmt::format("{} send(s) and isend(s) of a rank to itself fitted as tit/os-self, not os or ois "
                                    "(the MPI library copies such a message within the call: a local copy, not the "
                                    "cost of posting a send)",
                                    to_itself));
  if (rendezvous > 0)
    fit.notes.push_back(fmt::format("{} send(s) of at least {} bytes (rendez-vous) left out of os", rendezvous,
                                    options.detached_thresh));
  if (not copies.empty()) {
    try {
      fit.copy = fit_local_copy(copies);
    } catch (const InputError& e) {
      fit.notes.push_back(fmt::format("local copy rate not fitted: {}", e.what()));
    }
  }
  if (options.route) {
    // The overheads the replay will apply: those fitted here, the platform's elsewhere.
    auto os_model = parse_overhead("smpi/os", fit.os.fitted() ? fit.os.config(fit.breaks, options.os) : options.os);
    auto ois_model =
        parse_overhead("smpi/ois", fit.ois.fitted() ? fit.ois.config(fit.breaks, options.ois) : options.ois);
    auto or_model = parse_overhead("smpi/or", options.orecv);
    auto messages = match_messages(actions, options.detached_thresh, fit.notes);
    fit.matched = messages.size();
    fit.network = fit_network(messages, options, fit.breaks, os_model, ois_model, or_model, fit.notes);
  }
  if (not fit.ois.fitted() && not fit.os.fitted() && not fit.oir.fitted() && not fit.os_self.fitted() && not fit.copy &&
      not fit.network.fitted() && not fit.poll.test) {
    std::string why;
    for (auto const& n : fit.notes)
      why += "; " + n;
    throw InputError(fmt::format("error: nothing to fit in situ: the trace has no isend, irecv or detached send, no "
                                 "test{} no sendRecv to itself of two sizes or more{} with a timing{}",
                                 options.route ? "," : " and",
                                 options.route ? " and no message received on the same host by a blocking recv, by an irecv "
                                                 "whose wait is known or by a sendRecv"
                                               : "",
                                 why));
  }
  return fit;
}

void write_in_situ_report(std::ostream& out, const InSituFit& fit)
{
  auto band = [&](std::size_t i) { return band_label(fit.breaks, i); };
  for (auto [name, o] : {std::pair{"ois", &fit.ois}, std::pair{"os", &fit.os}, std::pair{"oir", &fit.oir},
                         std::pair{"os-self", &fit.os_self}}) {
    for (std::size_t i = 0; i < o->bands.size(); ++i) {
      if (o->bands[i])
        out << fmt::format("{:<7} {:<22} {:>7} calls  offset {:.4g} s  slope {:.4g} s/B  residual {:.1f}%  {} "
                           "rejected\n",
                           name, band(i), o->calls[i], o->bands[i]->offset, o->bands[i]->slope,
                           100 * o->bands[i]->residual, o->bands[i]->outliers);
      else
        out << fmt::format("{:<7} {:<22} {:>7} calls  (none: the platform's value is kept)\n", name, band(i), 0);
    }
  }
  if (not fit.network.messages.empty()) {
    out << fmt::format("network: {} message(s) matched to their receive on one host (a recv, an irecv and its "
                       "wait, or a sendRecv)\n",
                       fit.matched);
    auto const& n = fit.network;
    for (std::size_t i = 0; i < n.messages.size(); ++i) {
      if (not n.lat_factor[i]) {
        out << fmt::format("net  {:<22} {:>7} msgs  (none: the platform's factors are kept)\n", band(i), n.messages[i]);
        continue;
      }
      out << fmt::format("net  {:<22} {:>7} msgs  {} size(s)  lat-factor {}  bw-factor {}  residual {:.1f}%  {} "
                         "rejected\n",
                         band(i), n.messages[i], n.sizes[i], num(*n.lat_factor[i]),
                         n.bw_factor[i] ? num(*n.bw_factor[i]) : std::string("(kept)"), 100 * n.line[i]->residual,
                         n.line[i]->outliers);
    }
  }
  if (fit.copy)
    write_copy_report(out, *fit.copy);
  else
    out << fmt::format("local copy: {} sendRecv(s) to itself, no rate fitted\n", fit.copies);
  if (fit.poll.test)
    out << fmt::format("polling: {} test/testany call(s), median {:.3g} s (smpi/test; smpi/grow-injected-times:no, a "
                       "real call's cost does not grow)\n",
                       fit.tests, *fit.poll.test);
  for (auto const& n : fit.notes)
    out << "note: " << n << "\n";
}

} // namespace tit::calib

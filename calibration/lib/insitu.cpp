#include "insitu.hpp"

#include "csv.hpp"
#include "model/piecewise.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace tit::calib {
namespace {

InSituOverhead fit_bands(const std::vector<std::vector<Point>>& bands)
{
  InSituOverhead o;
  for (auto const& pts : bands) {
    o.calls.push_back(pts.size());
    if (pts.empty())
      o.bands.emplace_back(std::nullopt);
    else
      o.bands.emplace_back(robust_line_fit(pts)); // one distinct size: a constant (slope 0)
  }
  return o;
}

} // namespace

bool InSituOverhead::fitted() const
{
  return std::any_of(bands.begin(), bands.end(), [](auto const& b) { return b.has_value(); });
}

std::string InSituOverhead::config(const std::vector<std::uint64_t>& breaks, const std::string& existing) const
{
  model::PiecewiseLinear old;
  try {
    old = model::PiecewiseLinear::parse(existing.empty() ? "0:0:0" : existing);
  } catch (const model::ModelError& e) {
    throw InputError(fmt::format("error: the platform's overhead '{}': {}", existing, e.what()));
  }
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
  std::vector<std::vector<Point>> ois(n), os(n);
  std::vector<Point> copies;
  std::size_t rendezvous = 0;
  for (auto const& a : actions) {
    if (a.kind == trace::Kind::Isend) {
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
  fit.copies = copies.size();
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
  if (not fit.ois.fitted() && not fit.os.fitted() && not fit.copy) {
    std::string why;
    for (auto const& n : fit.notes)
      why += "; " + n;
    throw InputError(fmt::format("error: nothing to fit in situ: the trace has no isend, no detached send and no "
                                 "sendRecv to itself of two sizes or more with a timing{}",
                                 why));
  }
  return fit;
}

void write_in_situ_report(std::ostream& out, const InSituFit& fit)
{
  auto band = [&](std::size_t i) {
    return i == 0 ? fmt::format("[0, {}]", fit.breaks.empty() ? std::string("inf") : std::to_string(fit.breaks[0]))
                  : fmt::format("({}, {}]", fit.breaks[i - 1],
                                i < fit.breaks.size() ? std::to_string(fit.breaks[i]) : std::string("inf"));
  };
  for (auto [name, o] : {std::pair{"ois", &fit.ois}, std::pair{"os", &fit.os}}) {
    for (std::size_t i = 0; i < o->bands.size(); ++i) {
      if (o->bands[i])
        out << fmt::format("{:<4} {:<22} {:>7} calls  offset {:.4g} s  slope {:.4g} s/B  residual {:.1f}%  {} rejected\n",
                           name, band(i), o->calls[i], o->bands[i]->offset, o->bands[i]->slope,
                           100 * o->bands[i]->residual, o->bands[i]->outliers);
      else
        out << fmt::format("{:<4} {:<22} {:>7} calls  (none: the platform's value is kept)\n", name, band(i), 0);
    }
  }
  if (fit.copy)
    write_copy_report(out, *fit.copy);
  else
    out << fmt::format("local copy: {} sendRecv(s) to itself, no rate fitted\n", fit.copies);
  for (auto const& n : fit.notes)
    out << "note: " << n << "\n";
}

} // namespace tit::calib

// Value runs of compressed traces (docs/compressed-format.md, "Value block"): a stream's runs grouped into repeats,
// and one run's bytes.
#include "compressed/values/bin_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace tit::trace::cformat {

void find_repeats(Stream& s)
{
  const std::vector<ValueRun>& runs = s.runs;
  std::size_t n = runs.size();
  s.repeats.clear();
  std::size_t i = 0;
  while (i < n) {
    bool found = false;
    for (std::size_t p = 1; p <= kPeriod && i + 2 * p <= n; ++p) {
      if (!std::equal(runs.begin() + static_cast<std::ptrdiff_t>(i), runs.begin() + static_cast<std::ptrdiff_t>(i + p),
                      runs.begin() + static_cast<std::ptrdiff_t>(i + p)))
        continue;
      std::uint64_t count = 2;
      while (i + (count + 1) * p <= n &&
             std::equal(runs.begin() + static_cast<std::ptrdiff_t>(i),
                        runs.begin() + static_cast<std::ptrdiff_t>(i + p),
                        runs.begin() + static_cast<std::ptrdiff_t>(i + count * p)))
        ++count;
      s.repeats.push_back(Repeat{count, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(p)});
      i += count * p;
      found = true;
      break;
    }
    if (!found) {
      s.repeats.push_back(Repeat{1, static_cast<std::uint32_t>(i), 1});
      ++i;
    }
  }
  // keep only the runs the repeats name, as a decoded block has them (a folded trace then equals a loaded one)
  std::vector<ValueRun> kept;
  for (Repeat& rep : s.repeats) {
    std::uint32_t first = static_cast<std::uint32_t>(kept.size());
    for (std::uint32_t k = 0; k < rep.length; ++k)
      kept.push_back(std::move(s.runs[rep.first + k]));
    rep.first = first;
  }
  s.runs = std::move(kept);
}

void encode_run(ByteWriter& w, const ValueRun& run)
{
  if (run.is_int) {
    w.varint(((static_cast<std::uint64_t>(run.first) << 1) ^ static_cast<std::uint64_t>(run.first >> 63)) << 1);
  } else {
    w.varint((std::uint64_t{run.text.size()} << 1) | 1);
    w.bytes(run.text);
  }
  w.varint(run.count);
  if (run.is_int && run.count > 1)
    w.zigzag(run.step);
}

ValueRun decode_run(ByteReader& r, std::size_t max_text, BinIndices* bins)
{
  ValueRun run;
  std::uint64_t head = r.varint("a value");
  if (head == 1 && bins != nullptr) { // a bin run (binned files): its index is the next of the block's
    std::int64_t k = bins->next(r);
    std::uint64_t count_form = r.varint("a bin run's length and form");
    unsigned form = static_cast<unsigned>(count_form & 1);
    std::string text = bins->bins.text(k, form);
    if (text.empty())
      r.fail(fmt::format("expected a bin index whose representative is a positive {} (binned:{}), found {}",
                         form == 0 ? "integer below 2^61" : "number", bins->bins.r(), k));
    run.is_int = form == 0;
    if (run.is_int)
      std::from_chars(text.data(), text.data() + text.size(), run.first);
    else
      run.text = std::move(text);
    run.count = count_form >> 1;
    if (run.count == 0)
      r.fail("expected a run length of at least 1, found 0");
    return run;
  }
  run.is_int = (head & 1) == 0;
  std::uint64_t u = head >> 1;
  if (run.is_int) {
    run.first = static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
    if (run.first >= kIntLimit || run.first <= -kIntLimit)
      r.fail(fmt::format("expected an integer value within +-2^61, found {}", run.first));
  } else {
    if (u == 0 || u > max_text)
      r.fail(fmt::format("expected a value token of 1 to {} bytes, found a length of {}", max_text, u));
    run.text = std::string(r.take(static_cast<std::size_t>(u), "a value token"));
    check_field(r, run.text, "a value token");
  }
  run.count = r.varint("a run length");
  if (run.count == 0)
    r.fail("expected a run length of at least 1, found 0");
  if (run.is_int && run.count > 1) {
    run.step = r.zigzag("a run step");
    // every value of the run must stay a representable integer
    std::int64_t span = 0;
    std::int64_t last = 0;
    bool overflow = run.count > (std::uint64_t{1} << 62) ||
                    __builtin_mul_overflow(run.step, static_cast<std::int64_t>(run.count - 1), &span) ||
                    __builtin_add_overflow(run.first, span, &last);
    if (overflow || last >= kIntLimit || last <= -kIntLimit)
      r.fail(fmt::format("a run of {} values from {} by {} leaves the integer range", run.count, run.first, run.step));
  }
  return run;
}

ValueRun decode_run(ByteReader& r, std::size_t max_text) { return decode_run(r, max_text, nullptr); }

} // namespace tit::trace::cformat

// Repeats longer than the folder's window (fold.hpp: first_repeat, fold_long_repeats), found and folded after folding.
#include "compressed/fold/fold.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace tit::trace::cformat {

std::array<std::size_t, 3> first_repeat(std::span<const std::uint32_t> seq, std::size_t min_len,
                                        std::size_t min_reps)
{
  // Candidate block lengths: the distances between consecutive occurrences of an item that come up most often (an
  // item met once per iteration of a long loop gives its body's length once per iteration).
  constexpr std::size_t kCandidates = 16;
  std::map<std::uint32_t, std::size_t> last;
  std::map<std::size_t, std::size_t> gaps; // distance -> how often
  for (std::size_t i = 0; i < seq.size(); ++i) {
    auto [it, first] = last.try_emplace(seq[i], i);
    if (!first) {
      std::size_t gap = i - it->second;
      if (gap >= min_len && 2 * gap <= seq.size())
        gaps[gap]++;
      it->second = i;
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> ranked(gaps.begin(), gaps.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](auto const& a, auto const& b) { return a.second > b.second; });
  std::vector<std::size_t> lengths;
  for (std::size_t k = 0; k < ranked.size() && k < kCandidates; ++k)
    lengths.push_back(ranked[k].first);
  std::array<std::size_t, 3> best{0, 0, 0};
  for (std::size_t len : lengths) {
    // the first run of (min_reps - 1) x len matches (min_reps whole blocks), extended as far as it goes
    const std::size_t need = (min_reps - 1) * len;
    std::size_t run = 0, i = 0;
    for (; i + len < seq.size(); ++i) {
      run = seq[i] == seq[i + len] ? run + 1 : 0;
      if (run >= need)
        break;
    }
    if (run < need)
      continue;
    std::size_t from = i + 1 - run;
    if (best[2] != 0 && from > best[0])
      continue; // a later start: i only grows from here
    while (i + 1 + len < seq.size() && seq[i + 1] == seq[i + 1 + len])
      ++i, ++run;
    std::size_t reps = (run + len) / len;
    if (best[2] == 0 || from < best[0] || (from == best[0] && (reps > best[2] || (reps == best[2] && len < best[1]))))
      best = {from, len, reps};
  }
  return best;
}

void fold_long_repeats(std::vector<std::uint32_t>& seq,
                       const std::function<std::uint32_t(std::span<const std::uint32_t>, std::size_t)>& loop)
{
  constexpr std::size_t kLong = kFoldWindow + 1;
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<std::uint32_t> out;
    std::size_t done = 0;
    while (done < seq.size()) {
      auto rest = std::span<const std::uint32_t>(seq).subspan(done);
      auto [start, len, reps] =
          rest.size() >= 3 * kLong ? first_repeat(rest, kLong, 3) : std::array<std::size_t, 3>{0, 0, 0};
      if (reps < 3) {
        out.insert(out.end(), rest.begin(), rest.end());
        break;
      }
      out.insert(out.end(), rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(start));
      out.push_back(loop(rest.subspan(start, len), reps));
      done += start + len * reps;
      changed = true;
    }
    seq = std::move(out);
  }
}

} // namespace tit::trace::cformat

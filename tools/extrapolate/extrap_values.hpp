// One rank's value streams of a folded trace, read token by token in the order of its actions: the class structures'
// walk (extrap_model.cpp) and the passes on the folded structures (extrap_unroll.cpp) read them. Internal to
// tools/extrapolate.
#pragma once

#include "extrap_model.hpp"

#include "compressed/compressed.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace tit::extrap {

/// Reads one value stream token by token (its repeats of runs, in order).
class Cursor {
public:
  explicit Cursor(const trace::cformat::Stream* s) : s_(s) {}

  /// The next token; false when the stream has none left.
  bool next(std::string& token)
  {
    if (!s_)
      return false;
    while (rep_ < s_->repeats.size()) {
      const auto& rep = s_->repeats[rep_];
      if (run_ < rep.length) {
        const auto& run = s_->runs[rep.first + run_];
        if (in_run_ < run.count) {
          token = run.is_int ? std::to_string(run.first + run.step * static_cast<std::int64_t>(in_run_)) : run.text;
          if (++in_run_ == run.count) {
            in_run_ = 0;
            ++run_;
          }
          return true;
        }
      }
      run_ = 0;
      in_run_ = 0;
      if (++iteration_ >= rep.count) {
        iteration_ = 0;
        ++rep_;
      }
    }
    return false;
  }

private:
  const trace::cformat::Stream* s_;
  std::size_t rep_ = 0;
  std::uint64_t iteration_ = 0;
  std::uint32_t run_ = 0;
  std::uint64_t in_run_ = 0;
};

inline bool is_volume_action(const std::string& name) { return name == "compute" || name == "sleep"; }

/// One rank's value streams, read in the order of its actions (for a walk of its structure).
class RankValues {
public:
  RankValues(const trace::cformat::Loaded& trace, int rank, const std::string& path) : rank_(rank), path_(path)
  {
    for (const trace::cformat::Stream& s : trace.blocks.at(trace.meta.ranks[rank].block))
      cursors_.emplace(std::pair(s.signature, s.slot), Cursor(&s));
  }

  /// The next token of value slot `ordinal` of signature `sig`; throws naming the file and the rank when that stream
  /// has ended (a corrupt compressed trace).
  std::string next(std::uint32_t sig, std::uint32_t ordinal)
  {
    std::string token;
    auto it = cursors_.find(std::pair(sig, ordinal));
    if (it == cursors_.end() || !it->second.next(token))
      throw ExtrapolationError(fmt::format("{}: error: rank {}: a value stream ends before its action (corrupt "
                                           "compressed trace)",
                                           path_, rank_));
    return token;
  }

  /// Reads the value tokens of one action of signature id `sig` (`s`), in slot order, and hands them to `use` unless
  /// the action is a volume (compute, sleep).
  template <class Use>
  void non_volume_values(std::uint32_t sig, const trace::cformat::Signature& s, Use&& use)
  {
    const bool volume = is_volume_action(s.name);
    std::uint32_t ordinal = 0;
    for (const trace::cformat::Slot& slot : s.slots) {
      if (slot.kind != trace::cformat::Slot::Kind::Value)
        continue;
      std::string token = next(sig, ordinal++);
      if (!volume)
        use(std::move(token));
    }
  }

private:
  std::map<std::pair<std::uint32_t, std::uint32_t>, Cursor> cursors_;
  int rank_;
  const std::string& path_;
};

} // namespace tit::extrap

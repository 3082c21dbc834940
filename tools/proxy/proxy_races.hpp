// Which message a receive from any source could take in another order of events than the one the proxy check
// follows (docs/proxy.md#receives-from-any-source): logical clocks of the ranks that receive from any source,
// carried by messages and by what collectives tell their members.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace tit::tracetool {

/// One entry per rank that receives from any source (at most AnySourceRaces::kMaxRanks).
using Clock = std::vector<std::uint32_t>;

/// Every entry the larger of the two.
void merge(Clock& into, const Clock& from);

/// A receive from any source, as the analysis keeps it.
struct AnySourceReceive {
  std::uint64_t post = 0;  ///< its number among its rank's receives
  int src = -1;            ///< the source of the message it took (-1: not yet matched)
  std::uint32_t known = 0; ///< its rank's clock once the rank knew it complete (0: not yet)
  const std::string* file = nullptr;
  std::uint64_t line = 0;
  bool ambiguous = false;  ///< a message it could have taken instead was found
};

/// Another message a receive from any source could take: rank `dst`'s receive number `post` (at `at`), the one
/// `src` sent.
struct OtherMatch {
  int dst = 0;
  std::uint64_t post = 0;
  int src = 0;
  std::string at;
};

class AnySourceRaces {
public:
  /// Ranks analysed, and receives kept per rank, tag and communicator.
  static constexpr int kMaxRanks = 64;
  static constexpr std::size_t kKept = 64;
  /// Other matches kept for exploring (the first ones found).
  static constexpr std::size_t kKeptOthers = 16;

  explicit AnySourceRaces(int ranks);
  /// Whether some rank received from any source (else clocks are empty and need not travel).
  bool active() const { return slots_ > 0; }
  /// Rank r's clock: what it knows of the ranks that receive from any source.
  Clock& clock(int r) { return clocks_[static_cast<std::size_t>(r)]; }
  /// What rank `from` knows of rank `of`'s clock.
  std::uint32_t known(int from, int of) const;
  /// Rank r posts its receive number `post` from any source: its record (null beyond kMaxRanks ranks).
  AnySourceReceive* posted(int r, std::uint32_t comm, int tag, std::uint64_t post, const std::string* file,
                           std::uint64_t line);
  /// A message from `src`, sent knowing `known` of dst's clock from `file`:`line`, is taken by dst's receive number
  /// `post` (~0: never received): an earlier receive from any source of dst, same tag and communicator, that took
  /// another source's message and that dst did not know complete when this one was sent, could have taken it.
  void taken(std::uint32_t comm, int dst, int tag, int src, std::uint32_t known, std::uint64_t post,
             const std::string* file, std::uint64_t line);
  /// Rank r knows that its receive completed; the message had clock `c`; `wild`: the receive's record, if from any
  /// source (its rank's clock ticks).
  void learn(int r, const Clock& c, AnySourceReceive* wild);
  /// The first kKeptOthers receives found ambiguous, each with a message it could take instead; how many in all.
  const std::vector<OtherMatch>& others() const { return others_; }
  std::uint64_t ambiguous() const { return ambiguous_; }
  /// The warnings, if any; `comm_name` names a communicator.
  void report(std::ostream& warnings, const std::function<std::string(std::uint32_t)>& comm_name) const;

private:
  std::vector<int> slot_of_; ///< rank -> its entry in the clocks (-1: none)
  int slots_ = 0;
  std::vector<Clock> clocks_;
  bool unanalysed_ = false;  ///< receives from any source of ranks beyond kMaxRanks
  std::map<std::tuple<std::uint32_t, int, int>, std::deque<AnySourceReceive>> kept_; ///< (comm, dst, tag)
  std::uint64_t ambiguous_ = 0;
  std::vector<OtherMatch> others_;
  struct First {
    std::uint32_t comm = 0;
    int dst = 0, tag = 0, took = 0, other = 0;
    std::string at, sent_at;
  } first_;
};

} // namespace tit::tracetool

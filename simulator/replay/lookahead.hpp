// A rank's action stream with a bounded look-ahead: what the trace does later with a request, which tells
// how a test (or a waitany) on it ended in the traced run. Knows nothing of SimGrid.
#pragma once

#include "trace/message_key.hpp"
#include "trace/reader.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace tit::replay {

/// What the rest of a rank's trace says of a pending request.
enum class Fate : std::uint8_t {
  Unknown,  ///< a waitall, waitany, testany, testall or testsome comes first (it may take the request), or the
            ///< window ends first: undecided
  Named,    ///< a later wait or test may name the request's key (trace::may_name): it was still pending in the traced run
  Forgotten ///< its key is posted again, or the trace ends, before any line names it: it was complete
};

/// The stream of one rank's actions, able to look up to `window` actions ahead of the one being replayed.
/// Actions looked at ahead are kept (copied) until replayed, so memory is bounded by the window.
class Lookahead {
public:
  static constexpr std::size_t kDefaultWindow = 1000;

  explicit Lookahead(std::unique_ptr<trace::RankReader> reader, std::size_t window = kDefaultWindow);

  /// The next action, as RankReader::next (its views stay valid until the following call).
  bool next(trace::Action& out);
  const std::string& file() const { return reader_->file(); }
  std::size_t window() const { return window_; }

  /// The fate of each request `keys` names (in that order) after the action last returned by next(), for
  /// rank `rank`: see Fate. Reads ahead as needed, at most `window` actions.
  std::vector<Fate> fates(int rank, const std::vector<trace::MessageKey>& keys);
  /// Whether the last call to fates() stopped at the window's end with some key undecided.
  bool window_exhausted() const { return exhausted_; }

private:
  struct Buffered {
    std::unique_ptr<std::string> text; ///< owns what the action's views point to (stable address)
    trace::Action action;
  };
  /// Reads one more action into the buffer; false at the end of the trace.
  bool read_ahead();

  std::unique_ptr<trace::RankReader> reader_;
  std::size_t window_;
  /// Made on the first look ahead (only tests and waitany look ahead): a rank that never looks ahead, as in
  /// most traces, keeps no deque nor spare action (about 800 bytes, thousands of ranks).
  struct Ahead {
    std::deque<Buffered> queue;
    Buffered current; ///< the action last returned from the queue (keeps its text alive)
  };
  std::unique_ptr<Ahead> ahead_;
  bool ended_ = false;
  bool exhausted_ = false;
};

} // namespace tit::replay

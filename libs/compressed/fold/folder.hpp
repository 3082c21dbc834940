// Folding one rank's items into nested loops as they arrive (RankCompressor's structure). Internal to fold/.
#pragma once

#include "compressed/fold/fold.hpp"

#include <vector>

namespace tit::trace::cformat {

namespace fold_detail {

/// Longest body, in items, that folding looks for (items may themselves be loops).
constexpr std::size_t kWindow = kFoldWindow;

/// Arguments of an action that are world ranks (partners), by position.
inline std::vector<std::size_t> partner_positions(const Action& a)
{
  if (is_message(a.kind))
    return {0};
  switch (a.kind) {
    case Kind::Wait:
    case Kind::Test:
      return a.wait_last_irecv ? std::vector<std::size_t>{} : std::vector<std::size_t>{0, 1};
    case Kind::SendRecv:
      return {1, 3};
    default:
      return {};
  }
}

/// One rank's sequence of items, folded as it grows.
class Folder {
public:
  explicit Folder(Tables& tables) : tables_(tables) {}

  /// The common case first: the sequence ends with a loop and the actions after it follow, leaf by leaf, the expansion
  /// of one iteration of its body (nested loops included). A cursor walks that expansion, and such an action only
  /// moves it (a few comparisons, nothing stored); when an iteration is complete, the loop grows by one. The other
  /// folds are tried only when an action breaks the repetition: the actions the cursor had matched then go through
  /// the full search one by one (push_searched), then the one that broke it. (The full search, up to 2 x 64
  /// comparisons per action, was most of the tracer's cost per call; the shortcut also keeps a loop whole rather than
  /// folding it into an outer pattern at some intermediate count.)
  void push(std::uint32_t signature)
  {
    if (!cursor_.empty() && follow(signature))
      return;
    push_other(signature);
  }

  /// Items of the sequence now (without folding what is pending: that would change the folds to come), the actions the
  /// cursor matched counted as items.
  std::size_t size() const { return seq_.size() + matched_; }

  /// The folded sequence (the rank's structure once every action is pushed).
  std::vector<Node>& items()
  {
    if (!cursor_.empty())
      break_repetition();
    if (unsettled_)
      settle();
    return seq_;
  }

private:
  /// push() of an action the cursor does not expect (or without a cursor).
  void push_other(std::uint32_t signature)
  {
    if (!cursor_.empty()) {
      break_repetition();
      if (unsettled_) { // the loop that grew may now fold into the loop before it, whose body the action may continue
        settle();
        if (tail_loop_ != kNoLoop && tail_loop_ + 1 == seq_.size()) {
          start_cursor();
          if (follow(signature))
            return;
          cursor_.clear();
        }
      }
    }
    push_searched(signature);
    if (tail_loop_ != kNoLoop && tail_loop_ + 1 == seq_.size())
      start_cursor();
  }

  /// Where the cursor is in the expansion of one iteration of the tail loop's body: a frame per level of nesting.
  struct Frame {
    std::uint32_t body;  ///< body id
    std::uint32_t pos;   ///< the item of the body the next action belongs to
    std::uint32_t size;  ///< the body's items
    std::uint64_t left;  ///< iterations of this body still to come, the current one included
  };

  /// The first action of the expansion from the top frame's item on: descends into loops.
  void descend()
  {
    while (true) {
      Frame& top = cursor_.back();
      const Node& n = tables_.node_at(tables_.body_nodes(top.body)[top.pos]);
      if (!n.loop) {
        expected_ = n.ref;
        return;
      }
      cursor_.push_back(Frame{n.ref, 0, body_size(n.ref), n.count});
    }
  }

  std::uint32_t body_size(std::uint32_t body) const
  {
    return static_cast<std::uint32_t>(tables_.body_nodes(body).size());
  }

  /// Whether the action is the one the cursor expects; then the cursor moves past it, and the loop grows when that
  /// completes an iteration.
  bool follow(std::uint32_t signature)
  {
    if (expected_ != signature)
      return false;
    ++matched_;
    if (advance()) { // a whole iteration of the body (the cursor is back at its start)
      seq_[tail_loop_].count += 1;
      unsettled_ = true;
      matched_ = 0;
    }
    return true;
  }

  /// Past the expected action; true when that ends the iteration of the tail loop's body (the cursor then starts the
  /// next one).
  bool advance()
  {
    bool whole = false;
    while (true) {
      Frame& top = cursor_.back();
      if (++top.pos < top.size)
        break;
      if (cursor_.size() == 1) { // the tail loop's body
        top.pos = 0;
        whole = true;
        break;
      }
      if (--top.left > 0) {
        top.pos = 0;
        break;
      }
      cursor_.pop_back();
    }
    descend();
    return whole;
  }

  void start_cursor()
  {
    cursor_.clear();
    std::uint32_t body = seq_[tail_loop_].ref;
    cursor_.push_back(Frame{body, 0, body_size(body), 1});
    descend();
  }

  /// The repetition is broken: the actions matched since the last whole iteration go through the full search, in
  /// order (the expansion of the body regenerated by a fresh cursor as they go: nothing stored, however long an
  /// iteration is).
  void break_repetition()
  {
    std::uint64_t n = matched_;
    matched_ = 0;
    start_cursor(); // its frames hold ids and counts of bodies and nodes, which the searches below do not change
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint32_t action = expected_;
      advance();
      push_searched(action);
    }
    cursor_.clear();
  }

  /// One action without the cursor: appended when it continues the body of a flat tail loop (the cursor's rule, at the
  /// level of the sequence's items), else appended and every fold tried.
  void push_searched(std::uint32_t signature)
  {
    Node x{false, signature, 1};
    if (tail_loop_ < seq_.size()) {
      const std::vector<std::uint32_t>& body = tables_.body_nodes(seq_[tail_loop_].ref);
      std::size_t p = seq_.size() - 1 - tail_loop_;
      if (p < body.size() && tables_.node_at(body[p]) == x) {
        if (p + 1 < body.size()) {
          seq_.push_back(x);
        } else {
          seq_.resize(tail_loop_ + 1);
          seq_.back().count += 1;
          unsettled_ = true;
        }
        return;
      }
    }
    if (unsettled_)
      settle();
    seq_.push_back(x);
    settle();
  }

  bool body_equals_tail(std::uint32_t body, std::size_t k) const
  {
    const auto& ids = tables_.body_nodes(body);
    if (ids.size() != k)
      return false;
    std::size_t from = seq_.size() - k;
    for (std::size_t i = 0; i < k; ++i)
      if (!(tables_.node_at(ids[i]) == seq_[from + i]))
        return false;
    return true;
  }

  /// [... loop(B, c), tail] with tail == B  ->  [... loop(B, c + 1)]
  bool fold_into_previous_loop()
  {
    std::size_t n = seq_.size();
    for (std::size_t k = 1; k <= kWindow && k < n; ++k) {
      Node& before = seq_[n - 1 - k];
      if (before.loop && body_equals_tail(before.ref, k)) {
        before.count += 1;
        seq_.resize(n - k);
        return true;
      }
    }
    return false;
  }

  /// [... X, X] with X the last k items  ->  [... loop(X, 2)]
  bool fold_repeated_tail()
  {
    std::size_t n = seq_.size();
    for (std::size_t k = 1; k <= kWindow && 2 * k <= n; ++k) {
      if (!(seq_[n - 1] == seq_[n - 1 - k]))
        continue;
      if (!std::equal(seq_.begin() + static_cast<std::ptrdiff_t>(n - 2 * k),
                      seq_.begin() + static_cast<std::ptrdiff_t>(n - k),
                      seq_.begin() + static_cast<std::ptrdiff_t>(n - k)))
        continue;
      std::vector<Node> tail(seq_.begin() + static_cast<std::ptrdiff_t>(n - k), seq_.end());
      std::uint32_t body = tables_.body_of(tail);
      seq_.resize(n - 2 * k);
      seq_.push_back(Node{true, body, 2});
      return true;
    }
    return false;
  }

  /// Folds the tail until nothing folds; the last item, when it is a loop, is the one the next actions may repeat.
  void settle()
  {
    while (fold_into_previous_loop() || fold_repeated_tail()) {
    }
    tail_loop_ = !seq_.empty() && seq_.back().loop ? seq_.size() - 1 : kNoLoop;
    unsettled_ = false;
  }

  static constexpr std::size_t kNoLoop = ~std::size_t{0};
  Tables& tables_;
  std::vector<Node> seq_;
  std::size_t tail_loop_ = kNoLoop; ///< position of the loop whose body the items after it start, or kNoLoop
  bool unsettled_ = false;          ///< that loop grew: folds not tried since
  std::vector<Frame> cursor_;       ///< empty: no cursor (the sequence does not end with a loop)
  std::uint64_t matched_ = 0;       ///< actions the cursor matched since the last whole iteration
  std::uint32_t expected_ = 0;      ///< the action the cursor expects next
};

} // namespace fold_detail

} // namespace tit::trace::cformat

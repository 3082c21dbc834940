#include "replay/lookahead.hpp"

#include <algorithm>
#include <utility>

using tit::trace::Action;
using tit::trace::Kind;

namespace tit::replay {
namespace {

/// What one later action says of a request key.
enum class Mention : std::uint8_t { None, Names, Posts, Generic };

Mention mention(const Action& a, int rank, const trace::MessageKey& key)
{
  switch (a.kind) {
    case Kind::Wait:
    case Kind::Test:
      if (a.wait_last_irecv) // dialect 1's wait names no key
        return Mention::Generic;
      return trace::may_name(trace::named_key(a), key) ? Mention::Names : Mention::None;
    default: {
      auto const& t = trace::traits(a.kind);
      if (t.group == trace::Group::Message && t.nonblocking) // isend, issend, ibsend, irecv
        return trace::posted_key(a, rank) == key ? Mention::Posts : Mention::None;
      return t.group == trace::Group::Completion ? Mention::Generic : Mention::None; // waitall, waitany, test*
    }
  }
}

/// Points the views of `a` (into `from`) at the same characters of `to`, a copy of `from`.
void relocate(Action& a, std::string_view from, const std::string& to)
{
  auto move = [&](std::string_view v) {
    return std::string_view(to.data() + (v.data() - from.data()), v.size());
  };
  a.name = move(a.name);
  for (auto& arg : a.args)
    arg = move(arg);
  a.text = std::string_view(to);
}

} // namespace

Lookahead::Lookahead(std::unique_ptr<trace::RankReader> reader, std::size_t window)
    : reader_(std::move(reader)), window_(window)
{
}

bool Lookahead::next(Action& out)
{
  if (not ahead_ || ahead_->queue.empty())
    return not ended_ && reader_->next(out);
  ahead_->current = std::move(ahead_->queue.front()); // the text's address is stable: out's views stay valid
  ahead_->queue.pop_front();
  std::swap(out, ahead_->current.action);
  return true;
}

bool Lookahead::read_ahead()
{
  if (ended_)
    return false;
  Buffered b;
  if (not reader_->next(b.action)) {
    ended_ = true;
    return false;
  }
  b.text = std::make_unique<std::string>(b.action.text);
  relocate(b.action, b.action.text, *b.text);
  ahead_->queue.push_back(std::move(b));
  return true;
}

std::vector<Fate> Lookahead::fates(int rank, const std::vector<trace::MessageKey>& keys)
{
  if (not ahead_)
    ahead_ = std::make_unique<Ahead>();
  auto const& queue = ahead_->queue;
  std::vector<Fate> result(keys.size(), Fate::Unknown);
  std::vector<bool> decided(keys.size(), false);
  std::size_t open = keys.size();
  exhausted_ = false;
  for (std::size_t i = 0; open > 0; ++i) {
    if (i == queue.size() && (i >= window_ || not read_ahead())) {
      if (i >= window_) { // undecided keys stay Unknown
        exhausted_ = true;
        break;
      }
      for (std::size_t k = 0; k < keys.size(); ++k) // the trace ends: never named again
        if (not decided[k])
          result[k] = Fate::Forgotten;
      break;
    }
    const Action& a = queue[i].action;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (decided[k])
        continue;
      switch (mention(a, rank, keys[k])) {
        case Mention::None:
          continue;
        case Mention::Names:
          result[k] = Fate::Named;
          break;
        case Mention::Posts:
          result[k] = Fate::Forgotten;
          break;
        case Mention::Generic:
          result[k] = Fate::Unknown;
          break;
      }
      decided[k] = true;
      --open;
    }
  }
  return result;
}

} // namespace tit::replay

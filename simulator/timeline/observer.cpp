#include "timeline/observer.hpp"

namespace tit::timeline {

using trace::Kind;

std::string_view arguments_of(const trace::Action& action)
{
  std::string_view text = action.text;
  auto at = text.find(action.name);
  if (at == std::string_view::npos)
    return {};
  text.remove_prefix(at + action.name.size());
  auto first = text.find_first_not_of(" \t");
  return first == std::string_view::npos ? std::string_view{} : text.substr(first);
}

std::string_view category_of(const trace::Action& action)
{
  switch (action.kind) {
    case Kind::Compute:
    case Kind::Sleep:
      return "compute";
    case Kind::Send: case Kind::Isend: case Kind::Recv: case Kind::Irecv: case Kind::SendRecv: case Kind::Ssend:
    case Kind::Issend: case Kind::Bsend: case Kind::Ibsend:
      return "p2p";
    case Kind::Wait: case Kind::WaitAll: case Kind::WaitAny: case Kind::Test: case Kind::TestAny:
    case Kind::TestAll: case Kind::TestSome:
      return "wait";
    case Kind::NonBlockingCollective:
      return "collective";
    default:
      return trace::is_collective(action.kind) ? "collective" : "other";
  }
}

} // namespace tit::timeline

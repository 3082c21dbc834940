#include "timeline/observer.hpp"

#include "trace/writer.hpp"

namespace tit::timeline {

using trace::Kind;

std::string arguments_of(const trace::Action& action)
{
  std::string args;
  trace::append_arguments(args, action, action.dialect);
  return args;
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

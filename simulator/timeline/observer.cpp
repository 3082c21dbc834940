#include "timeline/observer.hpp"

#include "trace/writer.hpp"

#include <fmt/format.h>

namespace tit::timeline {


std::string arguments_of(const trace::Action& action)
{
  std::string args;
  trace::append_arguments(args, action, action.dialect);
  return args;
}

std::string incomplete_note(double time, std::string_view error)
{
  return fmt::format("# incomplete: the replay stopped at {} s: {}\n", time, error.substr(0, error.find('\n')));
}

std::string_view category_of(const trace::Action& action)
{
  return trace::traits(action.kind).category;
}

} // namespace tit::timeline

#include "timeline/observer.hpp"

#include "trace/writer.hpp"

namespace tit::timeline {


std::string arguments_of(const trace::Action& action)
{
  std::string args;
  trace::append_arguments(args, action, action.dialect);
  return args;
}

std::string_view first_line(std::string_view report)
{
  return report.substr(0, report.find('\n'));
}

std::string_view category_of(const trace::Action& action)
{
  return trace::traits(action.kind).category;
}

} // namespace tit::timeline

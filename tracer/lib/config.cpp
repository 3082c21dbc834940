#include "config.hpp"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace tit::tracer {

namespace {

const char* env(const char* name)
{
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

bool parse_double(std::string_view s, double& out)
{
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

std::string bad(const char* name, const char* value, const char* expected)
{
  return std::string(name) + "='" + value + "': expected " + expected;
}

} // namespace

std::string read_config(Config& c)
{
  if (const char* v = env("TIT_TRACE_DIR"))
    c.dir = v;
  if (const char* v = env("TIT_TRACE_COMPUTE")) {
    std::string_view s(v);
    if (s != "auto" && s != "instructions" && s != "cpu-time" && s != "wall-time")
      return bad("TIT_TRACE_COMPUTE", v, "one of auto, instructions, cpu-time, wall-time");
    c.compute = v;
  }
  if (const char* v = env("TIT_TRACE_CPU_CLOCK")) {
    std::string_view s(v);
    if (s != "auto" && s != "switches" && s != "syscall")
      return bad("TIT_TRACE_CPU_CLOCK", v, "one of auto, switches, syscall");
    c.cpu_clock = v;
  }
  if (const char* v = env("TIT_TRACE_RATE")) {
    if (!parse_double(v, c.rate) || !(c.rate > 0))
      return bad("TIT_TRACE_RATE", v, "a positive number of instructions per second, e.g. 2.5e9");
  }
  if (const char* v = env("TIT_TRACE_MIN_BURST")) {
    if (!parse_double(v, c.min_burst) || !(c.min_burst >= 0))
      return bad("TIT_TRACE_MIN_BURST", v, "a duration in seconds >= 0, e.g. 1e-6");
  }
  if (const char* v = env("TIT_TRACE_TIMINGS")) {
    std::string_view s(v);
    if (s != "0" && s != "1")
      return bad("TIT_TRACE_TIMINGS", v, "0 or 1");
    c.timings = s == "1";
  }
  if (const char* v = env("TIT_TRACE_BUFFER")) {
    double b = 0;
    if (!parse_double(v, b) || b < 4096 || b > 1e9)
      return bad("TIT_TRACE_BUFFER", v, "a buffer size in bytes between 4096 and 1e9");
    c.buffer = static_cast<std::size_t>(b);
  }
  return {};
}

} // namespace tit::tracer

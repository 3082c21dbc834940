#include "config.hpp"

#include "compressed/compressed.hpp"

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
  if (const char* v = env("TIT_TRACE_FORMAT")) {
    // a comma-separated list of the formats to write, each once
    c.text = c.compressed = false;
    std::string_view rest(v);
    while (true) {
      std::string_view f = rest.substr(0, rest.find(','));
      bool& on = f == "text" ? c.text : c.compressed;
      if ((f != "text" && f != "compressed") || on)
        return bad("TIT_TRACE_FORMAT", v, "text, compressed, or both: text,compressed");
      on = true;
      if (f.size() == rest.size())
        break;
      rest.remove_prefix(f.size() + 1);
    }
  }
  if (const char* v = env("TIT_TRACE_VALUES")) {
    std::string_view s(v);
    bool ok = s == "exact" || s == "stats";
    if (s.starts_with("binned:")) {
      try {
        trace::parse_value_mode(s); // 0 < R < 1
        ok = true;
      } catch (const trace::TraceError&) {
      }
    }
    if (!ok)
      return bad("TIT_TRACE_VALUES", v, "exact, binned:R with 0 < R < 1 (e.g. binned:0.01), or stats");
    c.values = v;
  }
  if (c.timings && !c.text)
    return bad("TIT_TRACE_TIMINGS", "1",
               "0 when TIT_TRACE_FORMAT has no text (the timings name lines of rank-<r>.txt: use text,compressed)");
  return {};
}

} // namespace tit::tracer

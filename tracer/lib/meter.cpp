#include "meter.hpp"

#include <asm/unistd.h>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace tit::tracer {

namespace {

double clock_seconds(clockid_t id)
{
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Instructions retired by this thread in user space, counting from now on.
int open_instruction_counter(std::string& why)
{
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_INSTRUCTIONS;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  long fd = syscall(__NR_perf_event_open, &attr, 0 /* this thread */, -1 /* any cpu */, -1, 0);
  if (fd < 0) {
    why = std::string("perf_event_open(PERF_COUNT_HW_INSTRUCTIONS): ") + std::strerror(errno);
    return -1;
  }
  ioctl(static_cast<int>(fd), PERF_EVENT_IOC_RESET, 0);
  ioctl(static_cast<int>(fd), PERF_EVENT_IOC_ENABLE, 0);
  std::uint64_t value = 0;
  if (::read(static_cast<int>(fd), &value, sizeof value) != static_cast<ssize_t>(sizeof value)) {
    why = std::string("reading the instruction counter: ") + std::strerror(errno);
    ::close(static_cast<int>(fd));
    return -1;
  }
  return static_cast<int>(fd);
}

} // namespace

const char* mode_name(ComputeMode m)
{
  switch (m) {
    case ComputeMode::Instructions: return "instructions";
    case ComputeMode::CpuTime: return "cpu-time";
    case ComputeMode::WallTime: return "wall-time";
  }
  return "?";
}

std::string Meter::start(const std::string& requested, double rate)
{
  rate_ = rate;
  std::string why;
  if (requested == "auto" || requested == "instructions") {
    perf_fd_ = open_instruction_counter(why);
    if (perf_fd_ >= 0) {
      mode_ = ComputeMode::Instructions;
      return {};
    }
    mode_ = ComputeMode::CpuTime;
    return why;
  }
  mode_ = requested == "wall-time" ? ComputeMode::WallTime : ComputeMode::CpuTime;
  return {};
}

void Meter::stop()
{
  if (perf_fd_ >= 0)
    ::close(perf_fd_);
  perf_fd_ = -1;
}

std::string Meter::describe() const
{
  switch (mode_) {
    case ComputeMode::Instructions:
      return "instructions (user-space instructions retired, perf_event_open)";
    case ComputeMode::CpuTime:
      return "cpu-time x rate (ESTIMATE: thread CPU time x nominal rate, not measured instructions)";
    case ComputeMode::WallTime:
      return "wall-time x rate (ESTIMATE: wall-clock time x nominal rate, not measured instructions)";
  }
  return {};
}

double Meter::read() const
{
  switch (mode_) {
    case ComputeMode::Instructions: {
      std::uint64_t value = 0;
      if (::read(perf_fd_, &value, sizeof value) != static_cast<ssize_t>(sizeof value))
        return 0; // cannot happen once the first read succeeded; a zero burst is then skipped
      return static_cast<double>(value);
    }
    case ComputeMode::CpuTime: return clock_seconds(CLOCK_THREAD_CPUTIME_ID) * rate_;
    case ComputeMode::WallTime: return clock_seconds(CLOCK_MONOTONIC) * rate_;
  }
  return 0;
}

double Meter::now() { return clock_seconds(CLOCK_MONOTONIC); }

} // namespace tit::tracer

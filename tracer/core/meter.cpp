#include "meter.hpp"

#include <algorithm>
#include <asm/unistd.h>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <ctime>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define TIT_HAVE_RDPMC 1
#else
#define TIT_HAVE_RDPMC 0
#endif

namespace tit::tracer {

namespace {

std::int64_t clock_ns(clockid_t id)
{
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int perf_open(perf_event_attr& attr, std::string& why, const char* what)
{
  long fd = syscall(__NR_perf_event_open, &attr, 0 /* this thread */, -1 /* any cpu */, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) {
    why = std::string("perf_event_open(") + what + "): " + std::strerror(errno);
    return -1;
  }
  return static_cast<int>(fd);
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
  int fd = perf_open(attr, why, "PERF_COUNT_HW_INSTRUCTIONS");
  if (fd < 0)
    return -1;
  ioctl(fd, PERF_EVENT_IOC_RESET, 0);
  ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  std::uint64_t value = 0;
  if (::read(fd, &value, sizeof value) != static_cast<ssize_t>(sizeof value)) {
    why = std::string("reading the instruction counter: ") + std::strerror(errno);
    ::close(fd);
    return -1;
  }
  return fd;
}

// A record's 8-byte word at ring position `pos` (records are 8-byte aligned: no word straddles the end).
std::uint64_t ring_word(const unsigned char* data, std::uint64_t size, std::uint64_t pos)
{
  std::uint64_t v = 0;
  std::memcpy(&v, data + (pos & (size - 1)), sizeof v);
  return v;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// FastClock

void FastClock::calibrate()
{
  tsc_ = false;
#if TIT_HAVE_RDPMC
  char name[32] = {};
  if (FILE* f = std::fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r")) {
    if (std::fgets(name, sizeof name, f) == nullptr)
      name[0] = '\0';
    std::fclose(f);
  }
  if (std::strcmp(name, "tsc\n") != 0)
    return;
  // A (monotonic ns, tick) pair read back to back; retried when the thread was interrupted between.
  auto pair = [](std::int64_t& ns, std::uint64_t& tick) {
    for (int attempt = 0;; ++attempt) {
      std::int64_t a = clock_ns(CLOCK_MONOTONIC);
      std::uint64_t t = __rdtsc();
      std::int64_t b = clock_ns(CLOCK_MONOTONIC);
      if (b - a < 1000 || attempt == 100) {
        ns = a + (b - a) / 2;
        tick = t;
        return;
      }
    }
  };
  std::int64_t n0 = 0, n1 = 0;
  std::uint64_t t0 = 0, t1 = 0;
  pair(n0, t0);
  do
    pair(n1, t1);
  while (n1 - n0 < 2000000);
  if (t1 <= t0)
    return;
  ns_per_tick_32_ = static_cast<std::uint64_t>(std::ldexp(static_cast<double>(n1 - n0) / static_cast<double>(t1 - t0), 32) + 0.5);
  base_ns_ = n1;
  base_tick_ = t1;
  tsc_ = true;
#endif
}

std::int64_t FastClock::ns() const
{
#if TIT_HAVE_RDPMC
  if (tsc_) {
    __extension__ using Wide = __int128;
    auto ticks = static_cast<std::int64_t>(__rdtsc() - base_tick_);
    return base_ns_ + static_cast<std::int64_t>((static_cast<Wide>(ticks) * static_cast<Wide>(ns_per_tick_32_)) >> 32);
  }
#endif
  return clock_ns(CLOCK_MONOTONIC);
}

// ---------------------------------------------------------------------------------------------
// SwitchClock

std::string SwitchClock::open(std::size_t data_pages, const FastClock& clock)
{
  close();
  clock_ = &clock;
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_DUMMY; // counts nothing: only the side-band switch records are wanted
  attr.context_switch = 1;
  attr.sample_id_all = 1;
  attr.sample_type = PERF_SAMPLE_TIME; // every record ends with its time
  attr.use_clockid = 1;
  attr.clockid = CLOCK_MONOTONIC; // only differences (switch-in minus switch-out) are used, on the same time base as FastClock
  attr.exclude_kernel = 1;        // allowed to unprivileged users with perf_event_paranoid <= 2
  attr.exclude_hv = 1;
  attr.watermark = 1;
  attr.wakeup_watermark = 1u << 30; // nobody polls: never wake anyone
  std::string why;
  int fd = perf_open(attr, why, "context-switch records");
  if (fd < 0)
    return why;
  long page = sysconf(_SC_PAGESIZE);
  std::size_t bytes = static_cast<std::size_t>(page) * (1 + data_pages);
  void* map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    why = std::string("mapping the context-switch records (") + std::to_string(bytes / 1024) +
          " KiB of locked memory; see perf_event_mlock_kb and ulimit -l): " + std::strerror(errno);
    ::close(fd);
    return why;
  }
  fd_ = fd;
  page_ = static_cast<perf_event_mmap_page*>(map);
  map_bytes_ = bytes;
  std::uint64_t offset = page_->data_offset != 0 ? page_->data_offset : static_cast<std::uint64_t>(page);
  size_ = page_->data_size != 0 ? page_->data_size : static_cast<std::uint64_t>(page) * data_pages;
  data_ = static_cast<const unsigned char*>(map) + offset;
  tail_ = __atomic_load_n(&page_->data_head, __ATOMIC_ACQUIRE);
  __atomic_store_n(&page_->data_tail, tail_, __ATOMIC_RELEASE);
  off_ns_ = 0;
  out_at_ = -1;
  resyncs_ = 0;
  lost_ = false;
  start_wall_ = clock_->ns();
  anchor_wall_ = 0;
  cpu_at_open_ = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  last_value_ = 0;
  return {};
}

void SwitchClock::close()
{
  if (page_ != nullptr)
    munmap(page_, map_bytes_);
  if (fd_ >= 0)
    ::close(fd_);
  page_ = nullptr;
  fd_ = -1;
}

void SwitchClock::drain(std::uint64_t head)
{
  // The kernel drops records when fewer bytes than a record are free: a ring that full at this point
  // may have lost some, and the time they held is unknown.
  bool maybe_lost = head - tail_ > size_ - 64;
  while (tail_ < head) {
    std::uint64_t header = ring_word(data_, size_, tail_);
    perf_event_header h{};
    std::memcpy(&h, &header, sizeof h);
    if (h.size < sizeof h || (h.size & 7) != 0) { // not a record boundary: give up on this data
      maybe_lost = true;
      tail_ = head;
      break;
    }
    if (h.type == PERF_RECORD_SWITCH && h.size >= 16) {
      auto t = static_cast<std::int64_t>(ring_word(data_, size_, tail_ + h.size - 8));
      if ((h.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0) {
        out_at_ = t;
      } else if (out_at_ >= 0) {
        off_ns_ += t - out_at_;
        out_at_ = -1;
      }
    } else if (h.type == PERF_RECORD_LOST) {
      maybe_lost = true;
    }
    tail_ += h.size;
  }
  __atomic_store_n(&page_->data_tail, tail_, __ATOMIC_RELEASE);
  if (maybe_lost) {
    lost_ = true;
    ++resyncs_;
  }
}

std::int64_t SwitchClock::cpu_ns()
{
  for (;;) {
    std::uint64_t head = __atomic_load_n(&page_->data_head, __ATOMIC_ACQUIRE);
    if (head != tail_)
      drain(head);
    std::int64_t now = clock_->ns() - start_wall_;
    bool anchor = lost_ || now - anchor_wall_ > kAnchorNs; // one system call per 50 us at most
    std::int64_t cpu = anchor ? clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_at_open_ : 0;
    // A switch after the head was loaded falls inside this reading, and its records are not drained:
    // subtracting them later would count the gap twice where the anchor already left it out (an
    // under-reading as long as the preemption, up to tens of ms on a loaded machine). Read again.
    if (__atomic_load_n(&page_->data_head, __ATOMIC_ACQUIRE) != head)
      continue;
    if (anchor) {
      // No switch since `head`: every record up to it is consumed and the thread ran throughout, so
      // nothing is pending, and the kernel's count is the clock's value at `now`.
      off_ns_ = now - cpu;
      out_at_ = -1;
      anchor_wall_ = now;
      lost_ = false;
    }
    last_value_ = std::max(now - off_ns_, last_value_);
    return last_value_;
  }
}

// ---------------------------------------------------------------------------------------------
// Meter

const char* mode_name(ComputeMode m)
{
  switch (m) {
    case ComputeMode::Instructions: return "instructions";
    case ComputeMode::CpuTime: return "cpu-time";
    case ComputeMode::WallTime: return "wall-time";
  }
  return "?";
}

std::string Meter::start(const std::string& requested, double rate, const std::string& cpu_clock,
                         std::string& cpu_why)
{
  rate_ = rate;
  std::string why;
  if (requested == "auto" || requested == "instructions") {
    perf_fd_ = open_instruction_counter(why);
    if (perf_fd_ >= 0) {
      mode_ = ComputeMode::Instructions;
      // The counter's page lets the thread read it with rdpmc where the kernel allows it.
      void* map = mmap(nullptr, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), PROT_READ, MAP_SHARED, perf_fd_, 0);
      counter_page_ = map == MAP_FAILED ? nullptr : static_cast<perf_event_mmap_page*>(map);
      return {};
    }
  }
  mode_ = requested == "wall-time" ? ComputeMode::WallTime : ComputeMode::CpuTime;
  clock_.calibrate();
  if (mode_ == ComputeMode::CpuTime && cpu_clock != "syscall") {
    cpu_why = switches_.open(4, clock_);
    if (!cpu_why.empty() && cpu_clock == "switches")
      cpu_why = "TIT_TRACE_CPU_CLOCK=switches but " + cpu_why;
  }
  return why;
}

void Meter::stop()
{
  if (counter_page_ != nullptr)
    munmap(counter_page_, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
  counter_page_ = nullptr;
  if (perf_fd_ >= 0)
    ::close(perf_fd_);
  perf_fd_ = -1;
  switches_.close();
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

std::string Meter::source() const
{
  switch (mode_) {
    case ComputeMode::Instructions:
      return counter_page_ != nullptr && counter_page_->cap_user_rdpmc != 0 ? "rdpmc" : "read(2) of the counter";
    case ComputeMode::CpuTime:
      return switches_.is_open() ? std::string("wall clock (") + (clock_.uses_tsc() ? "TSC" : "CLOCK_MONOTONIC") +
                                       ") minus descheduled intervals (perf context-switch records)"
                                 : "clock_gettime(CLOCK_THREAD_CPUTIME_ID)";
    case ComputeMode::WallTime: return clock_.uses_tsc() ? "TSC (calibrated against CLOCK_MONOTONIC)" : "clock_gettime(CLOCK_MONOTONIC)";
  }
  return {};
}

std::uint64_t Meter::read_instructions()
{
#if TIT_HAVE_RDPMC
  // The self-monitoring protocol of linux/perf_event.h: retry while the kernel updates the page.
  if (counter_page_ != nullptr && counter_page_->cap_user_rdpmc != 0) {
    volatile perf_event_mmap_page* pc = counter_page_;
    std::uint32_t seq = 0, index = 0;
    std::uint64_t count = 0;
    do {
      seq = pc->lock;
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
      index = pc->index;
      count = static_cast<std::uint64_t>(pc->offset);
      if (index != 0) {
        unsigned width = pc->pmc_width;
        auto raw = static_cast<std::uint64_t>(__rdpmc(static_cast<int>(index - 1)));
        // Sign-extend the counter's `width` bits.
        auto pmc = static_cast<std::int64_t>(raw << (64 - width)) >> (64 - width);
        count += static_cast<std::uint64_t>(pmc);
      }
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
    } while (pc->lock != seq);
    if (index != 0)
      return count;
    // index 0: the counter is not on the PMU right now (multiplexed); the kernel knows its value.
  }
#endif
  std::uint64_t value = 0;
  if (::read(perf_fd_, &value, sizeof value) != static_cast<ssize_t>(sizeof value))
    return 0; // cannot happen once the first read succeeded; a zero burst is then skipped
  return value;
}

std::int64_t Meter::read()
{
  switch (mode_) {
    case ComputeMode::Instructions: return static_cast<std::int64_t>(read_instructions());
    case ComputeMode::CpuTime: return switches_.is_open() ? switches_.cpu_ns() : clock_ns(CLOCK_THREAD_CPUTIME_ID);
    case ComputeMode::WallTime: return clock_.ns();
  }
  return 0;
}

double Meter::now() { return static_cast<double>(clock_ns(CLOCK_MONOTONIC)) * 1e-9; }

} // namespace tit::tracer

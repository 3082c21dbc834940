// The compute volume between MPI calls: instructions retired in user space (hardware counter
// through perf_event_open), or, where counters are unavailable, a clearly labelled estimate:
// thread CPU time (or, on request, wall-clock time) times a nominal instruction rate.
//
// Every MPI call reads the meter twice (entry and exit), so a reading must cost nanoseconds, not a
// system call: the instruction counter is read with rdpmc from its mmap'ed page where the kernel
// allows it, and thread CPU time is kept in user space as wall time minus the intervals the kernel
// reports the thread descheduled (PERF_RECORD_SWITCH records in a perf ring buffer). Each falls back
// to a read(2) / clock_gettime system call where that is not available.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

struct perf_event_mmap_page;

namespace tit::tracer {

enum class ComputeMode { Instructions, CpuTime, WallTime };

/// Monotonic nanoseconds at the cost of one rdtsc where the kernel itself keeps time with the TSC
/// (clocksource "tsc": constant rate, synchronised across CPUs); clock_gettime otherwise.
class FastClock {
public:
  /// Decides how to read; with the TSC, measures its rate against CLOCK_MONOTONIC (about 2 ms).
  void calibrate();
  bool uses_tsc() const { return tsc_; }
  std::int64_t ns() const;

private:
  bool tsc_ = false;
  std::uint64_t ns_per_tick_32_ = 0; ///< nanoseconds per tick in 32.32 fixed point (integer arithmetic per read)
  std::uint64_t base_tick_ = 0;
  std::int64_t base_ns_ = 0;
};

/// Thread CPU time without system calls: monotonic wall time since open() minus the time between
/// each switch-out and switch-in of this thread, from the kernel's context-switch records, anchored
/// to CLOCK_THREAD_CPUTIME_ID once per millisecond of readings and whenever the ring buffer may have
/// overflowed (a long burst with very many preemptions: records lost).
class SwitchClock {
public:
  SwitchClock() = default;
  SwitchClock(const SwitchClock&) = delete;
  SwitchClock& operator=(const SwitchClock&) = delete;
  ~SwitchClock() { close(); }

  /// Opens the records for the calling thread with a ring of `data_pages` pages (a power of two);
  /// wall time is read from `clock` (which must outlive this object).
  /// Returns an empty string, or why the records are unavailable.
  std::string open(std::size_t data_pages, const FastClock& clock);
  void close();
  bool is_open() const { return page_ != nullptr; }

  /// Nanoseconds this thread has been on a CPU since open().
  std::int64_t cpu_ns();
  /// Times records were possibly lost (the clock was then anchored to the system call).
  long resyncs() const { return resyncs_; }

private:
  int fd_ = -1;
  const FastClock* clock_ = nullptr;
  perf_event_mmap_page* page_ = nullptr;
  std::size_t map_bytes_ = 0;
  const unsigned char* data_ = nullptr;
  std::uint64_t size_ = 0;    ///< ring bytes (a power of two)
  std::uint64_t tail_ = 0;    ///< ring position consumed
  std::int64_t start_wall_ = 0;
  std::int64_t off_ns_ = 0;   ///< descheduled time, minus the corrections of resynchronisations
  std::int64_t out_at_ = -1;  ///< time of a switch-out whose switch-in is not read yet
  long resyncs_ = 0;
  bool lost_ = false;         ///< records may have been lost since the last anchor: anchor at the next reading
  // Anchors: at the first reading after kAnchorNs of wall time (and after records were lost), the clock
  // is set to the kernel's count of the thread's CPU time (CLOCK_THREAD_CPUTIME_ID since open()); the
  // switch records only interpolate between anchors. Wall time that the kernel did not give the thread
  // but that no switch record covers (interrupts, the hypervisor's steal: seen on folded runs of this VM,
  // 3-8 % over the kernel's count and always over, and single stalls of 80-90 us inside 135 us bursts)
  // is thus never counted in a reading taken more than kAnchorNs after the last anchor: every burst
  // longer than that ends on the kernel's count. At most one system call (about 0.4 us) per 50 us.
  static constexpr std::int64_t kAnchorNs = 50000;
  std::int64_t anchor_wall_ = 0;
  std::int64_t cpu_at_open_ = 0;
  std::int64_t last_value_ = 0; ///< the last value returned (readings never go backwards)

  /// Consumes the records up to `head`; sets lost_ when some may be missing.
  void drain(std::uint64_t head);
};

class Meter {
public:
  /// `requested`: "auto" (instructions, else cpu-time), "instructions", "cpu-time" or "wall-time".
  /// `cpu_clock`: "auto" (context-switch records, else the system call), "switches" or "syscall".
  /// Returns an empty string, or why the instruction counter could not be used ("auto" then falls
  /// back to cpu-time; "instructions" fails: the caller stops the run). `cpu_why` receives why
  /// the context-switch records could not be used, if they were asked for and are not.
  std::string start(const std::string& requested, double rate, const std::string& cpu_clock,
                    std::string& cpu_why);
  void stop();

  ComputeMode mode() const { return mode_; }
  double rate() const { return rate_; }
  /// Text for the trace header and the stderr notice.
  std::string describe() const;
  /// How the volumes are read (for the header): "rdpmc", "read(2)", "context-switch records", ...
  std::string source() const;
  long resyncs() const { return switches_.resyncs(); }

  /// The meter since start(), in counts: instructions, or nanoseconds of CPU or wall time. Integer
  /// arithmetic only: every MPI call reads it twice; the conversion to a volume is per burst.
  std::int64_t read();
  /// The volume (instructions, measured or estimated) of one count.
  double volume_per_count() const { return mode_ == ComputeMode::Instructions ? 1.0 : rate_ * 1e-9; }

  /// Monotonic wall-clock seconds (vDSO, cheap).
  static double now();

private:
  ComputeMode mode_ = ComputeMode::CpuTime;
  double rate_ = 1e9;
  int perf_fd_ = -1;
  perf_event_mmap_page* counter_page_ = nullptr; ///< the instruction counter's page (rdpmc)
  FastClock clock_;
  SwitchClock switches_;

  std::uint64_t read_instructions();
};

const char* mode_name(ComputeMode m);

} // namespace tit::tracer

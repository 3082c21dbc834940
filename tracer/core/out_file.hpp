// A buffered, binary-safe output file written with write(2): the buffer is flushed when full,
// on close and from signal handlers (flush_now is async-signal-safe). A failed write is fatal:
// the failure handler names the file and the reason, so a trace is never silently truncated.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace tit::tracer {

class OutFile {
public:
  static constexpr std::size_t kLineCopy = 64;
  /// Called when a write fails (after which the file is unusable); must not return.
  using FailHandler = void (*)(const std::string& path, int error_number);

  OutFile() = default;
  OutFile(const OutFile&) = delete;
  OutFile& operator=(const OutFile&) = delete;
  ~OutFile();

  /// Creates (truncates) `path`. Returns 0, or the errno of the failure.
  int open(const std::string& path, std::size_t buffer_size, FailHandler on_failure);
  bool is_open() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }

  /// Appends bytes; counts a line for every '\n'.
  void append(std::string_view bytes);
  /// Appends one line that ends with its only '\n' (the hot path of every traced call).
  /// `line` must be readable for kLineCopy bytes (the tracer's line buffer is larger): a short line
  /// is copied as a fixed-size block (a few vector moves, no call), the bytes past its end being
  /// overwritten by the next line.
  void append_line(std::string_view line)
  {
    if (line.size() <= kLineCopy && kLineCopy <= cap_ - used_) {
      std::memcpy(buf_ + used_, line.data(), kLineCopy);
      used_ += line.size();
      ++lines_;
    } else if (line.size() <= cap_ - used_) {
      std::memcpy(buf_ + used_, line.data(), line.size());
      used_ += line.size();
      ++lines_;
    } else {
      append(line);
    }
  }
  /// Lines completed so far (the number of the next line is lines() + 1).
  long long lines() const { return lines_; }

  /// Writes the buffer out; calls the failure handler on error.
  void flush();
  /// Writes the buffer out without allocating or reporting: for signal handlers and exit paths.
  /// Returns false on a write error.
  bool flush_now() noexcept;
  /// Flushes, fsyncs nothing, closes; the failure handler reports a close error too.
  void close();

private:
  int fd_ = -1;
  std::string path_;
  char* buf_ = nullptr;
  std::size_t cap_ = 0;
  std::size_t used_ = 0;
  long long lines_ = 0;
  FailHandler fail_ = nullptr;
};

} // namespace tit::tracer

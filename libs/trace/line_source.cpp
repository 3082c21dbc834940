// Physical lines of a plain or gzip-compressed file, read through zlib into one reused buffer.
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <zlib.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace tit::trace::detail {

namespace {

std::string open_failure(const std::string& path, int err)
{
  std::string msg = fmt::format("error: cannot open trace '{}': {}", path, std::strerror(err));
  rlimit lim{};
  if (err == EMFILE && getrlimit(RLIMIT_NOFILE, &lim) == 0)
    msg += fmt::format(" (this process may keep at most {} files open; one is kept open per rank trace)",
                       static_cast<unsigned long long>(lim.rlim_cur));
  return msg;
}

} // namespace

LineSource::LineSource(std::string path, std::size_t buffer_size)
    : path_(std::move(path)), capacity_(std::max<std::size_t>(buffer_size, 64))
{
  buf_ = std::make_unique_for_overwrite<char[]>(capacity_);
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0)
    throw TraceError(open_failure(path_, errno));
  ssize_t got = ::pread(fd_, head_, kHeadBytes, 0);
  head_size_ = got > 0 ? static_cast<std::size_t>(got) : 0;
  bool gzip = head().starts_with("\x1f\x8b");
  if (not gzip)
    return; // plain: read() straight into our buffer, no copy through zlib's
  errno = 0;
  gz_ = gzdopen(fd_, "rb"); // owns fd_ from now on
  if (gz_ == nullptr) {
    int err = errno != 0 ? errno : ENOMEM;
    ::close(fd_);
    throw TraceError(open_failure(path_, err));
  }
  fd_ = -1;
  // zlib's own buffers: large enough to read fast, small enough for thousands of open ranks
  gzbuffer(gz_, static_cast<unsigned>(std::clamp<std::size_t>(buffer_size / 4, 8192, 65536)));
}

LineSource::~LineSource()
{
  if (gz_ != nullptr)
    gzclose(gz_);
  if (fd_ >= 0)
    ::close(fd_);
}

std::size_t LineSource::read_some(char* dst, std::size_t room)
{
  if (fd_ >= 0) {
    while (true) {
      ssize_t n = ::read(fd_, dst, room);
      if (n >= 0)
        return static_cast<std::size_t>(n);
      if (errno != EINTR)
        throw TraceError(fmt::format("{}:{}: error: cannot read the trace: {}", path_, line_ + 1, std::strerror(errno)));
    }
  }
  int n = gzread(gz_, dst, static_cast<unsigned>(std::min<std::size_t>(room, 1u << 30)));
  int code = Z_OK;
  const char* why = n <= 0 ? gzerror(gz_, &code) : "";
  if (n < 0 || code == Z_BUF_ERROR) // zlib reports a truncated gzip stream as Z_BUF_ERROR, not as -1
    throw TraceError(fmt::format("{}:{}: error: cannot read the trace: {}", path_, line_ + 1,
                                 code == Z_ERRNO ? std::strerror(errno) : why));
  return static_cast<std::size_t>(n);
}

bool LineSource::next(std::string_view& line)
{
  for (;;) {
    const char* base = buf_.get();
    const void* nl = std::memchr(base + begin_ + scanned_, '\n', end_ - begin_ - scanned_);
    std::size_t stop = 0;
    if (nl != nullptr) {
      stop = static_cast<std::size_t>(static_cast<const char*>(nl) - base);
    } else if (eof_) {
      if (begin_ == end_)
        return false;
      stop = end_; // a last line without a newline is a line
    } else {
      scanned_ = end_ - begin_;
      refill();
      continue;
    }
    line = std::string_view(base + begin_, stop - begin_);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    begin_ = std::min(stop + 1, end_);
    scanned_ = 0;
    ++line_;
    return true;
  }
}

void LineSource::rewind()
{
  line_ = 0;
  begin_ = 0;
  scanned_ = 0;
  if (!dropped_)
    return; // the buffer still starts at the file's first byte
  bool back = gz_ != nullptr ? gzrewind(gz_) == 0 : ::lseek(fd_, 0, SEEK_SET) == 0;
  if (!back)
    throw TraceError(fmt::format("{}: error: cannot read the trace again from its start: {}", path_,
                                 std::strerror(errno)));
  end_ = 0;
  eof_ = false;
  dropped_ = false;
}

void LineSource::refill()
{
  if (begin_ > 0) { // move the partial line to the front
    dropped_ = true;
    std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == capacity_) { // one line longer than the buffer
    auto bigger = std::make_unique_for_overwrite<char[]>(capacity_ * 2);
    std::memcpy(bigger.get(), buf_.get(), end_);
    buf_ = std::move(bigger);
    capacity_ *= 2;
  }
  std::size_t n = read_some(buf_.get() + end_, capacity_ - end_);
  if (n == 0)
    eof_ = true;
  end_ += n;
}

} // namespace tit::trace::detail

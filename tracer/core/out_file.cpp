#include "out_file.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace tit::tracer {

OutFile::~OutFile()
{
  if (fd_ >= 0) {
    flush_now();
    ::close(fd_);
  }
  std::free(buf_);
}

int OutFile::open(const std::string& path, std::size_t buffer_size, FailHandler on_failure)
{
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return errno;
  buf_ = static_cast<char*>(std::malloc(buffer_size));
  if (buf_ == nullptr) {
    ::close(fd);
    return ENOMEM;
  }
  fd_ = fd;
  path_ = path;
  cap_ = buffer_size;
  used_ = 0;
  lines_ = 0;
  fail_ = on_failure;
  return 0;
}

void OutFile::append(std::string_view bytes)
{
  for (char c : bytes)
    lines_ += c == '\n';
  while (!bytes.empty()) {
    if (used_ == cap_)
      flush();
    std::size_t n = std::min(cap_ - used_, bytes.size());
    std::memcpy(buf_ + used_, bytes.data(), n);
    used_ += n;
    bytes.remove_prefix(n);
  }
}

bool OutFile::flush_now() noexcept
{
  std::size_t done = 0;
  while (done < used_) {
    ssize_t w = ::write(fd_, buf_ + done, used_ - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      if (w == 0)
        errno = ENOSPC; // write(2) returning 0 on a regular file: nothing more fits
      // Keep what was not written so that a later attempt does not reorder lines.
      std::memmove(buf_, buf_ + done, used_ - done);
      used_ -= done;
      return false;
    }
    done += static_cast<std::size_t>(w);
  }
  used_ = 0;
  return true;
}

void OutFile::flush()
{
  if (fd_ < 0)
    return;
  if (!flush_now()) {
    int e = errno;
    int fd = fd_;
    fd_ = -1;
    used_ = 0;
    ::close(fd);
    fail_(path_, e);
  }
}

void OutFile::close()
{
  if (fd_ < 0)
    return;
  flush();
  if (fd_ < 0)
    return;
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0)
    fail_(path_, errno);
}

} // namespace tit::tracer

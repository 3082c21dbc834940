#include "replay/child.hpp"

#include <poll.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>

namespace tit::replay {

namespace {

/// A child at work: its process, the read end of its pipe, what it wrote so far, and which work it runs.
struct Running {
  pid_t pid = -1;
  int fd = -1;
  std::string text;
  std::size_t index = 0;
};

/// Forks a child that runs `work` and writes "+" and its answer to a pipe ("+": the child answered; an empty answer
/// is still one). Nothing when the pipe or the fork failed.
std::optional<Running> start(const std::function<std::string()>& work, std::size_t index)
{
  int fds[2];
  if (pipe(fds) != 0)
    return std::nullopt;
  std::fflush(nullptr); // nothing buffered is written twice
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return std::nullopt;
  }
  if (pid == 0) {
    close(fds[0]);
    std::string out = "+" + work();
    for (std::size_t at = 0; at < out.size();) {
      ssize_t put = write(fds[1], out.data() + at, out.size() - at);
      if (put <= 0)
        break;
      at += static_cast<std::size_t>(put);
    }
    close(fds[1]);
    std::fflush(nullptr);
    _exit(0);
  }
  close(fds[1]);
  return Running{pid, fds[0], {}, index};
}

/// The answer of a child whose pipe is closed: waits for it.
std::optional<std::string> finish(Running& child)
{
  close(child.fd);
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (child.text.empty() || child.text.front() != '+' || not WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return std::nullopt;
  return child.text.substr(1);
}

} // namespace

std::vector<std::optional<std::string>> in_children(const std::vector<std::function<std::string()>>& works,
                                                    unsigned parallel)
{
  std::vector<std::optional<std::string>> out(works.size());
  std::vector<Running> running;
  std::size_t next = 0;
  char buffer[65536];
  while (next < works.size() || not running.empty()) {
    while (next < works.size() && running.size() < std::max(parallel, 1u)) {
      if (auto child = start(works[next], next))
        running.push_back(std::move(*child));
      ++next;
    }
    if (running.empty())
      continue;
    std::vector<pollfd> fds;
    for (auto const& r : running)
      fds.push_back({r.fd, POLLIN, 0});
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR)
        continue;
      for (auto& r : running) // poll itself failed: read each to its end in turn
        for (ssize_t got; (got = read(r.fd, buffer, sizeof buffer)) > 0;)
          r.text.append(buffer, static_cast<std::size_t>(got));
      for (auto& r : running)
        out[r.index] = finish(r);
      running.clear();
      continue;
    }
    for (std::size_t i = running.size(); i-- > 0;) {
      if (fds[i].revents == 0)
        continue;
      ssize_t got = read(running[i].fd, buffer, sizeof buffer);
      if (got > 0) {
        running[i].text.append(buffer, static_cast<std::size_t>(got));
        continue;
      }
      if (got < 0 && errno == EINTR)
        continue;
      out[running[i].index] = finish(running[i]); // end of the pipe (or an error reading it)
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return out;
}

std::optional<std::string> in_child(const std::function<std::string()>& work)
{
  return in_children({work}, 1).front();
}

unsigned usable_cpus()
{
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return 1;
  return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
}

} // namespace tit::replay

#include "replay/child.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

namespace tit::replay {

std::optional<std::string> in_child(const std::function<std::string()>& work)
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
    std::string out = "+" + work(); // "+": the child answered (an empty answer is still one)
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
  std::string text;
  char buffer[65536];
  for (ssize_t got; (got = read(fds[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<std::size_t>(got));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (text.empty() || text.front() != '+' || not WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return std::nullopt;
  return text.substr(1);
}

} // namespace tit::replay

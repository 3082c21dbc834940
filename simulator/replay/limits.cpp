#include "replay/limits.hpp"

#include <fmt/format.h>

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string_view>

namespace tit::replay {

std::optional<std::string> mapping_problem(std::size_t actors, int guard_pages, long max_map_count)
{
  if (guard_pages <= 0 || max_map_count <= 0)
    return std::nullopt;
  long need = 2 * static_cast<long>(actors) + kOtherMappings;
  if (need <= max_map_count)
    return std::nullopt;
  return fmt::format(
      "error: {} ranks need about {} memory mappings (each rank's stack and its guard page take two), but a process "
      "may hold {} (vm.max_map_count); expected a limit of at least {}: raise it with `sysctl -w "
      "vm.max_map_count={}` (as root), or drop the stacks' guard pages with --cfg=contexts/guard-size:0 and "
      "smaller stacks such as --cfg=contexts/stack-size:{} (KiB; a stack overflow then goes undetected)",
      actors, need, max_map_count, need, need, kUnguardedStackKiB);
}

std::optional<std::string> refused_setting(const std::vector<std::string>& cfg)
{
  std::map<std::string, std::string, std::less<>> last;
  for (auto const& c : cfg) {
    auto colon = c.find(':');
    if (colon == 0 || colon == std::string::npos)
      return fmt::format("error: --cfg={}: expected --cfg=NAME:VALUE (tit-replay --help lists the model parameters)", c);
    last[c.substr(0, colon)] = c.substr(colon + 1);
  }
  auto value = [&](std::string_view name) {
    auto it = last.find(name);
    return it == last.end() ? std::optional<std::string>() : std::optional<std::string>(it->second);
  };
  for (std::string_view kind : {"network", "cpu"}) {
    std::string optim = fmt::format("{}/optim", kind);
    std::string select = fmt::format("{}/maxmin-selective-update", kind);
    auto mode = value(optim);
    if (mode && *mode != "Lazy" && *mode != "Full" && *mode != "TI")
      return fmt::format("error: --cfg={}:{}: expected Lazy (the default), Full or TI", optim, *mode);
    auto selective = value(select);
    bool off = selective && (*selective == "no" || *selective == "off" || *selective == "false" || *selective == "0");
    if (off && (not mode || *mode == "Lazy"))
      return fmt::format("error: --cfg={}:{}: the lazy update ({}:Lazy, the default) needs selective update; expected "
                         "yes, or {}:Full with it",
                         select, *selective, optim, optim);
  }
  if (auto threads = value("contexts/nthreads"); threads && *threads != "1")
    return fmt::format("error: --cfg=contexts/nthreads:{}: tit-replay runs its ranks in one thread (they share the "
                       "MPI layer's state without locks); expected 1",
                       *threads);
  return std::nullopt;
}

std::optional<long> max_map_count()
{
  std::ifstream in("/proc/sys/vm/max_map_count");
  long value = 0;
  if (in >> value)
    return value;
  return std::nullopt;
}

void make_room_for_solver(std::size_t actors)
{
  constexpr rlim_t kMiB = rlim_t{1} << 20;
  rlim_t want = std::min<rlim_t>(120 * kMiB, 8 * kMiB + 512 * static_cast<rlim_t>(actors));
  rlimit lim{};
  if (getrlimit(RLIMIT_STACK, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur >= want)
    return;
  lim.rlim_cur = lim.rlim_max == RLIM_INFINITY ? want : std::min(want, lim.rlim_max);
  setrlimit(RLIMIT_STACK, &lim); // best effort: on failure the solver has the stack it had
}

} // namespace tit::replay

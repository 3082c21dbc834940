#include "local.hpp"

#include "result.hpp"

#include <atomic>
#include <mutex>
#include <thread>

namespace tit::sweep {

std::vector<const PlannedPoint*> pending_points(const Plan& plan, bool retry_failed)
{
  std::vector<const PlannedPoint*> todo;
  for (auto const& p : plan.points) {
    auto r = read_result(p.dir);
    if (not r.present || (retry_failed && r.exit_code != 0))
      todo.push_back(&p);
  }
  return todo;
}

Counts run_local(const Plan& plan, unsigned jobs, bool retry_failed, std::ostream& out, bool terminal)
{
  auto todo = pending_points(plan, retry_failed);
  Counts before = count_results(plan);
  std::size_t failed_before = before.failed;
  if (retry_failed)
    failed_before = 0; // the failed points are among todo
  Progress progress(out, terminal, plan.points.size(), plan.points.size() - todo.size());
  std::atomic<std::size_t> next{0};
  std::mutex m;
  std::size_t finished = 0, running = 0, failed = failed_before;
  auto worker = [&] {
    while (true) {
      std::size_t i = next++;
      if (i >= todo.size())
        return;
      {
        std::lock_guard lock(m);
        ++running;
      }
      auto r = run_point(*todo[i]);
      std::lock_guard lock(m);
      --running;
      ++finished;
      failed += r.present && r.exit_code != 0 ? 1 : 0;
      progress.update(finished, running, failed, todo.size(), finished == todo.size());
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, jobs); ++t)
    threads.emplace_back(worker);
  for (auto& t : threads)
    t.join();
  if (todo.empty())
    progress.update(0, 0, failed, 0, true);
  return collect(plan);
}

} // namespace tit::sweep

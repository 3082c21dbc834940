// Reference for the workload tests: replays the jobs of a workload (replay_multiple_manual form, one job a
// line: NAME TRACE_LIST SIZE START HOST_INDICES) in one simulation with SimGrid's own replayer (SMPI
// instances, smpi_replay_run) and prints, per rank, "JOB RANK END" with the simulated end at full precision.
// Compiled by run.sh against the installed libsimgrid-dev.
//
// usage: smpi_workload PLATFORM WORKLOAD [--cfg=... --log=...]
#include <simgrid/s4u.hpp>
#include <smpi/smpi.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Job {
  std::string name;
  std::vector<std::string> traces; // per rank
  int start = 0;
  std::vector<int> hosts;          // indices into the engine's host list
};

std::vector<Job> read_jobs(const std::string& path)
{
  std::string dir = path.substr(0, path.find_last_of('/') + 1);
  std::ifstream in(path);
  std::vector<Job> jobs;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Job job;
    std::string list, alloc;
    int size = 0;
    if (not(fields >> job.name >> list >> size >> job.start >> alloc))
      continue;
    std::istringstream indices(alloc);
    for (std::string index; std::getline(indices, index, ',');)
      job.hosts.push_back(std::stoi(index));
    std::ifstream traces(dir + list);
    for (std::string trace; std::getline(traces, trace) && static_cast<int>(job.traces.size()) < size;)
      job.traces.push_back(dir + trace);
    jobs.push_back(job);
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
    return a.start != b.start ? a.start < b.start : a.name < b.name;
  });
  return jobs;
}

} // namespace

int main(int argc, char* argv[])
{
  simgrid::s4u::Engine engine(&argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s PLATFORM WORKLOAD [--cfg=...]\n", argv[0]);
    return 2;
  }
  engine.load_platform(argv[1]);
  auto hosts = engine.get_all_hosts();
  static std::vector<Job> jobs = read_jobs(argv[2]);
  for (auto const& job : jobs)
    SMPI_app_instance_register(job.name.c_str(), nullptr, static_cast<int>(job.traces.size()));
  SMPI_init();
  // As SimGrid's replay_multiple_manual example: the ranks of a job are created at its start time.
  simgrid::s4u::Actor::create("launcher", hosts[0], [hosts] {
    for (auto const& job : jobs) {
      if (job.start > simgrid::s4u::Engine::get_clock())
        simgrid::s4u::this_actor::sleep_until(job.start);
      for (std::size_t r = 0; r < job.traces.size(); ++r) {
        const Job* j = &job;
        int rank = static_cast<int>(r);
        simgrid::s4u::Actor::create(job.name + "_" + std::to_string(r), hosts[static_cast<std::size_t>(job.hosts[r])],
                                    [j, rank] {
                                      smpi_replay_run(j->name.c_str(), rank, 0, j->traces[rank].c_str());
                                      std::printf("%s %d %.17g\n", j->name.c_str(), rank,
                                                  simgrid::s4u::Engine::get_clock());
                                    });
      }
    }
  });
  engine.run();
  SMPI_finalize();
  return 0;
}

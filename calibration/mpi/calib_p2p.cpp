// calib-p2p: point-to-point measurements between ranks 0 and 1, one CSV row per measurement:
//   send      time in MPI_Send, the receiver already waiting (its receive is posted)
//   recv      time in MPI_Recv, the message already sent (MPI_Probe saw it)
//   isend     time in MPI_Isend, the receiver already waiting
//   wait      time in the MPI_Wait of that isend, called at once: where the library copies a buffered message
//   pingpong  round trip: MPI_Send then MPI_Recv of the same size
//   copy      time in MPI_Sendrecv from rank 0 to itself (a local copy; not run by default)
//   test      time of one MPI_Test of a receive whose message has not been sent (size 0; the mean of a
//             batch of --poll-batch calls, the call being shorter than the clock's resolution allows)
//   iprobe    likewise, one MPI_Iprobe that finds no message (size 0)
// Sizes are sampled exponentially (log-uniform, stratified) between --min-size and --max-size and
// visited in random order; each size runs --warmup discarded iterations, then --reps measured ones.
#include "common.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

namespace {

using tit::calib::mpi::fail;

constexpr int kData = 1;
constexpr int kToken = 2;
const std::string kProgram = "calib-p2p";

struct Options {
  double min_size = 1;
  double max_size = 104857600;
  int sizes = 40;
  std::vector<double> extra_sizes;
  int reps = 10;
  int warmup = 3;
  unsigned seed = 1;
  std::vector<std::string> experiments{"send", "recv", "isend", "wait", "pingpong", "test", "iprobe"};
  int poll_batch = 1000;
  std::string output = "p2p.csv";
};

std::vector<long> sample_sizes(const Options& o)
{
  std::mt19937_64 rng(o.seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<long> out{static_cast<long>(o.min_size), static_cast<long>(o.max_size)};
  double lo = std::log(o.min_size);
  double hi = std::log(o.max_size);
  for (int i = 0; i < o.sizes; ++i) {
    double t = (i + u(rng)) / o.sizes;
    out.push_back(std::lround(std::exp(lo + t * (hi - lo))));
  }
  for (double e : o.extra_sizes)
    out.push_back(static_cast<long>(e));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

bool is_poll(const std::string& experiment)
{
  return experiment == "test" || experiment == "iprobe";
}

/// One measurement of a polling call (`test` or `iprobe`) on rank 1: the mean time of `batch` calls that find
/// nothing, rank 0 sending the message they look for only once rank 1 has measured (its token).
double measure_poll(const std::string& experiment, int rank, char* buf, int batch)
{
  double t = 0;
  if (rank == 1) {
    MPI_Request req = MPI_REQUEST_NULL;
    int flag = 0;
    if (experiment == "test")
      MPI_Irecv(buf, 1, MPI_BYTE, 0, kData, MPI_COMM_WORLD, &req);
    double t0 = MPI_Wtime();
    for (int i = 0; i < batch; ++i) {
      if (experiment == "test")
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      else
        MPI_Iprobe(0, kData, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      if (flag)
        fail(kProgram, "a polling call found a message that was not sent yet");
    }
    t = (MPI_Wtime() - t0) / batch;
    MPI_Send(nullptr, 0, MPI_BYTE, 0, kToken, MPI_COMM_WORLD);
    if (experiment == "test")
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    else
      MPI_Recv(buf, 1, MPI_BYTE, 0, kData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(nullptr, 0, MPI_BYTE, 1, kToken, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 1, MPI_BYTE, 1, kData, MPI_COMM_WORLD);
  }
  return t;
}

/// One measurement of `experiment` with `size` bytes; the time seen by the rank that measures (rank 0,
/// or rank 1 for recv), 0 on the other.
double measure(const std::string& experiment, int rank, char* buf, char* copy, int size)
{
  double t = 0;
  if (experiment == "copy") {
    if (rank == 0) {
      double t0 = MPI_Wtime();
      MPI_Sendrecv(buf, size, MPI_BYTE, 0, kData, copy, size, MPI_BYTE, 0, kData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      t = MPI_Wtime() - t0;
    }
  } else if (experiment == "send" || experiment == "isend" || experiment == "wait") {
    if (rank == 1) {
      MPI_Request req;
      MPI_Irecv(buf, size, MPI_BYTE, 0, kData, MPI_COMM_WORLD, &req);
      MPI_Send(nullptr, 0, MPI_BYTE, 0, kToken, MPI_COMM_WORLD);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(nullptr, 0, MPI_BYTE, 1, kToken, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (experiment == "send") {
        double t0 = MPI_Wtime();
        MPI_Send(buf, size, MPI_BYTE, 1, kData, MPI_COMM_WORLD);
        t = MPI_Wtime() - t0;
      } else {
        MPI_Request req;
        double t0 = MPI_Wtime();
        MPI_Isend(buf, size, MPI_BYTE, 1, kData, MPI_COMM_WORLD, &req);
        double t1 = MPI_Wtime();
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        t = experiment == "isend" ? t1 - t0 : MPI_Wtime() - t1;
      }
    }
  } else if (experiment == "recv") {
    if (rank == 0) {
      MPI_Send(buf, size, MPI_BYTE, 1, kData, MPI_COMM_WORLD);
      MPI_Recv(nullptr, 0, MPI_BYTE, 1, kToken, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Probe(0, kData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      double t0 = MPI_Wtime();
      MPI_Recv(buf, size, MPI_BYTE, 0, kData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      t = MPI_Wtime() - t0;
      MPI_Send(nullptr, 0, MPI_BYTE, 0, kToken, MPI_COMM_WORLD);
    }
  } else { // pingpong
    if (rank == 0) {
      double t0 = MPI_Wtime();
      MPI_Send(buf, size, MPI_BYTE, 1, kData, MPI_COMM_WORLD);
      MPI_Recv(buf, size, MPI_BYTE, 1, kData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      t = MPI_Wtime() - t0;
    } else {
      MPI_Recv(buf, size, MPI_BYTE, 0, kData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, size, MPI_BYTE, 0, kData, MPI_COMM_WORLD);
    }
  }
  return t;
}

// One experiment: the measuring ranks time it at every size, rank 0 writes the rows.
void run_experiment(const std::string& exp, const Options& o, int rank, const std::vector<long>& sizes, char* buf,
                    char* copy, std::FILE* out)
{
  std::vector<double> times; // on the measuring rank, in visiting order
  // A polling call has no size: one row per measured iteration, with size 0.
  const std::vector<long> exp_sizes = is_poll(exp) ? std::vector<long>{0} : sizes;
  if (rank < 2 && is_poll(exp)) {
    for (int i = 0; i < o.warmup; ++i)
      measure_poll(exp, rank, buf, o.poll_batch);
    for (int i = 0; i < o.reps; ++i)
      times.push_back(measure_poll(exp, rank, buf, o.poll_batch));
  } else if (rank < 2) {
    for (long s : sizes) {
      for (int i = 0; i < o.warmup; ++i)
        measure(exp, rank, buf, copy, static_cast<int>(s));
      for (int i = 0; i < o.reps; ++i)
        times.push_back(measure(exp, rank, buf, copy, static_cast<int>(s)));
    }
  }
  // The recv, test and iprobe times are rank 1's: bring them to rank 0.
  if (exp == "recv" || is_poll(exp)) {
    if (rank == 1)
      MPI_Send(times.data(), static_cast<int>(times.size()), MPI_DOUBLE, 0, kData, MPI_COMM_WORLD);
    if (rank == 0)
      MPI_Recv(times.data(), static_cast<int>(times.size()), MPI_DOUBLE, 1, kData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == 0) {
    std::size_t k = 0;
    for (long s : exp_sizes)
      for (int i = 0; i < o.reps; ++i)
        std::fprintf(out, "%s,%ld,%d,%.9g\n", exp.c_str(), s, i, times[k++]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

} // namespace

int main(int argc, char** argv)
{
  const auto [rank, nranks] = tit::calib::mpi::start(&argc, &argv);

  Options o;
  CLI::App app{"calib-p2p: point-to-point measurements for tit-calibrate (run with 2 ranks on the two nodes to "
               "calibrate: mpirun -np 2 calib-p2p ...). One CSV row per measurement: experiment,size,iteration,"
               "seconds."};
  app.add_option("--min-size", o.min_size, "smallest message (bytes)")->check(CLI::Range(1.0, 1e10))->capture_default_str();
  app.add_option("--max-size", o.max_size, "largest message (bytes)")->check(CLI::Range(1.0, 2147483647.0))->capture_default_str();
  app.add_option("--sizes", o.sizes, "sizes sampled between the bounds (log-uniform)")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--extra-sizes", o.extra_sizes, "sizes measured in addition (e.g. around a known protocol threshold)")
      ->delimiter(',');
  app.add_option("--reps", o.reps, "measured iterations per size")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("--warmup", o.warmup, "discarded iterations per size")->check(CLI::Range(0, 1000000))->capture_default_str();
  app.add_option("--seed", o.seed, "random seed (sizes and their order)")->capture_default_str();
  app.add_option("--experiments", o.experiments, "experiments to run")
      ->delimiter(',')
      ->check(CLI::IsMember({"send", "recv", "isend", "wait", "pingpong", "copy", "test", "iprobe"}))
      ->capture_default_str();
  app.add_option("--poll-batch", o.poll_batch, "calls timed together in one test or iprobe measurement")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  app.add_option("-o,--output", o.output, "CSV file written by rank 0")->capture_default_str();
  try {
    app.parse(argc, argv);
    if (o.min_size > o.max_size)
      throw CLI::ValidationError("--min-size", "must not exceed --max-size");
    for (double e : o.extra_sizes)
      if (e < 1 || e > 2147483647.0 || e != std::floor(e))
        throw CLI::ValidationError("--extra-sizes", fmt::format("expects whole sizes in bytes, got {}", e));
  } catch (const CLI::ParseError& e) {
    return tit::calib::mpi::options_exit(app, e, rank);
  }
  if (nranks < 2)
    fail(kProgram, "needs at least 2 ranks (mpirun -np 2)");

  std::vector<std::string> args(argv, argv + argc);
  std::FILE* out = tit::calib::mpi::open_output(kProgram, o.output, "p2p", args, "experiment,size,iteration,seconds");
  auto sizes = sample_sizes(o); // every rank computes the same list from the seed
  long max_size = *std::max_element(sizes.begin(), sizes.end());
  std::vector<char> buf(static_cast<std::size_t>(max_size));
  std::memset(buf.data(), 1, buf.size());
  std::vector<char> copy(std::find(o.experiments.begin(), o.experiments.end(), "copy") != o.experiments.end()
                             ? buf.size()
                             : 0); // the destination of the local copies
  std::memset(copy.data(), 2, copy.size());

  for (auto const& exp : o.experiments)
    run_experiment(exp, o, rank, sizes, buf.data(), copy.data(), out);
  tit::calib::mpi::close_output(kProgram, out, o.output);
  MPI_Finalize();
  return 0;
}

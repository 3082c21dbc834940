// calib-cpu: the CPU rate of a kernel whose flop count is known analytically, per problem size:
// every rank runs --bursts bursts of y = a*x + y over two arrays of the problem's size (2 flops per
// element and pass), --reps times (after one discarded burst). One CSV row per burst:
// rank,problem,iteration,burst,volume,seconds (volume in flops). tit-calibrate takes, per rank,
// the total flops / total seconds of a repetition, averaged over repetitions.
#include "common.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cmath>

namespace {

const std::string kProgram = "calib-cpu";

/// `passes` DAXPY passes over n elements; returns a checksum so nothing is optimised away.
double daxpy(std::vector<double>& x, std::vector<double>& y, long passes)
{
  const double a = 1.0000001;
  const std::size_t n = x.size();
  for (long p = 0; p < passes; ++p) {
    for (std::size_t i = 0; i < n; ++i)
      y[i] = a * x[i] + y[i];
    x.swap(y);
  }
  return x[n / 2];
}

} // namespace

int main(int argc, char** argv)
{
  const auto [rank, nranks] = tit::calib::mpi::start(&argc, &argv);

  std::vector<double> problems{16384, 262144, 4194304};
  int reps = 5;
  int bursts = 4;
  double volume = 2e8;
  std::string output = "cpu.csv";
  CLI::App app{"calib-cpu: CPU rate (flop/s) of a DAXPY kernel per problem size, for tit-calibrate"};
  app.add_option("--problems", problems, "working-set sizes in bytes (two arrays of doubles)")
      ->delimiter(',')
      ->check(CLI::Range(16.0, 1e11))
      ->capture_default_str();
  app.add_option("--reps", reps, "repetitions")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--bursts", bursts, "compute bursts per repetition")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--volume", volume, "flops per burst (rounded to whole passes)")->check(CLI::Range(1.0, 1e15))->capture_default_str();
  app.add_option("-o,--output", output, "CSV file written by rank 0")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return tit::calib::mpi::options_exit(app, e, rank);
  }

  std::vector<std::string> args(argv, argv + argc);
  std::FILE* out =
      tit::calib::mpi::open_output(kProgram, output, "cpu", args, "rank,problem,iteration,burst,volume,seconds");
  std::vector<double> rows; // rank, problem, iteration, burst, volume, seconds
  double sink = 0;
  for (double problem : problems) {
    auto n = static_cast<std::size_t>(problem / 16);
    std::vector<double> x(n, 1.0);
    std::vector<double> y(n, 2.0);
    long passes = std::max(1L, std::lround(volume / (2.0 * static_cast<double>(n))));
    double flops = 2.0 * static_cast<double>(n) * static_cast<double>(passes);
    sink += daxpy(x, y, passes); // warm-up
    for (int it = 0; it < reps; ++it) {
      MPI_Barrier(MPI_COMM_WORLD);
      for (int b = 0; b < bursts; ++b) {
        double t0 = MPI_Wtime();
        sink += daxpy(x, y, passes);
        double t = MPI_Wtime() - t0;
        rows.insert(rows.end(), {static_cast<double>(rank), problem, static_cast<double>(it), static_cast<double>(b),
                                 flops, t});
      }
    }
  }
  int mine = static_cast<int>(rows.size());
  std::vector<int> counts(static_cast<std::size_t>(nranks));
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> displs(static_cast<std::size_t>(nranks), 0);
  int total = 0;
  for (int r = 0; r < nranks; ++r) {
    displs[static_cast<std::size_t>(r)] = total;
    total += counts[static_cast<std::size_t>(r)];
  }
  std::vector<double> all(static_cast<std::size_t>(total));
  MPI_Gatherv(rows.data(), mine, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::fprintf(out, "# unit: flops\n");
    std::fprintf(out, "# checksum: %g\n", sink);
    for (std::size_t i = 0; i + 5 < all.size(); i += 6)
      std::fprintf(out, "%d,%.0f,%d,%d,%.17g,%.9g\n", static_cast<int>(all[i]), all[i + 1], static_cast<int>(all[i + 2]),
                   static_cast<int>(all[i + 3]), all[i + 4], all[i + 5]);
  }
  tit::calib::mpi::close_output(kProgram, out, output);
  MPI_Finalize();
  return 0;
}

// calib-contention: with the ranks paired (0,1), (2,3), ..., for n = 1 .. pairs:
//   ping      the first n pairs at once: rank 2k sends --size bytes to rank 2k+1, which answers with an
//             empty message; the sender's time (one row per sender)
//   sendrecv  the first n pairs at once: both ranks of a pair exchange --size bytes with MPI_Sendrecv;
//             each rank's time (one row per rank)
// A barrier starts every iteration so that the n transfers overlap. One CSV row per measurement:
// experiment,concurrency,pair,rank,size,iteration,seconds.
#include "common.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstring>

namespace {

using tit::calib::mpi::fail;
const std::string kProgram = "calib-contention";

struct Row {
  double experiment, concurrency, pair, rank, size, iteration, seconds;
};

/// The measurements: for each experiment (0 ping, 1 sendrecv) and concurrency n, the first n pairs at once, `reps`
/// times after `warmup`; this rank's rows (a ping's sender, both ranks of a sendrecv).
std::vector<Row> measure(int rank, int nranks, int pairs, double size, int reps, int warmup)
{
  const int bytes = static_cast<int>(size);
  std::vector<char> sbuf(static_cast<std::size_t>(bytes), 1);
  std::vector<char> rbuf(static_cast<std::size_t>(bytes), 0);
  const int pair = rank / 2;
  const int partner = rank ^ 1;
  std::vector<Row> rows;
  for (int exp = 0; exp < 2; ++exp)
    for (int n = 1; n <= pairs; ++n)
      for (int it = -warmup; it < reps; ++it) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (pair >= n || partner >= nranks)
          continue;
        double t0 = MPI_Wtime();
        if (exp == 0) {
          if (rank % 2 == 0) {
            MPI_Send(sbuf.data(), bytes, MPI_BYTE, partner, 1, MPI_COMM_WORLD);
            MPI_Recv(nullptr, 0, MPI_BYTE, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          } else {
            MPI_Recv(rbuf.data(), bytes, MPI_BYTE, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(nullptr, 0, MPI_BYTE, partner, 2, MPI_COMM_WORLD);
          }
        } else {
          MPI_Sendrecv(sbuf.data(), bytes, MPI_BYTE, partner, 3, rbuf.data(), bytes, MPI_BYTE, partner, 3,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        double t = MPI_Wtime() - t0;
        if (it >= 0 && (exp == 1 || rank % 2 == 0))
          rows.push_back({static_cast<double>(exp), static_cast<double>(n), static_cast<double>(pair),
                          static_cast<double>(rank), size, static_cast<double>(it), t});
      }
  return rows;
}

/// Every rank's rows gathered on rank 0, written there to `out`.
void gather_and_write(const std::vector<Row>& rows, int rank, int nranks, std::FILE* out)
{
  int mine = static_cast<int>(rows.size() * 7);
  std::vector<int> counts(static_cast<std::size_t>(nranks));
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> displs(static_cast<std::size_t>(nranks), 0);
  int total = 0;
  for (int r = 0; r < nranks; ++r) {
    displs[static_cast<std::size_t>(r)] = total;
    total += counts[static_cast<std::size_t>(r)];
  }
  std::vector<Row> all(static_cast<std::size_t>(total / 7));
  MPI_Gatherv(rows.data(), mine, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (auto const& r : all)
      std::fprintf(out, "%s,%d,%d,%d,%.0f,%d,%.9g\n", r.experiment == 0 ? "ping" : "sendrecv",
                   static_cast<int>(r.concurrency), static_cast<int>(r.pair), static_cast<int>(r.rank), r.size,
                   static_cast<int>(r.iteration), r.seconds);
}

} // namespace

int main(int argc, char** argv)
{
  const auto [rank, nranks] = tit::calib::mpi::start(&argc, &argv);

  double size = 16777216;
  int reps = 10;
  int warmup = 2;
  int max_pairs = 0;
  std::string output = "contention.csv";
  CLI::App app{"calib-contention: concurrent pings and MPI_Sendrecv exchanges for tit-calibrate (full-duplex "
               "sharing ratio). Run with 2N ranks, one per node, ranks 2k and 2k+1 on different nodes."};
  app.add_option("--size", size, "message size (bytes), large")->check(CLI::Range(1.0, 2147483647.0))->capture_default_str();
  app.add_option("--reps", reps, "measured iterations per experiment and concurrency")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("--warmup", warmup, "discarded iterations")->check(CLI::Range(0, 1000000))->capture_default_str();
  app.add_option("--max-pairs", max_pairs, "largest number of concurrent pairs (default: ranks / 2)")->check(CLI::PositiveNumber);
  app.add_option("-o,--output", output, "CSV file written by rank 0")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return tit::calib::mpi::options_exit(app, e, rank);
  }
  if (nranks < 2)
    fail(kProgram, "needs at least 2 ranks (mpirun -np 2)");
  int pairs = nranks / 2;
  if (max_pairs > 0)
    pairs = std::min(pairs, max_pairs);

  std::vector<std::string> args(argv, argv + argc);
  std::FILE* out = tit::calib::mpi::open_output(kProgram, output, "contention", args,
                                                "experiment,concurrency,pair,rank,size,iteration,seconds");
  gather_and_write(measure(rank, nranks, pairs, size, reps, warmup), rank, nranks, out);
  tit::calib::mpi::close_output(kProgram, out, output);
  MPI_Finalize();
  return 0;
}

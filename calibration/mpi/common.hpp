// Shared by the measurement programs: the CSV header (hosts, MPI library, date, options) and
// small helpers. Rank 0 writes the file; every row is one raw measurement.
#pragma once

#include <mpi.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace tit::calib::mpi {

/// This process's place in the job.
struct Job {
  int rank = 0;
  int ranks = 0;
};

/// MPI_Init, then this rank and the number of ranks of MPI_COMM_WORLD.
Job start(int* argc, char*** argv);

/// Opens `path` on rank 0 and writes "# tit-calibrate <format> v1", the hosts of every rank, the MPI
/// library and version, the date (UTC), the command line and the OMPI_MCA_* settings, then `columns`.
/// On failure prints "<program>: error: ..." and aborts the job with exit code 2. Other ranks get nullptr.
std::FILE* open_output(const std::string& program, const std::string& path, const std::string& format,
                       const std::vector<std::string>& argv, const std::string& columns);

/// Closes the file (rank 0), reporting a write error like open_output.
void close_output(const std::string& program, std::FILE* f, const std::string& path);

/// After a failed option parse: rank 0 prints CLI11's message (or the help), every rank finalizes
/// MPI; returns the program's exit code (0 for --help, 2 for bad options).
int options_exit(const CLI::App& app, const CLI::ParseError& e, int rank);

/// Stops every rank with a message from rank 0 and exit code 2 (bad options).
[[noreturn]] void fail(const std::string& program, const std::string& message);

} // namespace tit::calib::mpi

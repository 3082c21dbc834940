#include "common.hpp"

#include <fmt/core.h>

#include <cstdlib>
#include <ctime>
#include <unistd.h>

extern char** environ;

namespace tit::calib::mpi {

Job start(int* argc, char*** argv)
{
  MPI_Init(argc, argv);
  Job job;
  MPI_Comm_rank(MPI_COMM_WORLD, &job.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &job.ranks);
  return job;
}

void fail(const std::string& program, const std::string& message)
{
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::fprintf(stderr, "%s: error: %s\n", program.c_str(), message.c_str());
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);
}

std::FILE* open_output(const std::string& program, const std::string& path, const std::string& format,
                       const std::vector<std::string>& argv, const std::string& columns)
{
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<char> all(static_cast<std::size_t>(size) * MPI_MAX_PROCESSOR_NAME);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  int ok = 1;
  std::FILE* f = nullptr;
  if (rank == 0) {
    f = std::fopen(path.c_str(), "w");
    ok = f != nullptr;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (not ok)
    fail(program, fmt::format("cannot write the output file '{}'", path));
  if (rank != 0)
    return nullptr;

  std::string hosts;
  for (int r = 0; r < size; ++r)
    hosts += (r ? "," : "") + std::string(&all[static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME]);
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  MPI_Get_library_version(lib, &len);
  std::string library(lib);
  auto nl = library.find_first_of("\r\n");
  if (nl != std::string::npos)
    library.resize(nl);
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string cmd;
  for (auto const& a : argv)
    cmd += (cmd.empty() ? "" : " ") + a;
  std::string mca;
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).rfind("OMPI_MCA_", 0) == 0 && std::string_view(*e).find("OMPI_MCA_orte_") != 0 &&
        std::string_view(*e).find("OMPI_MCA_ess") != 0 && std::string_view(*e).find("OMPI_MCA_pmix") != 0)
      mca += (mca.empty() ? "" : " ") + std::string(*e);

  std::fprintf(f, "# tit-calibrate %s v1\n", format.c_str());
  std::fprintf(f, "# program: %s\n", program.c_str());
  std::fprintf(f, "# ranks: %d\n", size);
  std::fprintf(f, "# hosts: %s\n", hosts.c_str());
  std::fprintf(f, "# mpi: %s\n", library.c_str());
  std::fprintf(f, "# date: %s\n", date);
  std::fprintf(f, "# options: %s\n", cmd.c_str());
  std::fprintf(f, "# mca: %s\n", mca.c_str());
  std::fprintf(f, "%s\n", columns.c_str());
  return f;
}

void close_output(const std::string& program, std::FILE* f, const std::string& path)
{
  int ok = 1;
  if (f)
    ok = std::ferror(f) == 0 && std::fclose(f) == 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (not ok)
    fail(program, fmt::format("error while writing '{}'", path));
}

int options_exit(const CLI::App& app, const CLI::ParseError& e, int rank)
{
  int code = rank == 0 ? app.exit(e) : e.get_exit_code();
  MPI_Finalize();
  return code == 0 ? 0 : 2;
}

} // namespace tit::calib::mpi

// Start and end of tracing: MPI_Init/MPI_Init_thread open the rank's trace, MPI_Finalize completes
// it, MPI_Abort flushes what is buffered (marked incomplete) before aborting.
#include "tracer.hpp"

using namespace tit::tracer;

extern "C" {

int MPI_Init(int* argc, char*** argv)
{
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS && !the_tracer.active)
    the_tracer.start();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS && !the_tracer.active)
    the_tracer.start();
  return rc;
}

int MPI_Finalize()
{
  {
    Scope s; // the compute burst before MPI_Finalize is written
    if (s.on)
      the_tracer.finish();
  }
  return PMPI_Finalize();
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
  the_tracer.emergency_flush("MPI_Abort was called");
  return PMPI_Abort(comm, errorcode);
}

} // extern "C"

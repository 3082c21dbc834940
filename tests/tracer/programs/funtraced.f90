! A Fortran call the tracer has no entry point for (MPI_IPROBE): the test (tests/tracer/run.sh, case untraced) checks
! that the trace's header and stderr name it.
program funtraced
  implicit none
  include 'mpif.h'
  integer :: ierr
  logical :: flag
  call MPI_Init(ierr)
  call MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program funtraced

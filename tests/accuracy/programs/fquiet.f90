! A Fortran MPI program (mpif.h) that does not measure itself: Open MPI's Fortran bindings call PMPI_Init
! directly, so libtit-span.so must wrap mpi_init_thread_ and mpi_finalize_ themselves.
program fquiet
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, provided, i, round
  double precision :: buf(256), total
  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  buf = rank
  total = 0
  do round = 1, 4
    do i = 1, 500000
      total = total + 1.0d0 / dble(i)
    end do
    if (nprocs > 1) then
      call MPI_Sendrecv_replace(buf, 256, MPI_DOUBLE_PRECISION, mod(rank + 1, nprocs), 1, &
                                mod(rank + nprocs - 1, nprocs), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
    call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  call MPI_Finalize(ierr)
  if (total <= 0) print *, 'unexpected sum', total
end program fquiet

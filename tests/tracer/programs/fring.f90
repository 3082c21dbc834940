! Fortran ring: Open MPI's Fortran bindings call PMPI_ directly, so this checks the tracer's own
! Fortran entry points (mpif.h, gfortran naming).
program fring
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, next, prev, req, i
  integer :: status(MPI_STATUS_SIZE)
  double precision :: buf(100), total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)
  buf = rank
  total = 0
  do i = 1, 200000
    total = total + sqrt(dble(i))
  end do
  if (rank == 0) then
    call MPI_Send(buf, 100, MPI_DOUBLE_PRECISION, next, 3, MPI_COMM_WORLD, ierr)
    call MPI_Recv(buf, 100, MPI_DOUBLE_PRECISION, prev, 3, MPI_COMM_WORLD, status, ierr)
  else
    call MPI_Recv(buf, 100, MPI_DOUBLE_PRECISION, prev, 3, MPI_COMM_WORLD, status, ierr)
    call MPI_Send(buf, 100, MPI_DOUBLE_PRECISION, next, 3, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Irecv(buf, 10, MPI_INTEGER, prev, 4, MPI_COMM_WORLD, req, ierr)
  call MPI_Send(buf, 10, MPI_INTEGER, next, 4, MPI_COMM_WORLD, ierr)
  call MPI_Wait(req, status, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(buf, 5, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total <= 0) print *, 'unexpected sum', total
  call MPI_Finalize(ierr)
end program fring

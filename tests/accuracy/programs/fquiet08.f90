! The same without mpif.h: `use mpi_f08`, whose MPI_Init and MPI_Finalize are mpi_init_f08_ and
! mpi_finalize_f08_ (ierror left out: the bindings pass no status then).
program fquiet08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, i
  double precision :: total
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  total = 0
  do i = 1, 2000000
    total = total + 1.0d0 / dble(i + rank)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Finalize()
  if (total <= 0) print *, 'unexpected sum', total
end program fquiet08

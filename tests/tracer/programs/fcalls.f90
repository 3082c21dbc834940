! Fortran entry points of the tracer beyond fring.f90: communicator creations, the request-completion
! variants, the vector and scan collectives and the nonblocking collectives, each called once or in a
! loop that ends when it completes. calls_twin.c makes the same calls in C: both traces must list the
! same actions (tests/tracer/run.sh, case fortran-twin). Any rank count of at least 2, even.
program fcalls
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, nxt, prv, i, idx, outcount, half
  integer :: cart, row, dup, shm, evens, evens2, graph, egrp, wgrp
  integer :: dims(2), reqs(2), req, indices(2), statuses(MPI_STATUS_SIZE, 2)
  logical :: periods(2), remain(2), flag
  integer, allocatable :: counts(:), displs(:), index(:), edges(:), types(:), ranks(:)
  double precision :: a(64), b(64), x, y
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  nxt = mod(rank + 1, np)
  prv = mod(rank + np - 1, np)
  allocate(counts(np), displs(np), index(np), edges(np), types(np))
  a = rank
  x = rank
  ! communicators
  dims = (/ 2, np / 2 /)
  periods = (/ .true., .false. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Barrier(cart, ierr)
  remain = (/ .false., .true. /)
  call MPI_Cart_sub(cart, remain, row, ierr)
  call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, row, ierr)
  call MPI_Comm_free(row, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, dup, ierr)
  call MPI_Barrier(dup, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, shm, ierr)
  call MPI_Barrier(shm, ierr)
  call MPI_Comm_free(shm, ierr)
  half = (np + 1) / 2
  allocate(ranks(half))
  do i = 1, half
    ranks(i) = 2 * (i - 1)
  end do
  call MPI_Comm_group(MPI_COMM_WORLD, wgrp, ierr)
  call MPI_Group_incl(wgrp, half, ranks, egrp, ierr)
  call MPI_Comm_create(MPI_COMM_WORLD, egrp, evens, ierr)
  if (mod(rank, 2) == 0) then
    call MPI_Barrier(evens, ierr)
    call MPI_Comm_free(evens, ierr)
    call MPI_Comm_create_group(MPI_COMM_WORLD, egrp, 7, evens2, ierr)
    call MPI_Barrier(evens2, ierr)
    call MPI_Comm_free(evens2, ierr)
  end if
  call MPI_Group_free(egrp, ierr)
  call MPI_Group_free(wgrp, ierr)
  do i = 1, np
    index(i) = 2 * i
  end do
  deallocate(edges)
  allocate(edges(2 * np))
  do i = 1, np
    edges(2 * i - 1) = mod(i, np)
    edges(2 * i) = mod(i + np - 2, np)
  end do
  call MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, .false., graph, ierr)
  call MPI_Barrier(graph, ierr)
  call MPI_Comm_free(graph, ierr)
  ! completions
  call MPI_Irecv(b, 8, MPI_DOUBLE_PRECISION, prv, 1, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(a, 8, MPI_DOUBLE_PRECISION, nxt, 1, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitany(2, reqs, idx, MPI_STATUS_IGNORE, ierr)
  call MPI_Waitany(2, reqs, idx, MPI_STATUS_IGNORE, ierr)
  call MPI_Irecv(b, 8, MPI_DOUBLE_PRECISION, prv, 2, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(a, 8, MPI_DOUBLE_PRECISION, nxt, 2, MPI_COMM_WORLD, ierr)
  call MPI_Waitsome(1, reqs, outcount, indices, MPI_STATUSES_IGNORE, ierr)
  call MPI_Irecv(b, 8, MPI_DOUBLE_PRECISION, prv, 3, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(a, 8, MPI_DOUBLE_PRECISION, nxt, 3, MPI_COMM_WORLD, reqs(2), ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Testall(2, reqs, flag, MPI_STATUSES_IGNORE, ierr)
  end do
  call MPI_Irecv(b, 8, MPI_DOUBLE_PRECISION, prv, 4, MPI_COMM_WORLD, req, ierr)
  call MPI_Send(a, 8, MPI_DOUBLE_PRECISION, nxt, 4, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Testany(1, (/ req /), idx, flag, MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Irecv(b, 8, MPI_DOUBLE_PRECISION, prv, 5, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(a, 8, MPI_DOUBLE_PRECISION, nxt, 5, MPI_COMM_WORLD, ierr)
  outcount = 0
  do while (outcount < 1)
    call MPI_Testsome(1, reqs, outcount, indices, MPI_STATUSES_IGNORE, ierr)
  end do
  call MPI_Sendrecv_replace(a, 4, MPI_DOUBLE_PRECISION, nxt, 6, prv, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Recv_init(b, 8, MPI_DOUBLE_PRECISION, prv, 7, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send_init(a, 8, MPI_DOUBLE_PRECISION, nxt, 7, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Startall(2, reqs, ierr)
  call MPI_Waitall(2, reqs, statuses, ierr)
  if (statuses(MPI_SOURCE, 1) /= prv) print *, 'unexpected source', statuses(MPI_SOURCE, 1)
  call MPI_Request_free(reqs(1), ierr)
  call MPI_Request_free(reqs(2), ierr)
  ! vector and scan collectives
  do i = 1, np
    counts(i) = i
    displs(i) = i - 1
    types(i) = MPI_DOUBLE_PRECISION
  end do
  call MPI_Gatherv(a, rank + 1, MPI_DOUBLE_PRECISION, b, counts, displs, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Scatterv(a, counts, displs, MPI_DOUBLE_PRECISION, b, rank + 1, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD, ierr)
  call MPI_Allgatherv(a, rank + 1, MPI_DOUBLE_PRECISION, b, counts, displs, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
  counts = 2
  do i = 1, np
    displs(i) = 2 * (i - 1)
  end do
  call MPI_Alltoallv(a, counts, displs, MPI_DOUBLE_PRECISION, b, counts, displs, MPI_DOUBLE_PRECISION, &
                     MPI_COMM_WORLD, ierr)
  do i = 1, np
    displs(i) = 16 * (i - 1)
  end do
  call MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD, ierr)
  call MPI_Reduce_scatter(a, b, counts, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Reduce_scatter_block(a, b, 3, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  call MPI_Scan(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Exscan(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  ! nonblocking collectives, each waited for
  do i = 1, np
    displs(i) = 2 * (i - 1)
  end do
  call MPI_Ibarrier(MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Ibcast(a, 5, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Iallreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Ireduce(a, b, 3, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Iallgather(a, 2, MPI_DOUBLE_PRECISION, b, 2, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Ialltoall(a, 2, MPI_DOUBLE_PRECISION, b, 2, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Igather(a, 2, MPI_DOUBLE_PRECISION, b, 2, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Iscatter(a, 2, MPI_DOUBLE_PRECISION, b, 2, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Iallgatherv(a, 2, MPI_DOUBLE_PRECISION, b, counts, displs, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Ialltoallv(a, counts, displs, MPI_DOUBLE_PRECISION, b, counts, displs, MPI_DOUBLE_PRECISION, &
                      MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Igatherv(a, 2, MPI_DOUBLE_PRECISION, b, counts, displs, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Iscatterv(a, counts, displs, MPI_DOUBLE_PRECISION, b, 2, MPI_DOUBLE_PRECISION, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Iscan(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Iexscan(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Ireduce_scatter(a, b, counts, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Ireduce_scatter_block(a, b, 3, MPI_DOUBLE_PRECISION, MPI_MIN, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  deallocate(counts, displs, index, edges, types, ranks)
  call MPI_Finalize(ierr)
end program fcalls

// MPI routines the tracer does not trace (tracer/README.md, "Untraced routines"): one-sided communication, probes,
// matched receives, neighbourhood collectives, intercommunicators, dynamic processes, distributed graphs. Each entry
// point only counts its calls and calls the MPI library: no line of the trace shows them, and their time is in the
// next compute burst, which the trace says at its end (and rank 0 on stderr) when any was called.
#include "tracer.hpp"

using namespace tit::tracer;

#define TIT_UNTRACED(name, params, args)                                                                             \
  int MPI_##name params                                                                                              \
  {                                                                                                                  \
    the_tracer.count_untraced("MPI_" #name);                                                                         \
    return PMPI_##name args;                                                                                         \
  }

// probes and matched receives
TIT_UNTRACED(Probe, (int source, int tag, MPI_Comm comm, MPI_Status* status), (source, tag, comm, status))
TIT_UNTRACED(Iprobe, (int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status),
             (source, tag, comm, flag, status))
TIT_UNTRACED(Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status),
             (source, tag, comm, message, status))
TIT_UNTRACED(Improbe, (int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status),
             (source, tag, comm, flag, message, status))
TIT_UNTRACED(Mrecv, (void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status),
             (buf, count, type, message, status))
TIT_UNTRACED(Imrecv, (void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request),
             (buf, count, type, message, request))
TIT_UNTRACED(Request_get_status, (MPI_Request request, int* flag, MPI_Status* status), (request, flag, status))
TIT_UNTRACED(Cancel, (MPI_Request * request), (request))
// communicators the trace cannot name
TIT_UNTRACED(Comm_idup, (MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request), (comm, newcomm, request))
TIT_UNTRACED(Intercomm_create,
             (MPI_Comm local_comm, int local_leader, MPI_Comm bridge_comm, int remote_leader, int tag,
              MPI_Comm* newintercomm),
             (local_comm, local_leader, bridge_comm, remote_leader, tag, newintercomm))
TIT_UNTRACED(Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm* newintracomm), (intercomm, high, newintracomm))
TIT_UNTRACED(Comm_spawn,
             (const char* command, char* argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
              MPI_Comm* intercomm, int errcodes[]),
             (command, argv, maxprocs, info, root, comm, intercomm, errcodes))
TIT_UNTRACED(Comm_accept, (const char* port, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm),
             (port, info, root, comm, newcomm))
TIT_UNTRACED(Comm_connect, (const char* port, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm),
             (port, info, root, comm, newcomm))
TIT_UNTRACED(Comm_join, (int fd, MPI_Comm* intercomm), (fd, intercomm))
TIT_UNTRACED(Dist_graph_create,
             (MPI_Comm comm_old, int n, const int nodes[], const int degrees[], const int targets[],
              const int weights[], MPI_Info info, int reorder, MPI_Comm* newcomm),
             (comm_old, n, nodes, degrees, targets, weights, info, reorder, newcomm))
TIT_UNTRACED(Dist_graph_create_adjacent,
             (MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree,
              const int destinations[], const int destweights[], MPI_Info info, int reorder, MPI_Comm* newcomm),
             (comm_old, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder,
              newcomm))
// neighbourhood collectives
TIT_UNTRACED(Neighbor_allgather,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
              MPI_Comm comm),
             (sbuf, scount, stype, rbuf, rcount, rtype, comm))
TIT_UNTRACED(Neighbor_allgatherv,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[], const int displs[],
              MPI_Datatype rtype, MPI_Comm comm),
             (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm))
TIT_UNTRACED(Neighbor_alltoall,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
              MPI_Comm comm),
             (sbuf, scount, stype, rbuf, rcount, rtype, comm))
TIT_UNTRACED(Neighbor_alltoallv,
             (const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
              const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm),
             (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm))
TIT_UNTRACED(Neighbor_alltoallw,
             (const void* sbuf, const int scounts[], const MPI_Aint sdispls[], const MPI_Datatype stypes[], void* rbuf,
              const int rcounts[], const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm),
             (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm))
TIT_UNTRACED(Ineighbor_allgather,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
              MPI_Comm comm, MPI_Request* req),
             (sbuf, scount, stype, rbuf, rcount, rtype, comm, req))
TIT_UNTRACED(Ineighbor_allgatherv,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[], const int displs[],
              MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req),
             (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req))
TIT_UNTRACED(Ineighbor_alltoall,
             (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
              MPI_Comm comm, MPI_Request* req),
             (sbuf, scount, stype, rbuf, rcount, rtype, comm, req))
TIT_UNTRACED(Ineighbor_alltoallv,
             (const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
              const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req),
             (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req))
TIT_UNTRACED(Ineighbor_alltoallw,
             (const void* sbuf, const int scounts[], const MPI_Aint sdispls[], const MPI_Datatype stypes[], void* rbuf,
              const int rcounts[], const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
              MPI_Request* req),
             (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req))
// one-sided communication
TIT_UNTRACED(Win_create, (void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win),
             (base, size, disp_unit, info, comm, win))
TIT_UNTRACED(Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win),
             (size, disp_unit, info, comm, baseptr, win))
TIT_UNTRACED(Win_allocate_shared,
             (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win),
             (size, disp_unit, info, comm, baseptr, win))
TIT_UNTRACED(Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win* win), (info, comm, win))
TIT_UNTRACED(Win_free, (MPI_Win * win), (win))
TIT_UNTRACED(Win_fence, (int assertion, MPI_Win win), (assertion, win))
TIT_UNTRACED(Win_start, (MPI_Group group, int assertion, MPI_Win win), (group, assertion, win))
TIT_UNTRACED(Win_complete, (MPI_Win win), (win))
TIT_UNTRACED(Win_post, (MPI_Group group, int assertion, MPI_Win win), (group, assertion, win))
TIT_UNTRACED(Win_wait, (MPI_Win win), (win))
TIT_UNTRACED(Win_test, (MPI_Win win, int* flag), (win, flag))
TIT_UNTRACED(Win_lock, (int lock_type, int rank, int assertion, MPI_Win win), (lock_type, rank, assertion, win))
TIT_UNTRACED(Win_unlock, (int rank, MPI_Win win), (rank, win))
TIT_UNTRACED(Win_lock_all, (int assertion, MPI_Win win), (assertion, win))
TIT_UNTRACED(Win_unlock_all, (MPI_Win win), (win))
TIT_UNTRACED(Win_flush, (int rank, MPI_Win win), (rank, win))
TIT_UNTRACED(Win_flush_all, (MPI_Win win), (win))
TIT_UNTRACED(Win_flush_local, (int rank, MPI_Win win), (rank, win))
TIT_UNTRACED(Win_flush_local_all, (MPI_Win win), (win))
TIT_UNTRACED(Win_sync, (MPI_Win win), (win))
TIT_UNTRACED(Put,
             (const void* obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
              MPI_Datatype ttype, MPI_Win win),
             (obuf, ocount, otype, target, disp, tcount, ttype, win))
TIT_UNTRACED(Get,
             (void* obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype,
              MPI_Win win),
             (obuf, ocount, otype, target, disp, tcount, ttype, win))
TIT_UNTRACED(Accumulate,
             (const void* obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
              MPI_Datatype ttype, MPI_Op op, MPI_Win win),
             (obuf, ocount, otype, target, disp, tcount, ttype, op, win))
TIT_UNTRACED(Get_accumulate,
             (const void* obuf, int ocount, MPI_Datatype otype, void* rbuf, int rcount, MPI_Datatype rtype,
              int target, MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win),
             (obuf, ocount, otype, rbuf, rcount, rtype, target, disp, tcount, ttype, op, win))
TIT_UNTRACED(Fetch_and_op,
             (const void* obuf, void* rbuf, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op, MPI_Win win),
             (obuf, rbuf, type, target, disp, op, win))
TIT_UNTRACED(Compare_and_swap,
             (const void* obuf, const void* cbuf, void* rbuf, MPI_Datatype type, int target, MPI_Aint disp,
              MPI_Win win),
             (obuf, cbuf, rbuf, type, target, disp, win))
TIT_UNTRACED(Rput,
             (const void* obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
              MPI_Datatype ttype, MPI_Win win, MPI_Request* req),
             (obuf, ocount, otype, target, disp, tcount, ttype, win, req))
TIT_UNTRACED(Rget,
             (void* obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype,
              MPI_Win win, MPI_Request* req),
             (obuf, ocount, otype, target, disp, tcount, ttype, win, req))
TIT_UNTRACED(Raccumulate,
             (const void* obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
              MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request* req),
             (obuf, ocount, otype, target, disp, tcount, ttype, op, win, req))
TIT_UNTRACED(Rget_accumulate,
             (const void* obuf, int ocount, MPI_Datatype otype, void* rbuf, int rcount, MPI_Datatype rtype,
              int target, MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request* req),
             (obuf, ocount, otype, rbuf, rcount, rtype, target, disp, tcount, ttype, op, win, req))

#undef TIT_UNTRACED

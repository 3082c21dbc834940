// Collectives, blocking and nonblocking, in SimGrid 3.32's words (`bcast <count> <root> <dt>`, ...).
// Roots are ranks in the communicator, count vectors have one entry per member, and a line on a
// communicator other than MPI_COMM_WORLD ends with ` comm=<h>`. Collectives on MPI_COMM_SELF move
// nothing and are not written. A nonblocking collective's request is waited as `wait -333 -333 -1`.
#include "tracer.hpp"

using namespace tit::tracer;

namespace {

constexpr int kNbcTag = -1;

/// Whether to write a collective on `comm`; sets `c`.
bool traced(const Scope& s, int rc, MPI_Comm comm, const CommInfo*& c)
{
  if (!s.on || rc != MPI_SUCCESS)
    return false;
  c = the_tracer.comm(comm);
  return !c->self;
}

void nbc_request(MPI_Request* req)
{
  if (req != nullptr && *req != MPI_REQUEST_NULL) {
    ReqInfo r{kTraceAnySource, kTraceAnySource, kNbcTag};
    r.nbc = true;
    the_tracer.add_request(*req, r);
  }
}

/// `name` or its nonblocking form `iname`.
/// The name of a collective's line: its nonblocking form's when `nb`.
constexpr const char* coll_name(bool nb, Kind kind) { return nb ? nonblocking_name_of(kind) : name_of(kind); }

Line& counts(Line& l, const int* v, int n, const TypeCode& t)
{
  for (int i = 0; i < n; ++i)
    l.num(t.count(v[i]));
  return l;
}

Line& zeros(Line& l, int n)
{
  for (int i = 0; i < n; ++i)
    l.num(0);
  return l;
}

long long sum(const int* v, int n, const TypeCode& t)
{
  long long s = 0;
  for (int i = 0; i < n; ++i)
    s += t.count(v[i]);
  return s;
}

// Non-significant datatype arguments (e.g. the receive type on a non-root) may be MPI_DATATYPE_NULL.
MPI_Datatype or_else(MPI_Datatype t, MPI_Datatype fallback) { return t == MPI_DATATYPE_NULL ? fallback : t; }

// ---- one writer per collective, shared by the blocking and the nonblocking wrappers ----

void barrier(bool nb, const CommInfo* c)
{
  the_tracer.line(coll_name(nb, Kind::Barrier));
  the_tracer.end_line(c);
}

void bcast(bool nb, int count, MPI_Datatype dt, int root, const CommInfo* c)
{
  TypeCode t = the_tracer.type(dt);
  the_tracer.line(coll_name(nb, Kind::Bcast)).num(t.count(count)).num(root).num(t.id);
  the_tracer.end_line(c);
}

void reduce(bool nb, const void* sbuf, int count, MPI_Datatype dt, int root, const CommInfo* c)
{
  (void)sbuf;
  TypeCode t = the_tracer.type(dt);
  the_tracer.line(coll_name(nb, Kind::Reduce)).num(t.count(count)).num(0).num(root).num(t.id);
  the_tracer.end_line(c);
}

void reduction(const char* name, int count, MPI_Datatype dt, const CommInfo* c)
{
  TypeCode t = the_tracer.type(dt);
  the_tracer.line(name).num(t.count(count)).num(0).num(t.id);
  the_tracer.end_line(c);
}

void gather(bool nb, const void* sbuf, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype, int root,
            const CommInfo* c)
{
  bool is_root = c->my_rank == root;
  if (is_root && sbuf == MPI_IN_PLACE) {
    scount = 0;
    stype = rtype;
  }
  TypeCode st = the_tracer.type(stype);
  TypeCode rt = the_tracer.type(or_else(rtype, stype));
  the_tracer.line(coll_name(nb, Kind::Gather)).num(st.count(scount)).num(rt.count(rcount)).num(root).num(st.id).num(rt.id);
  the_tracer.end_line(c);
}

void scatter(bool nb, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
             const CommInfo* c)
{
  bool is_root = c->my_rank == root;
  if (is_root && rbuf == MPI_IN_PLACE) {
    rcount = scount;
    rtype = stype;
  }
  TypeCode st = the_tracer.type(or_else(stype, rtype));
  TypeCode rt = the_tracer.type(rtype);
  the_tracer.line(coll_name(nb, Kind::Scatter)).num(st.count(scount)).num(rt.count(rcount)).num(root).num(st.id).num(rt.id);
  the_tracer.end_line(c);
}

void allgather_like(const char* name, const void* sbuf, int scount, MPI_Datatype stype, int rcount,
                    MPI_Datatype rtype, const CommInfo* c)
{
  if (sbuf == MPI_IN_PLACE) {
    scount = rcount;
    stype = rtype;
  }
  TypeCode st = the_tracer.type(stype);
  TypeCode rt = the_tracer.type(rtype);
  the_tracer.line(name).num(st.count(scount)).num(rt.count(rcount)).num(st.id).num(rt.id);
  the_tracer.end_line(c);
}

void gatherv(bool nb, const void* sbuf, int scount, MPI_Datatype stype, const int* rcounts, MPI_Datatype rtype,
             int root, const CommInfo* c)
{
  bool is_root = c->my_rank == root;
  if (is_root && sbuf == MPI_IN_PLACE) {
    scount = 0;
    stype = rtype;
  }
  TypeCode st = the_tracer.type(stype);
  TypeCode rt = the_tracer.type(or_else(rtype, stype));
  Line& l = the_tracer.line(coll_name(nb, Kind::GatherV)).num(st.count(scount));
  if (is_root)
    counts(l, rcounts, c->size, rt);
  else // not significant outside the root: zeros, as SimGrid writes them
    zeros(l, c->size);
  l.num(root).num(st.id).num(rt.id);
  the_tracer.end_line(c);
}

void scatterv(bool nb, const int* scounts, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
              const CommInfo* c)
{
  bool is_root = c->my_rank == root;
  if (is_root && rbuf == MPI_IN_PLACE) {
    rcount = scounts[c->my_rank];
    rtype = stype;
  }
  TypeCode st = the_tracer.type(or_else(stype, rtype));
  TypeCode rt = the_tracer.type(rtype);
  Line& l = the_tracer.line(coll_name(nb, Kind::ScatterV));
  if (is_root)
    counts(l, scounts, c->size, st);
  else
    zeros(l, c->size);
  l.num(rt.count(rcount)).num(root).num(st.id).num(rt.id);
  the_tracer.end_line(c);
}

void allgatherv(bool nb, const void* sbuf, int scount, MPI_Datatype stype, const int* rcounts, MPI_Datatype rtype,
                const CommInfo* c)
{
  if (sbuf == MPI_IN_PLACE) {
    scount = rcounts[c->my_rank];
    stype = rtype;
  }
  TypeCode st = the_tracer.type(stype);
  TypeCode rt = the_tracer.type(rtype);
  Line& l = the_tracer.line(coll_name(nb, Kind::AllGatherV)).num(st.count(scount));
  counts(l, rcounts, c->size, rt).num(st.id).num(rt.id);
  the_tracer.end_line(c);
}

void alltoallv(bool nb, const void* sbuf, const int* scounts, MPI_Datatype stype, const int* rcounts,
               MPI_Datatype rtype, const CommInfo* c)
{
  if (sbuf == MPI_IN_PLACE) {
    scounts = rcounts;
    stype = rtype;
  }
  TypeCode st = the_tracer.type(stype);
  TypeCode rt = the_tracer.type(rtype);
  Line& l = the_tracer.line(coll_name(nb, Kind::AllToAllV)).num(sum(scounts, c->size, st));
  counts(l, scounts, c->size, st).num(sum(rcounts, c->size, rt));
  counts(l, rcounts, c->size, rt).num(st.id).num(rt.id);
  the_tracer.end_line(c);
}

// alltoallw: one datatype per peer, so every count is written in bytes (SimGrid mixes element
// counts with the first peer's datatype).
void alltoallw(bool nb, const void* sbuf, const int* scounts, const MPI_Datatype* stypes, const int* rcounts,
               const MPI_Datatype* rtypes, const CommInfo* c)
{
  if (sbuf == MPI_IN_PLACE) {
    scounts = rcounts;
    stypes = rtypes;
  }
  std::vector<long long> sb(static_cast<std::size_t>(c->size)), rb(sb.size());
  long long ssum = 0, rsum = 0;
  for (int i = 0; i < c->size; ++i) {
    int s = 0, r = 0;
    PMPI_Type_size(stypes[i], &s);
    PMPI_Type_size(rtypes[i], &r);
    sb[static_cast<std::size_t>(i)] = static_cast<long long>(scounts[i]) * s;
    rb[static_cast<std::size_t>(i)] = static_cast<long long>(rcounts[i]) * r;
    ssum += sb[static_cast<std::size_t>(i)];
    rsum += rb[static_cast<std::size_t>(i)];
  }
  Line& l = the_tracer.line(coll_name(nb, Kind::AllToAllV)).num(ssum);
  for (long long v : sb)
    l.num(v);
  l.num(rsum);
  for (long long v : rb)
    l.num(v);
  l.num(kByteId).num(kByteId);
  the_tracer.end_line(c);
}

void reduce_scatter(bool nb, const int* rcounts, MPI_Datatype dt, const CommInfo* c)
{
  TypeCode t = the_tracer.type(dt);
  Line& l = the_tracer.line(coll_name(nb, Kind::ReduceScatter));
  counts(l, rcounts, c->size, t).num(0).num(t.id);
  the_tracer.end_line(c);
}

void reduce_scatter_block(bool nb, int rcount, MPI_Datatype dt, const CommInfo* c)
{
  // SimGrid writes RECVCOUNT zeros here; the counts of MPI_Reduce_scatter with equal counts are right.
  TypeCode t = the_tracer.type(dt);
  Line& l = the_tracer.line(coll_name(nb, Kind::ReduceScatter));
  for (int i = 0; i < c->size; ++i)
    l.num(t.count(rcount));
  l.num(0).num(t.id);
  the_tracer.end_line(c);
}

} // namespace

// The wrappers: CALL runs the real call under a Scope, WRITE writes the line when traced.
#define TRACE_COLL(real_call, nb, req, comm, write)                                                                   \
  Scope s;                                                                                                             \
  int rc = real_call;                                                                                                  \
  const CommInfo* c = nullptr;                                                                                         \
  if (traced(s, rc, comm, c)) {                                                                                        \
    write;                                                                                                             \
    if (nb)                                                                                                            \
      nbc_request(req);                                                                                                \
  }                                                                                                                    \
  return rc

extern "C" {

int MPI_Barrier(MPI_Comm comm) { TRACE_COLL(PMPI_Barrier(comm), false, nullptr, comm, barrier(false, c)); }
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Ibarrier(comm, req), true, req, comm, barrier(true, c));
}

int MPI_Bcast(void* buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Bcast(buf, count, dt, root, comm), false, nullptr, comm, bcast(false, count, dt, root, c));
}
int MPI_Ibcast(void* buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Ibcast(buf, count, dt, root, comm, req), true, req, comm, bcast(true, count, dt, root, c));
}

int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm), false, nullptr, comm,
             reduce(false, sbuf, count, dt, root, c));
}
int MPI_Ireduce(const void* sbuf, void* rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* req)
{
  TRACE_COLL(PMPI_Ireduce(sbuf, rbuf, count, dt, op, root, comm, req), true, req, comm,
             reduce(true, sbuf, count, dt, root, c));
}

int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm), false, nullptr, comm,
             reduction(name_of(Kind::AllReduce), count, dt, c));
}
int MPI_Iallreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                   MPI_Request* req)
{
  TRACE_COLL(PMPI_Iallreduce(sbuf, rbuf, count, dt, op, comm, req), true, req, comm,
             reduction(nonblocking_name_of(Kind::AllReduce), count, dt, c));
}

int MPI_Scan(const void* sbuf, void* rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Scan(sbuf, rbuf, count, dt, op, comm), false, nullptr, comm, reduction(name_of(Kind::Scan), count, dt, c));
}
int MPI_Iscan(const void* sbuf, void* rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Iscan(sbuf, rbuf, count, dt, op, comm, req), true, req, comm, reduction(nonblocking_name_of(Kind::Scan), count, dt, c));
}

int MPI_Exscan(const void* sbuf, void* rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Exscan(sbuf, rbuf, count, dt, op, comm), false, nullptr, comm,
             reduction(name_of(Kind::Exscan), count, dt, c));
}
int MPI_Iexscan(const void* sbuf, void* rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Iexscan(sbuf, rbuf, count, dt, op, comm, req), true, req, comm,
             reduction(nonblocking_name_of(Kind::Exscan), count, dt, c));
}

int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm)
{
  TRACE_COLL(PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm), false, nullptr, comm,
             gather(false, sbuf, scount, stype, rcount, rtype, root, c));
}
int MPI_Igather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req), true, req, comm,
             gather(true, sbuf, scount, stype, rcount, rtype, root, c));
}

int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                int root, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm), false, nullptr, comm,
             scatter(false, scount, stype, rbuf, rcount, rtype, root, c));
}
int MPI_Iscatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                 int root, MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req), true, req, comm,
             scatter(true, scount, stype, rbuf, rcount, rtype, root, c));
}

int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm)
{
  TRACE_COLL(PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm), false, nullptr, comm,
             allgather_like(name_of(Kind::AllGather), sbuf, scount, stype, rcount, rtype, c));
}
int MPI_Iallgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req), true, req, comm,
             allgather_like(nonblocking_name_of(Kind::AllGather), sbuf, scount, stype, rcount, rtype, c));
}

int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm)
{
  TRACE_COLL(PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm), false, nullptr, comm,
             allgather_like(name_of(Kind::AllToAll), sbuf, scount, stype, rcount, rtype, c));
}
int MPI_Ialltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req), true, req, comm,
             allgather_like(nonblocking_name_of(Kind::AllToAll), sbuf, scount, stype, rcount, rtype, c));
}

int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[], const int displs[],
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm), false, nullptr, comm,
             gatherv(false, sbuf, scount, stype, rcounts, rtype, root, c));
}
int MPI_Igatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[], const int displs[],
                 MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req), true, req, comm,
             gatherv(true, sbuf, scount, stype, rcounts, rtype, root, c));
}

int MPI_Scatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype, void* rbuf,
                 int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm), false, nullptr, comm,
             scatterv(false, scounts, stype, rbuf, rcount, rtype, root, c));
}
int MPI_Iscatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype, void* rbuf,
                  int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req), true, req, comm,
             scatterv(true, scounts, stype, rbuf, rcount, rtype, root, c));
}

int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                   const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm), false, nullptr, comm,
             allgatherv(false, sbuf, scount, stype, rcounts, rtype, c));
}
int MPI_Iallgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                    const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req), true, req, comm,
             allgatherv(true, sbuf, scount, stype, rcounts, rtype, c));
}

int MPI_Alltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
                  const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm), false, nullptr, comm,
             alltoallv(false, sbuf, scounts, stype, rcounts, rtype, c));
}
int MPI_Ialltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
                   const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req)
{
  TRACE_COLL(PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req), true, req,
             comm, alltoallv(true, sbuf, scounts, stype, rcounts, rtype, c));
}

int MPI_Alltoallw(const void* sbuf, const int scounts[], const int sdispls[], const MPI_Datatype stypes[], void* rbuf,
                  const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
  TRACE_COLL(PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm), false, nullptr,
             comm, alltoallw(false, sbuf, scounts, stypes, rcounts, rtypes, c));
}
int MPI_Ialltoallw(const void* sbuf, const int scounts[], const int sdispls[], const MPI_Datatype stypes[],
                   void* rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request* req)
{
  TRACE_COLL(PMPI_Ialltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req), true, req,
             comm, alltoallw(true, sbuf, scounts, stypes, rcounts, rtypes, c));
}

int MPI_Reduce_scatter(const void* sbuf, void* rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm), false, nullptr, comm,
             reduce_scatter(false, rcounts, dt, c));
}
int MPI_Ireduce_scatter(const void* sbuf, void* rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                        MPI_Request* req)
{
  TRACE_COLL(PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, dt, op, comm, req), true, req, comm,
             reduce_scatter(true, rcounts, dt, c));
}

int MPI_Reduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
  TRACE_COLL(PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, dt, op, comm), false, nullptr, comm,
             reduce_scatter_block(false, rcount, dt, c));
}
int MPI_Ireduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                              MPI_Request* req)
{
  TRACE_COLL(PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, dt, op, comm, req), true, req, comm,
             reduce_scatter_block(true, rcount, dt, c));
}

} // extern "C"

// Fortran entry points. Open MPI's Fortran bindings (libmpi_mpifh: mpi_send_ -> PMPI_Send) call the
// C profiling layer directly, bypassing the MPI_* symbols this library defines, so a Fortran program
// would be traced as init/finalize-less silence. These entry points (gfortran naming: lower case,
// one trailing underscore; `mpif.h` and `use mpi`) take precedence over the MPI library's, convert
// the Fortran handles and call the traced C functions. `use mpi_f08` (mpi_send_f08) is not covered.
#include "tracer.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <vector>

using namespace tit::tracer;

namespace {

/// MPI_IN_PLACE and MPI_BOTTOM are addresses of common blocks in Fortran (Open MPI's names).
void* fortran_symbol(std::initializer_list<const char*> names)
{
  for (const char* n : names)
    if (void* p = dlsym(RTLD_DEFAULT, n))
      return p;
  return nullptr;
}

void* in_place_f()
{
  static void* p = fortran_symbol({"mpi_fortran_in_place_", "mpi_fortran_in_place", "mpi_fortran_in_place__",
                                   "MPI_FORTRAN_IN_PLACE"});
  return p;
}

void* bottom_f()
{
  static void* p =
      fortran_symbol({"mpi_fortran_bottom_", "mpi_fortran_bottom", "mpi_fortran_bottom__", "MPI_FORTRAN_BOTTOM"});
  return p;
}

const void* cbuf(const void* b)
{
  if (b != nullptr && b == in_place_f())
    return MPI_IN_PLACE;
  if (b != nullptr && b == bottom_f())
    return MPI_BOTTOM;
  return b;
}
void* cbuf(void* b) { return const_cast<void*>(cbuf(static_cast<const void*>(b))); }

// Fortran's MPI_STATUS_SIZE: MPI-4's MPI_F_STATUS_SIZE where mpi.h has it, else the C status in
// Fortran integers (Open MPI 4 lays the Fortran status out as the C one).
#ifdef MPI_F_STATUS_SIZE
constexpr std::size_t kFortranStatusSize = MPI_F_STATUS_SIZE;
#else
constexpr std::size_t kFortranStatusSize = sizeof(MPI_Status) / sizeof(MPI_Fint);
#endif

static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays (counts, displacements) are passed as int arrays");

MPI_Comm comm(const MPI_Fint* c) { return MPI_Comm_f2c(*c); }
/// A Fortran INTEGER array (counts, displacements, dimensions) as C's int array.
const int* ints(const MPI_Fint* a) { return reinterpret_cast<const int*>(a); }
MPI_Datatype type(const MPI_Fint* t) { return MPI_Type_f2c(*t); }
MPI_Op op(const MPI_Fint* o) { return MPI_Op_f2c(*o); }

/// Fortran LOGICAL arrays (periods, remain_dims) as C's int flags: any non-zero value is true.
std::vector<int> flags(const MPI_Fint* f, MPI_Fint n)
{
  std::vector<int> out(static_cast<std::size_t>(std::max<MPI_Fint>(n, 0)));
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = f[i] != 0 ? 1 : 0;
  return out;
}

/// Fortran request arrays as C's, written back after the call (completed requests become MPI_REQUEST_NULL).
struct Requests {
  std::vector<MPI_Request> c;
  MPI_Fint* f;
  Requests(MPI_Fint* fortran, MPI_Fint n) : c(static_cast<std::size_t>(std::max<MPI_Fint>(n, 0))), f(fortran)
  {
    for (std::size_t i = 0; i < c.size(); ++i)
      c[i] = MPI_Request_f2c(f[i]);
  }
  void out() const
  {
    for (std::size_t i = 0; i < c.size(); ++i)
      f[i] = MPI_Request_c2f(c[i]);
  }
};

/// Fortran status arrays (MPI_STATUSES_IGNORE or n statuses) as C's.
struct Statuses {
  std::vector<MPI_Status> c;
  MPI_Fint* f;
  Statuses(MPI_Fint* fortran, MPI_Fint n) : c(static_cast<std::size_t>(std::max<MPI_Fint>(n, 0))), f(fortran) {}
  MPI_Status* ptr() { return f == MPI_F_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : c.data(); }
  void out(int n) const
  {
    if (f != MPI_F_STATUSES_IGNORE)
      for (int i = 0; i < n; ++i)
        MPI_Status_c2f(&c[static_cast<std::size_t>(i)], f + static_cast<std::size_t>(i) * kFortranStatusSize);
  }
};

/// A Fortran index (from 1) for a C one (from 0), MPI_UNDEFINED kept.
MPI_Fint fortran_index(int i) { return i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1; }

/// A C status for a Fortran status argument (nullptr-free: MPI_STATUS_IGNORE when ignored).
struct Status {
  MPI_Status c{};
  MPI_Fint* f;
  explicit Status(MPI_Fint* fortran) : f(fortran) {}
  MPI_Status* ptr() { return f == MPI_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : &c; }
  void out() const
  {
    if (f != MPI_F_STATUS_IGNORE)
      MPI_Status_c2f(&c, f);
  }
};

/// MPI_Waitsome and MPI_Testsome: `outcount` requests completed, their indices (from 1 in Fortran) in `indices`.
template <class Some>
void some(Some call, MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* outcount, MPI_Fint* indices, MPI_Fint* statuses,
          MPI_Fint* ierr)
{
  Requests r(reqs, *n);
  Statuses st(statuses, *n);
  std::vector<int> idx(static_cast<std::size_t>(std::max<MPI_Fint>(*n, 0)));
  int done = 0;
  *ierr = call(*n, r.c.data(), &done, idx.data(), st.ptr());
  *outcount = done;
  for (int i = 0; done != MPI_UNDEFINED && i < done; ++i)
    indices[i] = idx[static_cast<std::size_t>(i)] + 1;
  r.out();
  if (done != MPI_UNDEFINED)
    st.out(done);
}

} // namespace

extern "C" {

void mpi_init_(MPI_Fint* ierr) { *ierr = MPI_Init(nullptr, nullptr); }

void mpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr)
{
  int p = 0;
  *ierr = MPI_Init_thread(nullptr, nullptr, *required, &p);
  *provided = p;
}

void mpi_finalize_(MPI_Fint* ierr) { *ierr = MPI_Finalize(); }

void mpi_abort_(MPI_Fint* c, MPI_Fint* code, MPI_Fint* ierr) { *ierr = MPI_Abort(comm(c), *code); }

void mpi_send_(void* buf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Send(cbuf(buf), *n, type(t), *dest, *tag, comm(c));
}

void mpi_ssend_(void* buf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Ssend(cbuf(buf), *n, type(t), *dest, *tag, comm(c));
}

void mpi_bsend_(void* buf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Bsend(cbuf(buf), *n, type(t), *dest, *tag, comm(c));
}

void mpi_rsend_(void* buf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Rsend(cbuf(buf), *n, type(t), *dest, *tag, comm(c));
}

void mpi_recv_(void* buf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* src, MPI_Fint* tag, MPI_Fint* c, MPI_Fint* status,
               MPI_Fint* ierr)
{
  Status s(status);
  *ierr = MPI_Recv(cbuf(buf), *n, type(t), *src, *tag, comm(c), s.ptr());
  s.out();
}

#define TIT_FORTRAN_NONBLOCKING(fname, cfun, BUFQ)                                                                   \
  void fname(BUFQ void* buf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* peer, MPI_Fint* tag, MPI_Fint* c, MPI_Fint* req,     \
             MPI_Fint* ierr)                                                                                           \
  {                                                                                                                    \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                  \
    *ierr = cfun(cbuf(buf), *n, type(t), *peer, *tag, comm(c), &r);                                                    \
    *req = MPI_Request_c2f(r);                                                                                         \
  }

TIT_FORTRAN_NONBLOCKING(mpi_isend_, MPI_Isend, const)
TIT_FORTRAN_NONBLOCKING(mpi_issend_, MPI_Issend, const)
TIT_FORTRAN_NONBLOCKING(mpi_ibsend_, MPI_Ibsend, const)
TIT_FORTRAN_NONBLOCKING(mpi_irsend_, MPI_Irsend, const)
TIT_FORTRAN_NONBLOCKING(mpi_irecv_, MPI_Irecv, )
TIT_FORTRAN_NONBLOCKING(mpi_send_init_, MPI_Send_init, const)
TIT_FORTRAN_NONBLOCKING(mpi_ssend_init_, MPI_Ssend_init, const)
TIT_FORTRAN_NONBLOCKING(mpi_bsend_init_, MPI_Bsend_init, const)
TIT_FORTRAN_NONBLOCKING(mpi_rsend_init_, MPI_Rsend_init, const)
TIT_FORTRAN_NONBLOCKING(mpi_recv_init_, MPI_Recv_init, )
#undef TIT_FORTRAN_NONBLOCKING

void mpi_start_(MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_Request_f2c(*req);
  *ierr = MPI_Start(&r);
  *req = MPI_Request_c2f(r);
}

void mpi_startall_(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* ierr)
{
  Requests r(reqs, *n);
  *ierr = MPI_Startall(*n, r.c.data());
  r.out();
}

void mpi_request_free_(MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_Request_f2c(*req);
  *ierr = MPI_Request_free(&r);
  *req = MPI_Request_c2f(r);
}

void mpi_wait_(MPI_Fint* req, MPI_Fint* status, MPI_Fint* ierr)
{
  MPI_Request r = MPI_Request_f2c(*req);
  Status s(status);
  *ierr = MPI_Wait(&r, s.ptr());
  *req = MPI_Request_c2f(r);
  s.out();
}

void mpi_test_(MPI_Fint* req, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr)
{
  MPI_Request r = MPI_Request_f2c(*req);
  Status s(status);
  int f = 0;
  *ierr = MPI_Test(&r, &f, s.ptr());
  *flag = f;
  *req = MPI_Request_c2f(r);
  s.out();
}

void mpi_waitall_(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* statuses, MPI_Fint* ierr)
{
  Requests r(reqs, *n);
  Statuses st(statuses, *n);
  *ierr = MPI_Waitall(*n, r.c.data(), st.ptr());
  r.out();
  st.out(*n);
}

void mpi_waitany_(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* index, MPI_Fint* status, MPI_Fint* ierr)
{
  Requests r(reqs, *n);
  Status s(status);
  int i = MPI_UNDEFINED;
  *ierr = MPI_Waitany(*n, r.c.data(), &i, s.ptr());
  *index = fortran_index(i);
  r.out();
  s.out();
}

void mpi_testany_(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* index, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr)
{
  Requests r(reqs, *n);
  Status s(status);
  int i = MPI_UNDEFINED, f = 0;
  *ierr = MPI_Testany(*n, r.c.data(), &i, &f, s.ptr());
  *index = fortran_index(i);
  *flag = f;
  r.out();
  s.out();
}

void mpi_testall_(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* flag, MPI_Fint* statuses, MPI_Fint* ierr)
{
  Requests r(reqs, *n);
  Statuses st(statuses, *n);
  int f = 0;
  *ierr = MPI_Testall(*n, r.c.data(), &f, st.ptr());
  *flag = f;
  r.out();
  if (f)
    st.out(*n);
}

void mpi_waitsome_(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* outcount, MPI_Fint* indices, MPI_Fint* statuses,
                   MPI_Fint* ierr)
{
  some(MPI_Waitsome, n, reqs, outcount, indices, statuses, ierr);
}

void mpi_testsome_(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* outcount, MPI_Fint* indices, MPI_Fint* statuses,
                   MPI_Fint* ierr)
{
  some(MPI_Testsome, n, reqs, outcount, indices, statuses, ierr);
}

void mpi_sendrecv_replace_(void* buf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* dest, MPI_Fint* stag, MPI_Fint* src,
                           MPI_Fint* rtag, MPI_Fint* c, MPI_Fint* status, MPI_Fint* ierr)
{
  Status s(status);
  *ierr = MPI_Sendrecv_replace(cbuf(buf), *n, type(t), *dest, *stag, *src, *rtag, comm(c), s.ptr());
  s.out();
}

void mpi_sendrecv_(void* sbuf, MPI_Fint* sn, MPI_Fint* st, MPI_Fint* dest, MPI_Fint* stag, void* rbuf, MPI_Fint* rn,
                   MPI_Fint* rt, MPI_Fint* src, MPI_Fint* rtag, MPI_Fint* c, MPI_Fint* status, MPI_Fint* ierr)
{
  Status s(status);
  *ierr = MPI_Sendrecv(cbuf(sbuf), *sn, type(st), *dest, *stag, cbuf(rbuf), *rn, type(rt), *src, *rtag, comm(c),
                       s.ptr());
  s.out();
}

void mpi_barrier_(MPI_Fint* c, MPI_Fint* ierr) { *ierr = MPI_Barrier(comm(c)); }

void mpi_bcast_(void* buf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* root, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Bcast(cbuf(buf), *n, type(t), *root, comm(c));
}

void mpi_reduce_(void* sbuf, void* rbuf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* o, MPI_Fint* root, MPI_Fint* c,
                 MPI_Fint* ierr)
{
  *ierr = MPI_Reduce(cbuf(sbuf), cbuf(rbuf), *n, type(t), op(o), *root, comm(c));
}

void mpi_allreduce_(void* sbuf, void* rbuf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* o, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Allreduce(cbuf(sbuf), cbuf(rbuf), *n, type(t), op(o), comm(c));
}

void mpi_gather_(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rn, MPI_Fint* rt, MPI_Fint* root,
                 MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Gather(cbuf(sbuf), *sn, type(st), cbuf(rbuf), *rn, type(rt), *root, comm(c));
}

void mpi_scatter_(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rn, MPI_Fint* rt, MPI_Fint* root,
                  MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Scatter(cbuf(sbuf), *sn, type(st), cbuf(rbuf), *rn, type(rt), *root, comm(c));
}

void mpi_allgather_(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rn, MPI_Fint* rt, MPI_Fint* c,
                    MPI_Fint* ierr)
{
  *ierr = MPI_Allgather(cbuf(sbuf), *sn, type(st), cbuf(rbuf), *rn, type(rt), comm(c));
}

void mpi_alltoall_(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rn, MPI_Fint* rt, MPI_Fint* c,
                   MPI_Fint* ierr)
{
  *ierr = MPI_Alltoall(cbuf(sbuf), *sn, type(st), cbuf(rbuf), *rn, type(rt), comm(c));
}

void mpi_gatherv_(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rcounts, MPI_Fint* displs,
                  MPI_Fint* rt, MPI_Fint* root, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Gatherv(cbuf(sbuf), *sn, type(st), cbuf(rbuf), ints(rcounts), ints(displs), type(rt), *root, comm(c));
}

void mpi_scatterv_(void* sbuf, MPI_Fint* scounts, MPI_Fint* displs, MPI_Fint* st, void* rbuf, MPI_Fint* rn,
                   MPI_Fint* rt, MPI_Fint* root, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Scatterv(cbuf(sbuf), ints(scounts), ints(displs), type(st), cbuf(rbuf), *rn, type(rt), *root, comm(c));
}

void mpi_allgatherv_(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rcounts, MPI_Fint* displs,
                     MPI_Fint* rt, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Allgatherv(cbuf(sbuf), *sn, type(st), cbuf(rbuf), ints(rcounts), ints(displs), type(rt), comm(c));
}

void mpi_alltoallv_(void* sbuf, MPI_Fint* scounts, MPI_Fint* sdispls, MPI_Fint* st, void* rbuf, MPI_Fint* rcounts,
                    MPI_Fint* rdispls, MPI_Fint* rt, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Alltoallv(cbuf(sbuf), ints(scounts), ints(sdispls), type(st), cbuf(rbuf), ints(rcounts), ints(rdispls),
                        type(rt), comm(c));
}

void mpi_alltoallw_(void* sbuf, MPI_Fint* scounts, MPI_Fint* sdispls, MPI_Fint* stypes, void* rbuf,
                    MPI_Fint* rcounts, MPI_Fint* rdispls, MPI_Fint* rtypes, MPI_Fint* c, MPI_Fint* ierr)
{
  int size = 0;
  PMPI_Comm_size(comm(c), &size);
  std::vector<MPI_Datatype> s(static_cast<std::size_t>(size)), r(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    s[i] = MPI_Type_f2c(stypes[i]);
    r[i] = MPI_Type_f2c(rtypes[i]);
  }
  *ierr = MPI_Alltoallw(cbuf(sbuf), ints(scounts), ints(sdispls), s.data(), cbuf(rbuf), ints(rcounts), ints(rdispls),
                        r.data(), comm(c));
}

void mpi_reduce_scatter_(void* sbuf, void* rbuf, MPI_Fint* rcounts, MPI_Fint* t, MPI_Fint* o, MPI_Fint* c,
                         MPI_Fint* ierr)
{
  *ierr = MPI_Reduce_scatter(cbuf(sbuf), cbuf(rbuf), ints(rcounts), type(t), op(o), comm(c));
}

void mpi_reduce_scatter_block_(void* sbuf, void* rbuf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* o, MPI_Fint* c,
                               MPI_Fint* ierr)
{
  *ierr = MPI_Reduce_scatter_block(cbuf(sbuf), cbuf(rbuf), *n, type(t), op(o), comm(c));
}

void mpi_scan_(void* sbuf, void* rbuf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* o, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Scan(cbuf(sbuf), cbuf(rbuf), *n, type(t), op(o), comm(c));
}

void mpi_exscan_(void* sbuf, void* rbuf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* o, MPI_Fint* c, MPI_Fint* ierr)
{
  *ierr = MPI_Exscan(cbuf(sbuf), cbuf(rbuf), *n, type(t), op(o), comm(c));
}

// Nonblocking collectives: the request back in Fortran. (MPI_Ialltoallw is not covered: its C type arrays would have to
// outlive the call.)
void mpi_ibarrier_(MPI_Fint* c, MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Ibarrier(comm(c), &r);
  *req = MPI_Request_c2f(r);
}

void mpi_ibcast_(void* buf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* root, MPI_Fint* c, MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Ibcast(cbuf(buf), *n, type(t), *root, comm(c), &r);
  *req = MPI_Request_c2f(r);
}

void mpi_ireduce_(void* sbuf, void* rbuf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* o, MPI_Fint* root, MPI_Fint* c,
                  MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Ireduce(cbuf(sbuf), cbuf(rbuf), *n, type(t), op(o), *root, comm(c), &r);
  *req = MPI_Request_c2f(r);
}

#define TIT_FORTRAN_IREDUCTION(fname, cfun)                                                                          \
  void fname(void* sbuf, void* rbuf, MPI_Fint* n, MPI_Fint* t, MPI_Fint* o, MPI_Fint* c, MPI_Fint* req,           \
             MPI_Fint* ierr)                                                                                         \
  {                                                                                                                  \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                \
    *ierr = cfun(cbuf(sbuf), cbuf(rbuf), *n, type(t), op(o), comm(c), &r);                                           \
    *req = MPI_Request_c2f(r);                                                                                       \
  }
TIT_FORTRAN_IREDUCTION(mpi_iallreduce_, MPI_Iallreduce)
TIT_FORTRAN_IREDUCTION(mpi_iscan_, MPI_Iscan)
TIT_FORTRAN_IREDUCTION(mpi_iexscan_, MPI_Iexscan)
TIT_FORTRAN_IREDUCTION(mpi_ireduce_scatter_block_, MPI_Ireduce_scatter_block)
#undef TIT_FORTRAN_IREDUCTION

void mpi_ireduce_scatter_(void* sbuf, void* rbuf, MPI_Fint* rcounts, MPI_Fint* t, MPI_Fint* o, MPI_Fint* c,
                          MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Ireduce_scatter(cbuf(sbuf), cbuf(rbuf), ints(rcounts), type(t), op(o), comm(c), &r);
  *req = MPI_Request_c2f(r);
}

#define TIT_FORTRAN_IEXCHANGE(fname, cfun)                                                                           \
  void fname(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rn, MPI_Fint* rt, MPI_Fint* c,         \
             MPI_Fint* req, MPI_Fint* ierr)                                                                          \
  {                                                                                                                  \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                \
    *ierr = cfun(cbuf(sbuf), *sn, type(st), cbuf(rbuf), *rn, type(rt), comm(c), &r);                                 \
    *req = MPI_Request_c2f(r);                                                                                       \
  }
TIT_FORTRAN_IEXCHANGE(mpi_iallgather_, MPI_Iallgather)
TIT_FORTRAN_IEXCHANGE(mpi_ialltoall_, MPI_Ialltoall)
#undef TIT_FORTRAN_IEXCHANGE

#define TIT_FORTRAN_IROOTED(fname, cfun)                                                                             \
  void fname(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rn, MPI_Fint* rt, MPI_Fint* root,      \
             MPI_Fint* c, MPI_Fint* req, MPI_Fint* ierr)                                                             \
  {                                                                                                                  \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                \
    *ierr = cfun(cbuf(sbuf), *sn, type(st), cbuf(rbuf), *rn, type(rt), *root, comm(c), &r);                          \
    *req = MPI_Request_c2f(r);                                                                                       \
  }
TIT_FORTRAN_IROOTED(mpi_igather_, MPI_Igather)
TIT_FORTRAN_IROOTED(mpi_iscatter_, MPI_Iscatter)
#undef TIT_FORTRAN_IROOTED

void mpi_iallgatherv_(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rcounts, MPI_Fint* displs,
                      MPI_Fint* rt, MPI_Fint* c, MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Iallgatherv(cbuf(sbuf), *sn, type(st), cbuf(rbuf), ints(rcounts), ints(displs), type(rt), comm(c), &r);
  *req = MPI_Request_c2f(r);
}

void mpi_ialltoallv_(void* sbuf, MPI_Fint* scounts, MPI_Fint* sdispls, MPI_Fint* st, void* rbuf, MPI_Fint* rcounts,
                     MPI_Fint* rdispls, MPI_Fint* rt, MPI_Fint* c, MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Ialltoallv(cbuf(sbuf), ints(scounts), ints(sdispls), type(st), cbuf(rbuf), ints(rcounts), ints(rdispls),
                         type(rt), comm(c), &r);
  *req = MPI_Request_c2f(r);
}

void mpi_igatherv_(void* sbuf, MPI_Fint* sn, MPI_Fint* st, void* rbuf, MPI_Fint* rcounts, MPI_Fint* displs,
                   MPI_Fint* rt, MPI_Fint* root, MPI_Fint* c, MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Igatherv(cbuf(sbuf), *sn, type(st), cbuf(rbuf), ints(rcounts), ints(displs), type(rt), *root, comm(c),
                       &r);
  *req = MPI_Request_c2f(r);
}

void mpi_iscatterv_(void* sbuf, MPI_Fint* scounts, MPI_Fint* displs, MPI_Fint* st, void* rbuf, MPI_Fint* rn,
                    MPI_Fint* rt, MPI_Fint* root, MPI_Fint* c, MPI_Fint* req, MPI_Fint* ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Iscatterv(cbuf(sbuf), ints(scounts), ints(displs), type(st), cbuf(rbuf), *rn, type(rt), *root, comm(c),
                        &r);
  *req = MPI_Request_c2f(r);
}

void mpi_comm_split_(MPI_Fint* c, MPI_Fint* color, MPI_Fint* key, MPI_Fint* newcomm, MPI_Fint* ierr)
{
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Comm_split(comm(c), *color, *key, &n);
  *newcomm = MPI_Comm_c2f(n);
}

void mpi_comm_dup_(MPI_Fint* c, MPI_Fint* newcomm, MPI_Fint* ierr)
{
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Comm_dup(comm(c), &n);
  *newcomm = MPI_Comm_c2f(n);
}

void mpi_comm_split_type_(MPI_Fint* c, MPI_Fint* split_type, MPI_Fint* key, MPI_Fint* info, MPI_Fint* newcomm,
                          MPI_Fint* ierr)
{
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Comm_split_type(comm(c), *split_type, *key, MPI_Info_f2c(*info), &n);
  *newcomm = MPI_Comm_c2f(n);
}

void mpi_comm_dup_with_info_(MPI_Fint* c, MPI_Fint* info, MPI_Fint* newcomm, MPI_Fint* ierr)
{
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Comm_dup_with_info(comm(c), MPI_Info_f2c(*info), &n);
  *newcomm = MPI_Comm_c2f(n);
}

void mpi_comm_create_(MPI_Fint* c, MPI_Fint* group, MPI_Fint* newcomm, MPI_Fint* ierr)
{
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Comm_create(comm(c), MPI_Group_f2c(*group), &n);
  *newcomm = MPI_Comm_c2f(n);
}

void mpi_comm_create_group_(MPI_Fint* c, MPI_Fint* group, MPI_Fint* tag, MPI_Fint* newcomm, MPI_Fint* ierr)
{
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Comm_create_group(comm(c), MPI_Group_f2c(*group), *tag, &n);
  *newcomm = MPI_Comm_c2f(n);
}

void mpi_cart_create_(MPI_Fint* c, MPI_Fint* ndims, MPI_Fint* dims, MPI_Fint* periods, MPI_Fint* reorder,
                      MPI_Fint* newcomm, MPI_Fint* ierr)
{
  MPI_Comm n = MPI_COMM_NULL;
  std::vector<int> p = flags(periods, *ndims);
  *ierr = MPI_Cart_create(comm(c), *ndims, ints(dims), p.data(), *reorder != 0 ? 1 : 0, &n);
  *newcomm = MPI_Comm_c2f(n);
}

void mpi_cart_sub_(MPI_Fint* c, MPI_Fint* remain_dims, MPI_Fint* newcomm, MPI_Fint* ierr)
{
  int ndims = 0;
  PMPI_Cartdim_get(comm(c), &ndims);
  std::vector<int> remain = flags(remain_dims, ndims);
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Cart_sub(comm(c), remain.data(), &n);
  *newcomm = MPI_Comm_c2f(n);
}

void mpi_graph_create_(MPI_Fint* c, MPI_Fint* nnodes, MPI_Fint* index, MPI_Fint* edges, MPI_Fint* reorder,
                       MPI_Fint* newcomm, MPI_Fint* ierr)
{
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Graph_create(comm(c), *nnodes, ints(index), ints(edges), *reorder != 0 ? 1 : 0, &n);
  *newcomm = MPI_Comm_c2f(n);
}

void mpi_comm_free_(MPI_Fint* c, MPI_Fint* ierr)
{
  MPI_Comm n = comm(c);
  *ierr = MPI_Comm_free(&n);
  *c = MPI_Comm_c2f(n);
}

} // extern "C"

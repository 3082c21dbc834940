// Fortran entry points. Open MPI's Fortran bindings (libmpi_mpifh: mpi_send_ -> PMPI_Send) call the
// C profiling layer directly, bypassing the MPI_* symbols this library defines, so a Fortran program
// would be traced as init/finalize-less silence. These entry points (gfortran naming: lower case,
// one trailing underscore; `mpif.h` and `use mpi`) take precedence over the MPI library's, convert
// the Fortran handles and call the traced C functions. `use mpi_f08` (mpi_send_f08) is not covered.
#include "tracer.hpp"

#include <dlfcn.h>

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

MPI_Comm comm(const MPI_Fint* c) { return MPI_Comm_f2c(*c); }
MPI_Datatype type(const MPI_Fint* t) { return MPI_Type_f2c(*t); }
MPI_Op op(const MPI_Fint* o) { return MPI_Op_f2c(*o); }

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
  std::vector<MPI_Request> r(static_cast<std::size_t>(*n));
  for (int i = 0; i < *n; ++i)
    r[static_cast<std::size_t>(i)] = MPI_Request_f2c(reqs[i]);
  *ierr = MPI_Startall(*n, r.data());
  for (int i = 0; i < *n; ++i)
    reqs[i] = MPI_Request_c2f(r[static_cast<std::size_t>(i)]);
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
  std::size_t count = static_cast<std::size_t>(*n);
  std::vector<MPI_Request> r(count);
  std::vector<MPI_Status> st(count);
  for (std::size_t i = 0; i < count; ++i)
    r[i] = MPI_Request_f2c(reqs[i]);
  bool ignore = statuses == MPI_F_STATUSES_IGNORE;
  *ierr = MPI_Waitall(*n, r.data(), ignore ? MPI_STATUSES_IGNORE : st.data());
  for (std::size_t i = 0; i < count; ++i) {
    reqs[i] = MPI_Request_c2f(r[i]);
    if (!ignore)
      MPI_Status_c2f(&st[i], statuses + i * kFortranStatusSize);
  }
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

void mpi_comm_free_(MPI_Fint* c, MPI_Fint* ierr)
{
  MPI_Comm n = comm(c);
  *ierr = MPI_Comm_free(&n);
  *c = MPI_Comm_c2f(n);
}

} // extern "C"

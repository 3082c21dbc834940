// Point-to-point calls: blocking, nonblocking, synchronous, buffered, ready, persistent.
// Lines as SimGrid 3.32's tracer writes them: `<action> <partner> <tag> <count> <dt>`, partners and
// keys in world ranks, plus ` comm=<h>` on a communicator other than MPI_COMM_WORLD.
#include "tracer.hpp"

using namespace tit::tracer;

namespace {

void p2p_line(const char* action, int partner, int tag, int count, MPI_Datatype dt, const CommInfo* c)
{
  TypeCode t = the_tracer.type(dt);
  the_tracer.line(action).num(partner).num(Tracer::tag(tag)).num(t.count(count)).num(t.id);
  the_tracer.end_line(c);
}

int blocking_send(const char* action, int (*real)(const void*, int, MPI_Datatype, int, int, MPI_Comm),
                  const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
  Scope s;
  int rc = real(buf, count, dt, dest, tag, comm);
  if (s.on && rc == MPI_SUCCESS && dest != MPI_PROC_NULL) {
    const CommInfo* c = the_tracer.comm(comm);
    p2p_line(action, c->world_of(dest), tag, count, dt, c);
  }
  return rc;
}

using IsendFn = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);

int nonblocking_send(const char* action, IsendFn real, const void* buf, int count, MPI_Datatype dt, int dest,
                     int tag, MPI_Comm comm, MPI_Request* req)
{
  Scope s;
  int rc = real(buf, count, dt, dest, tag, comm, req);
  if (s.on && rc == MPI_SUCCESS && dest != MPI_PROC_NULL) {
    const CommInfo* c = the_tracer.comm(comm);
    int to = c->world_of(dest);
    p2p_line(action, to, tag, count, dt, c);
    the_tracer.add_request(*req, ReqInfo{the_tracer.rank, to, Tracer::tag(tag), c->handle});
  }
  return rc;
}

/// A persistent request: nothing is written now; each MPI_Start writes `action` (see tracer.hpp).
void remember_persistent(const char* action, MPI_Request req, bool is_recv, int peer, int count, MPI_Datatype dt,
                         int tag, MPI_Comm comm)
{
  if (peer == MPI_PROC_NULL)
    return; // starts and waits of such a request move nothing and write nothing
  const CommInfo* c = the_tracer.comm(comm);
  TypeCode t = the_tracer.type(dt);
  ReqInfo info;
  info.persistent = true;
  info.started = false;
  info.action = action;
  info.partner = the_tracer.peer(*c, peer);
  info.count = t.count(count);
  info.dt = t.id;
  info.comm_handle = c->handle;
  info.tag = Tracer::tag(tag);
  info.src = is_recv ? info.partner : the_tracer.rank;
  info.dst = is_recv ? the_tracer.rank : info.partner;
  the_tracer.requests[req] = info;
}

using InitFn = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);

int send_init(const char* action, InitFn real, const void* buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm, MPI_Request* req)
{
  Scope s;
  int rc = real(buf, count, dt, dest, tag, comm, req);
  if (s.on && rc == MPI_SUCCESS)
    remember_persistent(action, *req, false, dest, count, dt, tag, comm);
  return rc;
}

void start_line(MPI_Request req)
{
  auto it = the_tracer.requests.find(req);
  if (it == the_tracer.requests.end() || !it->second.persistent)
    return;
  it.value().started = true;
  const ReqInfo& r = it->second;
  the_tracer.line(r.action).num(r.partner).num(r.tag).num(r.count).num(r.dt);
  the_tracer.end_line(r.comm_handle);
}

} // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
  return blocking_send(name_of(Kind::Send), PMPI_Send, buf, count, dt, dest, tag, comm);
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
  return blocking_send(name_of(Kind::Send), PMPI_Rsend, buf, count, dt, dest, tag, comm);
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
  return blocking_send(name_of(Kind::Ssend), PMPI_Ssend, buf, count, dt, dest, tag, comm);
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
  return blocking_send(name_of(Kind::Bsend), PMPI_Bsend, buf, count, dt, dest, tag, comm);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request* req)
{
  return nonblocking_send(name_of(Kind::Isend), PMPI_Isend, buf, count, dt, dest, tag, comm, req);
}

int MPI_Irsend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request* req)
{
  return nonblocking_send(name_of(Kind::Isend), PMPI_Irsend, buf, count, dt, dest, tag, comm, req);
}

int MPI_Issend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request* req)
{
  return nonblocking_send(name_of(Kind::Issend), PMPI_Issend, buf, count, dt, dest, tag, comm, req);
}

int MPI_Ibsend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request* req)
{
  return nonblocking_send(name_of(Kind::Ibsend), PMPI_Ibsend, buf, count, dt, dest, tag, comm, req);
}

int MPI_Recv(void* buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Status* status)
{
  Scope s;
  MPI_Status local;
  bool wild = src == MPI_ANY_SOURCE || tag == MPI_ANY_TAG;
  if (wild && status == MPI_STATUS_IGNORE)
    status = &local; // the actual source and tag are recorded, so they are needed
  int rc = PMPI_Recv(buf, count, dt, src, tag, comm, status);
  if (s.on && rc == MPI_SUCCESS && src != MPI_PROC_NULL) {
    const CommInfo* c = the_tracer.comm(comm);
    // Extension: a wildcard receive records the sender and tag that matched (from the status).
    int from = c->world_of(src == MPI_ANY_SOURCE ? status->MPI_SOURCE : src);
    p2p_line(name_of(Kind::Recv), from, tag == MPI_ANY_TAG ? status->MPI_TAG : tag, count, dt, c);
  }
  return rc;
}

int MPI_Irecv(void* buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Request* req)
{
  Scope s;
  int rc = PMPI_Irecv(buf, count, dt, src, tag, comm, req);
  if (s.on && rc == MPI_SUCCESS && src != MPI_PROC_NULL) {
    const CommInfo* c = the_tracer.comm(comm);
    int from = the_tracer.peer(*c, src); // MPI_ANY_SOURCE stays -333, as SimGrid writes it
    p2p_line(name_of(Kind::Irecv), from, tag, count, dt, c);
    the_tracer.add_request(*req, ReqInfo{from, the_tracer.rank, Tracer::tag(tag), c->handle});
  }
  return rc;
}

int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf, int rcount,
                 MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Status* status)
{
  Scope s;
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, status);
  if (!s.on || rc != MPI_SUCCESS)
    return rc;
  const CommInfo* c = the_tracer.comm(comm);
  int from = src == MPI_ANY_SOURCE ? status->MPI_SOURCE : src;
  if (dest == MPI_PROC_NULL && src == MPI_PROC_NULL)
    return rc;
  // One half with MPI_PROC_NULL: the other half alone (SimGrid writes nothing), with tag 0 because
  // `sendRecv` lines carry no tag and are replayed with tag 0, so that they match such a half.
  if (src == MPI_PROC_NULL) {
    p2p_line(name_of(Kind::Send), c->world_of(dest), 0, scount, stype, c);
  } else if (dest == MPI_PROC_NULL) {
    p2p_line(name_of(Kind::Recv), c->world_of(from), 0, rcount, rtype, c);
  } else {
    TypeCode st = the_tracer.type(stype);
    TypeCode rt = the_tracer.type(rtype);
    the_tracer.line(name_of(Kind::SendRecv)).num(st.count(scount)).num(c->world_of(dest)).num(rt.count(rcount)).num(c->world_of(from))
        .num(st.id).num(rt.id);
    the_tracer.end_line(c);
  }
  return rc;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype dt, int dest, int stag, int src, int rtag,
                         MPI_Comm comm, MPI_Status* status)
{
  Scope s;
  MPI_Status local;
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  int rc = PMPI_Sendrecv_replace(buf, count, dt, dest, stag, src, rtag, comm, status);
  if (!s.on || rc != MPI_SUCCESS)
    return rc;
  const CommInfo* c = the_tracer.comm(comm);
  int from = src == MPI_ANY_SOURCE ? status->MPI_SOURCE : src;
  if (dest == MPI_PROC_NULL && src == MPI_PROC_NULL)
    return rc;
  if (src == MPI_PROC_NULL) { // tag 0: see MPI_Sendrecv
    p2p_line(name_of(Kind::Send), c->world_of(dest), 0, count, dt, c);
  } else if (dest == MPI_PROC_NULL) {
    p2p_line(name_of(Kind::Recv), c->world_of(from), 0, count, dt, c);
  } else {
    TypeCode t = the_tracer.type(dt);
    the_tracer.line(name_of(Kind::SendRecv)).num(t.count(count)).num(c->world_of(dest)).num(t.count(count)).num(c->world_of(from))
        .num(t.id).num(t.id);
    the_tracer.end_line(c);
  }
  return rc;
}

// Persistent requests: the init calls write nothing, MPI_Start writes the nonblocking line.
int MPI_Send_init(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request* req)
{
  return send_init(name_of(Kind::Isend), PMPI_Send_init, buf, count, dt, dest, tag, comm, req);
}

int MPI_Rsend_init(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request* req)
{
  return send_init(name_of(Kind::Isend), PMPI_Rsend_init, buf, count, dt, dest, tag, comm, req);
}

int MPI_Ssend_init(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request* req)
{
  return send_init(name_of(Kind::Issend), PMPI_Ssend_init, buf, count, dt, dest, tag, comm, req);
}

int MPI_Bsend_init(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request* req)
{
  return send_init(name_of(Kind::Ibsend), PMPI_Bsend_init, buf, count, dt, dest, tag, comm, req);
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Request* req)
{
  Scope s;
  int rc = PMPI_Recv_init(buf, count, dt, src, tag, comm, req);
  if (s.on && rc == MPI_SUCCESS)
    remember_persistent(name_of(Kind::Irecv), *req, true, src, count, dt, tag, comm);
  return rc;
}

int MPI_Start(MPI_Request* req)
{
  Scope s;
  MPI_Request r = *req;
  int rc = PMPI_Start(req);
  if (s.on && rc == MPI_SUCCESS)
    start_line(r);
  return rc;
}

int MPI_Startall(int count, MPI_Request reqs[])
{
  Scope s;
  int rc = PMPI_Startall(count, reqs);
  if (s.on && rc == MPI_SUCCESS)
    for (int i = 0; i < count; ++i)
      start_line(reqs[i]);
  return rc;
}

int MPI_Request_free(MPI_Request* req)
{
  Scope s;
  MPI_Request r = *req;
  int rc = PMPI_Request_free(req);
  if (s.on && !the_tracer.drop_shared(r))
    the_tracer.requests.erase(r);
  return rc;
}

} // extern "C"

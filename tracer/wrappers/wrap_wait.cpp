// Completion calls. `wait`/`test` name the request by its (src, dst, tag) key in world ranks, as
// SimGrid writes them, and by its communicator (` comm=<h>`) when that is not MPI_COMM_WORLD; waitall/waitAny/testany/testall/testsome are written as SimGrid writes them.
// MPI_Waitsome, which SimGrid does not record, writes one `wait` per completed request; so does an MPI_Waitall over
// some of the rank's pending requests only (a `waitall` completes them all).
#include "tracer.hpp"

using namespace tit::tracer;

namespace {

void key_line(const char* action, const ReqInfo& r)
{
  the_tracer.line(action).num(r.src).num(r.dst).num(r.tag);
  the_tracer.end_line(r.comm_handle);
}

/// The record of the k-th oldest request the handle names (several when Open MPI shares it), if the tracer knows
/// it (a copy: the table may change during the call).
bool find_nth(MPI_Request r, std::size_t k, ReqInfo& out)
{
  if (r == MPI_REQUEST_NULL)
    return false;
  auto shared = the_tracer.shared_requests.find(r);
  std::size_t older = shared == the_tracer.shared_requests.end() ? 0 : shared->second.size();
  if (k < older) {
    out = shared->second[k];
    return true;
  }
  auto it = the_tracer.requests.find(r);
  if (k > older || it == the_tracer.requests.end())
    return false;
  out = it->second;
  return true;
}

bool find(MPI_Request r, ReqInfo& out)
{
  return find_nth(r, 0, out);
}

/// After completion: a persistent request stays known (inactive) until MPI_Request_free.
void completed(MPI_Request r)
{
  if (the_tracer.drop_shared(r)) // the oldest of the requests this handle names
    return;
  auto it = the_tracer.requests.find(r);
  if (it == the_tracer.requests.end())
    return;
  if (it->second.persistent)
    it.value().started = false;
  else
    the_tracer.requests.erase(it);
}

/// The records of the pending requests among `reqs`, in their order, in `known`; true when they are every request
/// this rank has pending, as far as the tracer knows them. A trace's `waitall` completes every pending request, so
/// a waitall over some of them only (LULESH waits for its sends with MPI_Waitall, then for each receive with
/// MPI_Wait) is written as one `wait` per request instead.
bool all_pending(const std::vector<MPI_Request>& reqs, std::vector<ReqInfo>& known)
{
  known.clear();
  thread_local std::unordered_map<MPI_Request, std::size_t> seen; // occurrences of each handle so far
  seen.clear();
  for (MPI_Request r : reqs) {
    ReqInfo info;
    if (r != MPI_REQUEST_NULL && find_nth(r, seen[r]++, info) && info.started)
      known.push_back(info);
  }
  std::size_t pending = 0;
  for (auto const& entry : the_tracer.requests)
    pending += entry.second.started ? 1 : 0;
  for (auto const& entry : the_tracer.shared_requests)
    pending += entry.second.size();
  return known.size() == pending;
}

/// Handles before a multiple-completion call (MPI may overwrite them with MPI_REQUEST_NULL). One buffer per thread:
/// under MPI_THREAD_MULTIPLE two threads may be in such calls at once.
std::vector<MPI_Request>& saved(int count, const MPI_Request reqs[])
{
  thread_local std::vector<MPI_Request> v;
  v.assign(reqs, reqs + (count > 0 ? count : 0));
  return v;
}

void completed_all(const std::vector<MPI_Request>& before)
{
  for (MPI_Request r : before)
    if (r != MPI_REQUEST_NULL)
      completed(r);
}

} // namespace

extern "C" {

int MPI_Wait(MPI_Request* req, MPI_Status* status)
{
  Scope s;
  MPI_Request r = *req;
  ReqInfo info;
  bool known = s.on && find(r, info);
  int rc = PMPI_Wait(req, status);
  if (known && rc == MPI_SUCCESS) {
    key_line(name_of(Kind::Wait), info);
    completed(r);
  }
  return rc;
}

int MPI_Test(MPI_Request* req, int* flag, MPI_Status* status)
{
  Scope s;
  MPI_Request r = *req;
  ReqInfo info;
  bool known = s.on && find(r, info);
  int rc = PMPI_Test(req, flag, status);
  if (known && rc == MPI_SUCCESS) {
    key_line(name_of(Kind::Test), info);
    if (*flag)
      completed(r);
  }
  return rc;
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
  Scope s;
  if (!s.on)
    return PMPI_Waitall(count, reqs, statuses);
  std::vector<MPI_Request>& before = saved(count, reqs);
  thread_local std::vector<ReqInfo> known;
  bool all = all_pending(before, known);
  int rc = PMPI_Waitall(count, reqs, statuses);
  if (rc == MPI_SUCCESS) {
    if (all) {
      the_tracer.line(name_of(Kind::WaitAll)).num(count);
      the_tracer.end_line();
    } else {
      for (const ReqInfo& info : known)
        key_line(name_of(Kind::Wait), info);
    }
    completed_all(before);
  }
  return rc;
}

int MPI_Waitany(int count, MPI_Request reqs[], int* index, MPI_Status* status)
{
  Scope s;
  if (!s.on)
    return PMPI_Waitany(count, reqs, index, status);
  std::vector<MPI_Request>& before = saved(count, reqs);
  int rc = PMPI_Waitany(count, reqs, index, status);
  if (rc == MPI_SUCCESS && count > 0) {
    the_tracer.line(name_of(Kind::WaitAny)).num(count);
    the_tracer.end_line();
    if (*index != MPI_UNDEFINED)
      completed(before[static_cast<std::size_t>(*index)]);
  }
  return rc;
}

int MPI_Waitsome(int count, MPI_Request reqs[], int* outcount, int indices[], MPI_Status statuses[])
{
  Scope s;
  if (!s.on)
    return PMPI_Waitsome(count, reqs, outcount, indices, statuses);
  std::vector<MPI_Request>& before = saved(count, reqs);
  int rc = PMPI_Waitsome(count, reqs, outcount, indices, statuses);
  if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED) {
    for (int i = 0; i < *outcount; ++i) {
      MPI_Request r = before[static_cast<std::size_t>(indices[i])];
      ReqInfo info;
      if (find(r, info)) {
        key_line(name_of(Kind::Wait), info);
        completed(r);
      }
    }
  }
  return rc;
}

int MPI_Testall(int count, MPI_Request reqs[], int* flag, MPI_Status statuses[])
{
  Scope s;
  if (!s.on)
    return PMPI_Testall(count, reqs, flag, statuses);
  std::vector<MPI_Request>& before = saved(count, reqs);
  int rc = PMPI_Testall(count, reqs, flag, statuses);
  if (rc == MPI_SUCCESS) {
    the_tracer.line(name_of(Kind::TestAll));
    the_tracer.end_line();
    if (*flag)
      completed_all(before);
  }
  return rc;
}

int MPI_Testany(int count, MPI_Request reqs[], int* index, int* flag, MPI_Status* status)
{
  Scope s;
  if (!s.on)
    return PMPI_Testany(count, reqs, index, flag, status);
  std::vector<MPI_Request>& before = saved(count, reqs);
  int rc = PMPI_Testany(count, reqs, index, flag, status);
  if (rc == MPI_SUCCESS) {
    the_tracer.line(name_of(Kind::TestAny));
    the_tracer.end_line();
    if (*flag && *index != MPI_UNDEFINED)
      completed(before[static_cast<std::size_t>(*index)]);
  }
  return rc;
}

int MPI_Testsome(int count, MPI_Request reqs[], int* outcount, int indices[], MPI_Status statuses[])
{
  Scope s;
  if (!s.on)
    return PMPI_Testsome(count, reqs, outcount, indices, statuses);
  std::vector<MPI_Request>& before = saved(count, reqs);
  int rc = PMPI_Testsome(count, reqs, outcount, indices, statuses);
  if (rc == MPI_SUCCESS) {
    the_tracer.line(name_of(Kind::TestSome));
    the_tracer.end_line();
    if (*outcount != MPI_UNDEFINED)
      for (int i = 0; i < *outcount; ++i)
        completed(before[static_cast<std::size_t>(indices[i])]);
  }
  return rc;
}

} // extern "C"

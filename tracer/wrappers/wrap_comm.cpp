// Communicator creation (trace extensions, see tracer/README.md "Trace extensions"):
//   comm_split <parent> <color> <key> <new> [<size>]  (color -1 = MPI_UNDEFINED, then new = -1 and no size)
//   comm_dup <parent> <new>
//   comm_create <parent> <new> <n> <r_1> ... <r_n> (group members as parent ranks; new = -1 outside)
//   comm_free <comm>
// Handles: 0 = MPI_COMM_WORLD, then 1, 2, ... in the order this rank obtains communicators.
// Creations without their own line (split_type, cart_create, cart_sub, graph_create) are written
// as the comm_split that builds the same groups in the same order: color = the parent rank of the
// new communicator's rank 0 (-1 where MPI_COMM_NULL is returned), key = the rank obtained.
#include "tracer.hpp"

using namespace tit::tracer;

namespace {

/// Parent ranks of a group's members, in group order.
std::vector<int> parent_ranks(MPI_Group group, MPI_Comm parent)
{
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> in(static_cast<std::size_t>(n)), out(in.size());
  for (int i = 0; i < n; ++i)
    in[static_cast<std::size_t>(i)] = i;
  MPI_Group pg;
  PMPI_Comm_group(parent, &pg);
  PMPI_Group_translate_ranks(group, n, in.data(), pg, out.data());
  PMPI_Group_free(&pg);
  return out;
}

void split_line(MPI_Comm parent, int color, int key, MPI_Comm newcomm)
{
  const CommInfo* p = the_tracer.comm(parent);
  int parent_handle = p->handle;
  int h = the_tracer.add_comm(newcomm);
  Line& l = the_tracer.line(name_of(Kind::CommSplit)).num(parent_handle).num(color == MPI_UNDEFINED || newcomm == MPI_COMM_NULL ? -1 : color)
      .num(key).num(h);
  if (newcomm != MPI_COMM_NULL) { // the size lets the replayer read count vectors before the group is known
    int size = 0;
    PMPI_Comm_size(newcomm, &size);
    l.num(size);
  }
  the_tracer.end_line();
}

void derived_split(MPI_Comm parent, MPI_Comm newcomm)
{
  int color = -1, key = 0;
  if (newcomm != MPI_COMM_NULL) {
    PMPI_Comm_rank(newcomm, &key);
    MPI_Group ng;
    PMPI_Comm_group(newcomm, &ng);
    color = parent_ranks(ng, parent)[0];
    PMPI_Group_free(&ng);
  }
  split_line(parent, color, key, newcomm);
}

void create_line(MPI_Comm parent, MPI_Group group, MPI_Comm newcomm)
{
  int parent_handle = the_tracer.comm(parent)->handle;
  std::vector<int> members = parent_ranks(group, parent);
  int h = the_tracer.add_comm(newcomm);
  Line& l = the_tracer.line(name_of(Kind::CommCreate)).num(parent_handle).num(h).num(static_cast<long long>(members.size()));
  for (int r : members)
    l.num(r);
  the_tracer.end_line();
}

/// `comm_dup <parent> <new>` for MPI_Comm_dup and MPI_Comm_dup_with_info.
void dup_line(MPI_Comm comm, MPI_Comm newcomm)
{
  int parent = the_tracer.comm(comm)->handle;
  int h = the_tracer.add_comm(newcomm);
  the_tracer.line(name_of(Kind::CommDup)).num(parent).num(h);
  the_tracer.end_line();
}

} // namespace

extern "C" {

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm)
{
  Scope s;
  int rc = PMPI_Comm_split(comm, color, key, newcomm);
  if (s.on && rc == MPI_SUCCESS)
    split_line(comm, color, key, *newcomm);
  return rc;
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* newcomm)
{
  Scope s;
  int rc = PMPI_Comm_split_type(comm, type, key, info, newcomm);
  if (s.on && rc == MPI_SUCCESS)
    derived_split(comm, *newcomm);
  return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm)
{
  Scope s;
  int rc = PMPI_Comm_dup(comm, newcomm);
  if (s.on && rc == MPI_SUCCESS)
    dup_line(comm, *newcomm);
  return rc;
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm)
{
  Scope s;
  int rc = PMPI_Comm_dup_with_info(comm, info, newcomm);
  if (s.on && rc == MPI_SUCCESS)
    dup_line(comm, *newcomm);
  return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm)
{
  Scope s;
  int rc = PMPI_Comm_create(comm, group, newcomm);
  if (s.on && rc == MPI_SUCCESS)
    create_line(comm, group, *newcomm);
  return rc;
}

// Collective over the group's members only: only they write the line.
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm)
{
  Scope s;
  int rc = PMPI_Comm_create_group(comm, group, tag, newcomm);
  if (s.on && rc == MPI_SUCCESS)
    create_line(comm, group, *newcomm);
  return rc;
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* newcomm)
{
  Scope s;
  int rc = PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
  if (s.on && rc == MPI_SUCCESS)
    derived_split(comm, *newcomm);
  return rc;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm)
{
  Scope s;
  int rc = PMPI_Cart_sub(comm, remain_dims, newcomm);
  if (s.on && rc == MPI_SUCCESS)
    derived_split(comm, *newcomm);
  return rc;
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm* newcomm)
{
  Scope s;
  int rc = PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm);
  if (s.on && rc == MPI_SUCCESS)
    derived_split(comm, *newcomm);
  return rc;
}

int MPI_Comm_free(MPI_Comm* comm)
{
  Scope s;
  MPI_Comm c = *comm;
  int handle = s.on ? the_tracer.comm(c)->handle : 0;
  int rc = PMPI_Comm_free(comm);
  if (s.on && rc == MPI_SUCCESS) {
    if (handle > 0) {
      the_tracer.line(name_of(Kind::CommFree)).num(handle);
      the_tracer.end_line();
    }
    the_tracer.remove_comm(c);
  }
  return rc;
}

} // extern "C"

/* Helpers shared by the collective test programs (coll_rooted.c, coll_all.c, coll_scan.c).
 *
 * A "shape" is an element count with a datatype. shape_list() gives the shapes every collective
 * is called with: the 1/2/4/8-element small cases in four datatypes, then sizes around the
 * 8192-byte ois segment and the 65536-byte detached/rendez-vous threshold, then BYTES. */
#ifndef TIT_MPI_PROGRAMS_COLL_H
#define TIT_MPI_PROGRAMS_COLL_H

#include "common.h"

typedef struct {
  int count;
  MPI_Datatype type;
} shape_t;

enum { MAX_SHAPES = 16, MAX_RANKS = 64 };

/* Size in bytes of one element of t. */
static inline int type_bytes(MPI_Datatype t)
{
  int s = 0;
  MPI_Type_size(t, &s);
  return s;
}

static inline size_t shape_bytes(shape_t s)
{
  return (size_t)s.count * (size_t)type_bytes(s.type);
}

/* Fills out[] (MAX_SHAPES entries) and returns how many shapes there are:
 *    1 double, 2 int, 4 char, 8 float       (8, 8, 4, 32 bytes)
 *    1000 double                            (8000 bytes: below the 8192 ois segment)
 *    2100 float                             (8400 bytes)
 *    65535 char                             (just below the 65536 detached threshold: detached)
 *    16384 int                              (65536 bytes: rendez-vous)
 *    BYTES/8 double                         (BYTES, e.g. 200000) */
static inline int shape_list(long bytes, shape_t* out)
{
  int n      = 0;
  out[n++]   = (shape_t){1, MPI_DOUBLE};
  out[n++]   = (shape_t){2, MPI_INT};
  out[n++]   = (shape_t){4, MPI_CHAR};
  out[n++]   = (shape_t){8, MPI_FLOAT};
  out[n++]   = (shape_t){1000, MPI_DOUBLE};
  out[n++]   = (shape_t){2100, MPI_FLOAT};
  out[n++]   = (shape_t){65535, MPI_CHAR};
  out[n++]   = (shape_t){16384, MPI_INT};
  int big    = (int)(bytes / 8);
  out[n++]   = (shape_t){big > 0 ? big : 1, MPI_DOUBLE};
  return n;
}

/* The roots used by the rooted collectives: 0, the last rank and a middle one (size / 2),
 * without repetition. Returns how many. */
static inline int root_list(int size, int* roots)
{
  int n      = 0;
  roots[n++] = 0;
  if (size - 1 != 0)
    roots[n++] = size - 1;
  if (size / 2 != 0 && size / 2 != size - 1)
    roots[n++] = size / 2;
  return n;
}

/* Point-to-point between collectives: each rank Isends `bytes` chars to its right neighbour
 * (tag `tag`), receives as many from its left neighbour with a blocking Recv, and waits for its
 * send. Safe whatever the detached threshold. */
static inline void ring_exchange(int rank, int size, char* sbuf, char* rbuf, int bytes, int tag)
{
  if (size < 2)
    return;
  MPI_Request req;
  MPI_Isend(sbuf, bytes, MPI_CHAR, (rank + 1) % size, tag, MPI_COMM_WORLD, &req);
  MPI_Recv(rbuf, bytes, MPI_CHAR, (rank + size - 1) % size, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

/* Imbalanced computation before a collective: 1 to 4 times `flops` depending on the rank and
 * the step, so that ranks enter the collectives at different dates (flop counts stay exact
 * with %g's 6 significant digits when `flops` has few digits). */
static inline void imbalance(int rank, int step, double flops)
{
  compute(flops * (double)(1 + (rank * 3 + step) % 4));
}

#endif

/* libtit-span.so: the span of an MPI program that does not measure itself.
 *
 * Preloaded into an MPI program (LD_PRELOAD), it takes MPI_Wtime right after MPI_Init (or
 * MPI_Init_thread) returns and right before MPI_Finalize is entered, and after MPI_Finalize each rank
 * prints
 *   span RANK SECONDS FROM TO
 * on stdout (FROM and TO: the two moments on the host's CLOCK_MONOTONIC, in seconds, a clock every rank of
 * the host reads alike): the line the mini-applications print themselves (tests/mpi-programs/apps/app.h),
 * which the accuracy harness reads. Nothing is printed before MPI_Finalize and no MPI call is added between the
 * two, so a trace of the same run holds only the program's own calls.
 *
 * Every entry point chains to the next definition of its own name (dlsym(RTLD_NEXT)): preloaded before
 * the tracer (LD_PRELOAD=libtit-span.so:libtit-trace.so), the tracer still sees MPI_Init and MPI_Finalize
 * and writes its trace. (Preloaded after it, this library sees the tracer's PMPI_Init and PMPI_Finalize,
 * which it wraps too: the span then excludes the tracer's own work in MPI_Init and includes it in
 * MPI_Finalize.) Open MPI's Fortran bindings call PMPI_Init directly, so the Fortran entry points
 * are wrapped themselves: gfortran's mpif.h and `use mpi` names in Open MPI's four manglings (mpi_init,
 * mpi_init_, mpi_init__, MPI_INIT) and `use mpi_f08`'s mpi_init_f08_. A wrapper that calls another one
 * (the tracer's mpi_init_ calls MPI_Init, which may come back here) counts as one: only the outermost
 * call takes the time. With the tracer preloaded after this library, the span therefore starts after the
 * tracer's own MPI_Init has opened its trace and ends before its MPI_Finalize writes the last burst: it
 * holds what tracing costs during the program's own calls, as the program would measure it itself. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SPAN_EXPORT __attribute__((visibility("default")))

static int span_depth;  /* nesting of this library's init and finalize wrappers */
static int span_started; /* the outermost MPI_Init returned MPI_SUCCESS */
static int span_rank;
static double span_t0;
static double span_t1;
static double span_clock0; /* the same moments on the host's CLOCK_MONOTONIC */
static double span_clock1;

static double span_clock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The next definition of NAME after this library; stops the program with a message when there is none
 * (this library preloaded into a program that has no MPI library, or an MPI without this entry point). */
typedef void (*span_fn)(void);

static span_fn span_next(const char* name)
{
  void* p = dlsym(RTLD_NEXT, name);
  if (p == NULL) {
    fprintf(stderr, "libtit-span: error: no definition of %s after this library (is the program an MPI program?)\n",
            name);
    exit(2);
  }
  span_fn f; /* ISO C has no conversion from an object pointer to a function pointer: copied */
  memcpy(&f, &p, sizeof f);
  return f;
}

/* After an init entry point returned: the start of the span, if this was the outermost call and MPI is
 * initialised (asked of MPI rather than read from the error code, which `use mpi_f08` may not pass). */
static void span_begin(void)
{
  int initialised = 0;
  if (span_depth != 0 || span_started || PMPI_Initialized(&initialised) != MPI_SUCCESS || !initialised)
    return;
  span_t0 = PMPI_Wtime();
  span_clock0 = span_clock();
  PMPI_Comm_rank(MPI_COMM_WORLD, &span_rank);
  span_started = 1;
}

static void span_end_enter(void)
{
  if (span_depth == 0 && span_started) {
    span_clock1 = span_clock();
    span_t1 = PMPI_Wtime();
  }
}

/* After a finalize entry point returned (whatever it returned: the span was taken before it). */
static void span_end_leave(void)
{
  if (span_depth != 0 || !span_started)
    return;
  span_started = 0;
  printf("span %d %.9f %.9f %.9f\n", span_rank, span_t1 - span_t0, span_clock0, span_clock1);
  fflush(stdout);
}

/* The three calls, whichever entry point (MPI_ or PMPI_) led here: the next definition, run nested (a wrapper
 * reached again from inside it takes nothing), then the span's end points. */

typedef int (*init_fn)(int*, char***);
typedef int (*init_thread_fn)(int*, char***, int, int*);
typedef int (*finalize_fn)(void);

static int span_init(const char* name, init_fn* next_of, int* argc, char*** argv)
{
  if (*next_of == NULL)
    *next_of = (init_fn)span_next(name);
  init_fn next = *next_of;
  ++span_depth;
  int rc = next(argc, argv);
  --span_depth;
  span_begin();
  return rc;
}

static int span_init_thread(const char* name, init_thread_fn* next_of, int* argc, char*** argv, int required,
                            int* provided)
{
  if (*next_of == NULL)
    *next_of = (init_thread_fn)span_next(name);
  init_thread_fn next = *next_of;
  ++span_depth;
  int rc = next(argc, argv, required, provided);
  --span_depth;
  span_begin();
  return rc;
}

static int span_finalize(const char* name, finalize_fn* next_of)
{
  if (*next_of == NULL)
    *next_of = (finalize_fn)span_next(name);
  finalize_fn next = *next_of;
  span_end_enter();
  ++span_depth;
  int rc = next();
  --span_depth;
  span_end_leave();
  return rc;
}

/* C and C++ (Open MPI's C++ bindings call the C functions). */

SPAN_EXPORT int MPI_Init(int* argc, char*** argv)
{
  static init_fn next;
  return span_init("MPI_Init", &next, argc, argv);
}

SPAN_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
  static init_thread_fn next;
  return span_init_thread("MPI_Init_thread", &next, argc, argv, required, provided);
}

SPAN_EXPORT int MPI_Finalize(void)
{
  static finalize_fn next;
  return span_finalize("MPI_Finalize", &next);
}

/* The profiling layer, for a library preloaded before this one whose MPI_Init calls PMPI_Init (the tracer
 * when LD_PRELOAD=libtit-trace.so:libtit-span.so): the span is then taken inside that library's calls. Preloaded
 * first, as intended, these are nested in the wrappers above and take nothing. */

SPAN_EXPORT int PMPI_Init(int* argc, char*** argv)
{
  static init_fn next;
  return span_init("PMPI_Init", &next, argc, argv);
}

SPAN_EXPORT int PMPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
  static init_thread_fn next;
  return span_init_thread("PMPI_Init_thread", &next, argc, argv, required, provided);
}

SPAN_EXPORT int PMPI_Finalize(void)
{
  static finalize_fn next;
  return span_finalize("PMPI_Finalize", &next);
}

/* Fortran: each name chains to its own next definition (the tracer's or Open MPI's). IERR is passed on as
 * it came: `use mpi_f08` passes a null pointer when the optional ierror is absent. */

typedef void (*span_finit)(MPI_Fint*);
typedef void (*span_finit_thread)(MPI_Fint*, MPI_Fint*, MPI_Fint*);

static void span_fortran_init(const char* name, span_finit* next, MPI_Fint* ierr)
{
  if (*next == NULL)
    *next = (span_finit)span_next(name);
  ++span_depth;
  (*next)(ierr);
  --span_depth;
  span_begin();
}

static void span_fortran_init_thread(const char* name, span_finit_thread* next, MPI_Fint* required,
                                     MPI_Fint* provided, MPI_Fint* ierr)
{
  if (*next == NULL)
    *next = (span_finit_thread)span_next(name);
  ++span_depth;
  (*next)(required, provided, ierr);
  --span_depth;
  span_begin();
}

static void span_fortran_finalize(const char* name, span_finit* next, MPI_Fint* ierr)
{
  if (*next == NULL)
    *next = (span_finit)span_next(name);
  span_end_enter();
  ++span_depth;
  (*next)(ierr);
  --span_depth;
  span_end_leave();
}

#define SPAN_FORTRAN_NAMES(INIT, INIT_THREAD, FINALIZE)                                                      \
  SPAN_EXPORT void INIT(MPI_Fint* ierr)                                                                         \
  {                                                                                                             \
    static span_finit next;                                                                                     \
    span_fortran_init(#INIT, &next, ierr);                                                                      \
  }                                                                                                             \
  SPAN_EXPORT void INIT_THREAD(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr)                          \
  {                                                                                                             \
    static span_finit_thread next;                                                                              \
    span_fortran_init_thread(#INIT_THREAD, &next, required, provided, ierr);                                    \
  }                                                                                                             \
  SPAN_EXPORT void FINALIZE(MPI_Fint* ierr)                                                                     \
  {                                                                                                             \
    static span_finit next;                                                                                     \
    span_fortran_finalize(#FINALIZE, &next, ierr);                                                              \
  }

SPAN_FORTRAN_NAMES(mpi_init, mpi_init_thread, mpi_finalize)
SPAN_FORTRAN_NAMES(mpi_init_, mpi_init_thread_, mpi_finalize_)
SPAN_FORTRAN_NAMES(mpi_init__, mpi_init_thread__, mpi_finalize__)
SPAN_FORTRAN_NAMES(MPI_INIT, MPI_INIT_THREAD, MPI_FINALIZE)
SPAN_FORTRAN_NAMES(mpi_init_f08_, mpi_init_thread_f08_, mpi_finalize_f08_)

// The ring program compiled as C++ (mpicxx-style): the tracer sees the same C symbols, so the
// trace must equal ring's.
#include "ring.c"

// The Fortran MPI routines a traced program may call that the tracer does not trace (tracer/README.md, "Untraced
// routines"): Open MPI's Fortran bindings call the C profiling layer directly, so a Fortran call without an entry point
// of this library is in no line of the trace, and its time is counted in the next compute burst. Found from the dynamic
// symbols that the program and its shared libraries import (Fortran code imports the routines it calls; C++ code
// compiled with Open MPI's C++ bindings imports every routine they wrap, so C names are not looked at: the C routines
// the tracer does not trace count their calls instead, wrappers/wrap_untraced.cpp).
#pragma once

#include <string>
#include <vector>

namespace tit::tracer {

/// The communicating MPI routines (the traced ones, one-sided, probes, neighbourhood collectives, intercommunicators,
/// MPI-IO, ...) that a loaded object other than the MPI library imports in Fortran spelling (mpi_put_) where the
/// symbol the program would reach is not this library's, in the order of the list in untraced.cpp.
std::vector<std::string> untraced_imports();

} // namespace tit::tracer

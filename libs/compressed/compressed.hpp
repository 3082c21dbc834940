// Compressed, loop-structured trace files (docs/compressed-format.md). Each rank's actions are folded
// into nested loops over action signatures (the action with its numbers replaced by references into the
// rank's value streams and its partners written relative to the rank); ranks with the same loops share
// them. TraceSet::open reads such a file like any other trace set. Knows nothing of SimGrid.
//
// The one header of libs/compressed that code outside it includes (the trace reader, tit-trace's tools, the tracer).
// Its layers, one way down: fold/ (folding actions into a compressed trace, writing it) over read/ (expanding a file
// back into actions) over container/ (the structure record, packing, the file) over values/ (value runs, blocks, bins,
// `stats` schedules) over common/ (the model of the file, bytes).
#pragma once

#include "compressed/common/format.hpp"
#include "compressed/fold/fold.hpp"
#include "compressed/read/read.hpp"
#include "compressed/values/streams.hpp"
#include "compressed/values/values.hpp"

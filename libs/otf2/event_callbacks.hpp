// The OTF2 event callbacks that feed a RankEvents: MPI records, regions, metrics, and the refusal of the records
// that cannot be replayed (one-sided, I/O, threads, OpenMP).
#pragma once

#include <otf2/otf2.h>

namespace tit::otf2 {

/// New callbacks (OTF2_EvtReaderCallbacks_Delete them) whose user data is a RankEvents.
OTF2_EvtReaderCallbacks* make_event_callbacks();

} // namespace tit::otf2

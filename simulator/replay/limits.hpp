// Limits of the machine that a replay of many ranks meets before SimGrid does (SimGrid aborts with a core dump), and
// engine settings refused before SimGrid sees them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tit::replay {

/// Memory mappings a replay needs besides the ranks' stacks (libraries, heap, buffers).
inline constexpr long kOtherMappings = 4096;

/// The actor stack size (KiB) tit-replay gives SimGrid unless `contexts/stack-size` is set. A rank's replay needs
/// less than 8 KiB of stack (every e2e test passes with 8 KiB stacks and their guard pages, some overflow at 4);
/// SimGrid's default, 8 MiB, is for the MPI programs SMPI runs. 256 KiB also takes less memory per rank than larger
/// stacks (docs/performance.md, "Actor stacks": 24 KiB per rank instead of 32 at 16,384 ranks, same predictions).
inline constexpr int kStackKiB = 256;
/// The stack size (KiB) the mapping error suggests with the guard pages dropped: SimGrid then zeroes every stack, so
/// all of it is resident; 4 times what a rank was found to need.
inline constexpr int kUnguardedStackKiB = 32;

/// What is wrong with creating `actors` rank actors when every actor stack has a guard page (`guard_pages` > 0, each
/// stack then takes two memory mappings) and a process may hold `max_map_count` mappings; nothing when it fits.
std::optional<std::string> mapping_problem(std::size_t actors, int guard_pages, long max_map_count);

/// What is wrong with the engine settings `cfg` (the --cfg values, NAME:VALUE, later ones winning), or nothing. SimGrid
/// 3.32 aborts with a core dump, not an error, on a value without a name or a colon, on an optimisation mode other
/// than Lazy, Full or TI (`network/optim`, `cpu/optim`), and on selective update turned off under the lazy mode;
/// and parallel contexts (`contexts/nthreads` above 1) would run the ranks, which share the MPI layer's state without
/// locks, in several threads (a 16,384-rank ring crashed). docs/performance.md, "Solver options".
std::optional<std::string> refused_setting(const std::vector<std::string>& cfg);

/// The process's limit of memory mappings (/proc/sys/vm/max_map_count), or nothing where it cannot be read.
std::optional<long> max_map_count();

/// SimGrid 3.32's network solver recurses over the constraints its flows link (System::update_modified_cnst_set_rec),
/// on the main thread's stack: about one frame per constraint of a connected set, 8 MiB (the usual limit) for some
/// 87,000 of them, met by a ring of 65,536 ranks. Raises the soft stack limit to what `actors` ranks may need (at most
/// 120 MiB: the kernel keeps at least 128 MiB free below the main stack), where the hard limit allows.
void make_room_for_solver(std::size_t actors);

} // namespace tit::replay

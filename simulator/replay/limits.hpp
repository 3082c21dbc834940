// Limits of the machine that a replay of many ranks meets before SimGrid does (SimGrid aborts with a core dump).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

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

/// The process's limit of memory mappings (/proc/sys/vm/max_map_count), or nothing where it cannot be read.
std::optional<long> max_map_count();

/// SimGrid 3.32's network solver recurses over the constraints its flows link (System::update_modified_cnst_set_rec),
/// on the main thread's stack: about one frame per constraint of a connected set, 8 MiB (the usual limit) for some
/// 87,000 of them, met by a ring of 65,536 ranks. Raises the soft stack limit to what `actors` ranks may need (at most
/// 120 MiB: the kernel keeps at least 128 MiB free below the main stack), where the hard limit allows.
void make_room_for_solver(std::size_t actors);

} // namespace tit::replay

// Passes of tit-trace extrapolate on an input's folded structure, before its ranks are merged into class structures
// (extrap_model.hpp): the compressor's loops that extrapolation cannot fit unrolled, and repeats longer than the
// folder's window folded.
#pragma once

#include "compressed/compressed.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tit::extrap {

/// Where gather_sporadic_blocks moved blocks in one rank's sequence: the first action of the gathered blocks (from 0,
/// in the sequence as given out), how many actions they are, and how many blocks.
struct GatheredRun {
  std::uint64_t first = 0;
  std::uint64_t length = 0;
  std::uint64_t blocks = 0;
};

/// `set` read with each rank's runs of one repeated block in which a block of collectives (with the computes between
/// them, every collective one the repeated block makes too) is inserted at one place of some iterations only (miniFE's
/// breakdown checks: data decide which iterations) given out as the repeated block, then the inserted blocks one after
/// the other (docs/extrapolation.md#sporadic-blocks); read after merge_computes. `runs[r]` says where rank r's went,
/// filled as its reader is read.
std::unique_ptr<trace::TraceSet> gather_sporadic_blocks(std::unique_ptr<trace::TraceSet> set,
                                                        std::vector<std::vector<GatheredRun>>& runs);

/// The loop nodes of `trace` (folded from a set read through gather_sporadic_blocks, with its `runs`) that hold the
/// gathered blocks: their trip counts are data.
std::set<std::uint32_t> gathered_loops(const trace::cformat::Loaded& trace,
                                       const std::vector<std::vector<GatheredRun>>& runs);

/// Unrolls, in place, every loop of `trace` whose body creates or frees communicators (comm_split, comm_dup,
/// comm_create, comm_free):
/// two splits in a row (rows, then columns) fold into a loop of 2 whose new handle and colour change at each
/// iteration, while extrapolation fits one value per action of the structure.
void unroll_communicator_loops(trace::cformat::Loaded& trace);

/// Unrolls, in place, every loop of 2 iterations of `trace`: on a grid 2 ranks wide, the exchanges with the neighbours
/// on both sides name one partner and fold into a loop of 2, where a wider grid has two different actions (SMPI's
/// CoMD at 8 ranks, 2 x 2 x 2, against 16, 4 x 2 x 2); unrolled, the inputs have one structure (issue 35).
void unroll_pairs(trace::cformat::Loaded& trace);

/// Rotates, in place, every loop whose preceding item is its body's last, `X (A X)^n` into `(X A)^n X`, until none is,
/// and takes into each loop the copies of its body right before or after it: the folder begins a loop where a repeat
/// is first seen and may leave an iteration beside it, which the inner loops' counts can change (a compute before an
/// iteration's first exchange in one input, after its last in another; NPB CG's last iteration outside its loop at 32
/// ranks and not at 8); normalised, the inputs have one structure.
void rotate_loops(trace::cformat::Loaded& trace);

/// Unrolls, in place, every loop of at most `max_trip` iterations whose iterations differ in a value that is no volume
/// (on any rank): a few calls of one kind with different arguments in a row fold into a loop whose values change at
/// each iteration (SMPI's CoMD: four MPI_Allreduce of 1, 4, 2 and 2 elements), while extrapolation fits one value
/// per action of the structure and input (issue 35). Longer loops stay folded (refused later, with the value named).
/// A value stream that ends early is an error naming `path`.
void unroll_varying_loops(trace::cformat::Loaded& trace, const std::string& path, std::uint64_t max_trip);

/// `set` read with the partners of each run of recursive-doubling steps of a rank written `xor:LO:up` (or `down`, LO
/// the lowest k; docs/extrapolation.md#recursive-doubling): a block of at most 8 actions repeated with partners rank
/// XOR 2^k, k going up or down by 1 from one block to the next, twice or more, and exchanging both ways with the
/// partner. Every step of every rank then has one signature, and the folder folds the run into a loop. Runs of
/// communicator splits by recursive bisection likewise (BisectField: their colours, sizes and keys written
/// `bisect:...`).
std::unique_ptr<trace::TraceSet> butterfly_steps(std::unique_ptr<trace::TraceSet> set);

/// The partner of a run of recursive-doubling steps (butterfly_steps): `xor:LO:up` (k = LO, LO + 1, ... from the first
/// step) or `xor:LO:down` (k down to LO at the last step), either with `:b` after it (a run right after another).
struct XorSteps {
  int low = 0;
  bool up = true;
};
/// `slot`'s partner of steps; std::nullopt when it is none (another kind of slot, another literal).
std::optional<XorSteps> xor_steps(const trace::cformat::Slot& slot);

/// A value of a communicator split by recursive bisection (butterfly_steps: `bisect:colour`, `bisect:key`,
/// `bisect:size`), which the target computes from the rank and the split's number i: bit log2 p - 1 - i of the rank,
/// the rank mod p / 2^i, p / 2^(i+1).
enum class BisectField { Colour, Key, Size };
/// `slot`'s field of a bisection split; std::nullopt when it is none.
std::optional<BisectField> bisect_field(const trace::cformat::Slot& slot);

/// Whether `slot` is what makes a loop one of steps: a partner `xor:...` or a field `bisect:...`.
bool step_slot(const trace::cformat::Slot& slot);

/// Whether `body` is a step of a run of recursive-doubling steps or of bisection splits (butterfly_steps): actions
/// only, one of them with a partner `xor:...` or a field `bisect:...`. The unrolling passes leave loops of such steps
/// folded.
bool holds_steps(const trace::cformat::Meta& meta, std::uint32_t body);

/// Per rank of `meta`, the runs of recursive-doubling steps its structure reaches (loops of steps: butterfly_steps), as
/// (LO, n): partners rank XOR 2^k for k from LO to LO + n - 1. A grid whose ranks along one dimension are such a run
/// explains them (extrapolate.cpp's find_grid: NPB CG's row sums on rows of n0 ranks).
std::vector<std::vector<std::pair<int, int>>> step_spans(const trace::cformat::Meta& meta);

/// How many ranks have loops of steps (butterfly_steps), per kind: recursive doubling, bisection splits.
struct StepRanks {
  std::size_t doubling = 0, splits = 0;
  std::size_t any() const { return doubling + splits; }
  StepRanks& operator+=(const StepRanks& o)
  {
    doubling += o.doubling;
    splits += o.splits;
    return *this;
  }
};

/// The values of each loop of steps (butterfly_steps) that grow by the same integer at each step (NPB CG tags step i
/// with i; the handles of bisection splits), in place: written as their first step's, the slope in the signature's
/// value slot (`+1/step`). Returns how many ranks have loops of steps, per kind. `path` names the file in errors.
StepRanks butterfly_slopes(trace::cformat::Loaded& trace, const std::string& path);

/// Folds, in each rank's sequence of at least `min_items` items (the folder looks for bodies of at most
/// trace::cformat::kFoldWindow items), its longest stretch of one block repeated into a loop: an iterative solver's
/// iterations, each longer than the folder's window, whose count may differ between inputs (a convergence test). Blocks
/// repeat where their actions' values other than volumes are equal too; 3 repetitions at least (loops of 2 are
/// unrolled: unroll_pairs). `path` names the file in errors.
void fold_long_repeats(trace::cformat::Loaded& trace, const std::string& path, std::size_t min_items);

} // namespace tit::extrap

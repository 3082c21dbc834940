// The model that tit-trace extrapolate fits (docs/extrapolation.md#model): the ranks of each input trace set,
// folded into loops by the compressor, grouped by their position class on the process grid; per class one
// structure (the loops and actions that every rank of the class, in every input, performs) whose numbers (trip
// counts, values, partners) are observed per input, ready to be fitted as functions of the process count.
#pragma once

#include "core/error.hpp"

#include "extrap_grid.hpp"

#include "compressed/compressed.hpp"
#include "trace/reader.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tit::extrap {

/// What extrapolation refuses (inputs that disagree, numbers no function fits): exit 2 in tit-trace.
class ExtrapolationError : public tit::Error {
public:
  using tit::Error::Error;
};

/// One trace set, folded, with its process grid.
struct Input {
  std::string path;
  trace::cformat::Loaded trace;
  Grid grid;
  /// the loop nodes that hold blocks of collectives gathered from the iterations they were in (extrap_unroll.hpp's
  /// gather_sporadic_blocks): their trip counts are data; and how many ranks had some
  std::set<std::uint32_t> gathered;
  std::size_t gathered_ranks = 0;
  int ranks() const { return trace.meta.rank_count; }
};

/// Where an observation came from: a rank and its action's number in the rank's sequence (from 1), the action's
/// text with partners as absolute ranks.
struct Origin {
  int rank = -1;
  std::uint64_t action = 0;
  std::string text;
};

/// The numbers one parameter took in one input, over the ranks of the class and the occurrences of its action.
struct Observation {
  bool seen = false;
  // values and trip counts
  double sum = 0;
  std::uint64_t count = 0;
  std::uint64_t nonzero = 0; ///< values other than 0 (a compute's presence: merge_computes gives each gap one)
  bool all_int = true;    ///< every token a canonical integer
  bool all_equal = true;  ///< every token equal to the first
  double low = 0, high = 0; ///< the smallest and largest value seen (the spread of a data-dependent size)
  std::string first_token;
  std::string other_token; ///< the first token that differs from first_token
  Origin first, other;
  // partners: the partner's grid offset, absolute rank and offset modulo the rank count, each while every
  // observation agrees
  bool delta_ok = true, absolute_ok = true, offset_ok = true;
  std::array<int, 3> delta{0, 0, 0};       ///< the first observation's offset (Grid::neighbour)
  std::vector<std::array<int, 3>> deltas; ///< the offsets that fit every observation (Grid::neighbour_offsets: two
                                          ///< along a dimension of 2 ranks, where both sides are one rank)
  int absolute = 0;
  int offset = 0;
  // integer values per rank, for a value that differs between the ranks of a class (a grid function of the rank's
  // coordinates, docs/extrapolation.md#per-rank-values): while every token is an integer and each rank's is the same
  // in every occurrence; for a partner, each rank's partner while it is the same in every occurrence
  bool per_rank_ok = true;
  std::map<int, long long> by_rank;
  /// a volume's values per rank, in the rank's order, in the largest input (build_classes with `keep_samples`): how
  /// each rank varies around the mean, which `--volumes resample` gives the target's ranks
  std::map<int, std::vector<double>> samples;
  double mean() const { return count ? sum / static_cast<double>(count) : 0; }
  /// (high - low) / mean: how much the values differ (0 when equal; infinite when their mean is 0 and they are not)
  double spread() const;
};

struct Param {
  enum class Kind { Trip, Value, Partner };
  Kind kind = Kind::Value;
  bool volume = false;   ///< a compute or sleep amount: fitted approximately, averaged over ranks and occurrences
  /// a count of a per-rank vector collective (an entry of the vector, or the count or sum before it) or a point-to-point
  /// message's size: a size that may depend on the data (NPB IS's key counts) or on a partition that does not divide
  /// evenly (NPB CG's rows, 87 or 88 a rank at 128 ranks), fitted as its mean when no exact model holds
  bool size = false;
  /// a point-to-point message's size: the parameter of its partner (the same action's), whose grid offset says which
  /// dimensions the message's face spans (extrap::fit_face)
  std::optional<std::size_t> partner;
  /// a trip count of blocks of collectives gathered from the iterations they were in, in some input (Input::gathered):
  /// a count of events the data decide
  bool gathered = false;
  std::string where;     ///< "item 3>1 `isend`, argument 2" or "item 3, a loop"
  std::vector<Observation> per_input;
  /// A per-rank vector's entries that this parameter could not model (every other entry of a vector whose entries
  /// differ; the entries of non-neighbours that differ): the first refusal, naming the rank and the action.
  std::string refusal;
};

/// An item of a class's structure: an action (its name and arguments) or a loop (its trip count parameter).
struct TemplateNode {
  bool loop = false;
  std::string name;                 ///< action
  std::vector<trace::cformat::Slot> slots; ///< action: literals as they are; Relative/Value slots refer to params;
                                           ///< a per-rank vector (vector_segments) is one Value slot here
  std::vector<std::size_t> params;  ///< per slot: its parameter (unused for literals; a vector's own entry)
  std::vector<bool> vector;         ///< per slot: a per-rank vector of the rank count's length
  std::vector<std::size_t> others;  ///< per slot: a vector's parameter for every entry but the rank's own
  /// per slot of a vector, the other model of its entries (docs/extrapolation.md#per-rank-vectors): one parameter per
  /// grid offset of a neighbour (`near`), and one for the entries of every rank that is no neighbour (`far`)
  std::vector<std::map<std::array<int, 3>, std::size_t>> near;
  std::vector<std::size_t> far;
  std::size_t trip = 0;             ///< loop: its trip count parameter
  std::vector<TemplateNode> body;   ///< loop
  /// action in a run of one kind to grid neighbours: the partner's grid offset on the first rank merged here, the order
  /// the other ranks' runs are read in (RankWalk::partner_order)
  std::optional<std::array<int, 3>> canon;
  std::string position;             ///< "3>1": item 3 of the rank's sequence, item 1 of that loop's body
  std::string sample;               ///< the origin rank's first occurrence (text), or "a loop of N iterations"
};

/// Whether `p` is a size (Param::size) whose values are integers in every input, so that their mean may stand for
/// them when no exact model holds (docs/extrapolation.md#data-dependent-sizes); how far apart they were, the largest
/// (high - low) / mean, in `largest`.
bool data_dependent_sizes(const Param& p, double& largest);

/// The class key of every rank when the ranks are one class (build_classes with `one_class`).
inline constexpr int kEveryRank = -1;

struct ClassModel {
  std::array<int, 3> position{0, 0, 0};
  int key = 0;                      ///< position_code(position), or kEveryRank
  std::string name;                 ///< "first,interior"
  trace::Dialect dialect = trace::Dialect::SimGrid;
  std::vector<TemplateNode> top;
  std::vector<Param> params;
  std::vector<bool> in_input;       ///< whether an input has ranks of this class
  std::size_t origin_input = 0;     ///< the rank the structure was taken from
  int origin_rank = 0;
  std::string origin_path;
};

/// The per-rank vectors (first slot, length `ranks`) among the `slot_count` arguments of a `name` action (dialect 2:
/// the counts of alltoallv, gatherv, scatterv, allgatherv, reducescatter, blocking or not) on `ranks` ranks; empty
/// when the action has none or its argument count does not fit them.
std::vector<std::size_t> vector_segments(const std::string& name, std::size_t slot_count, int ranks);

/// Groups the ranks of `inputs` (grids set) by position class and merges each class's ranks into one structure,
/// collecting the observations. Throws ExtrapolationError naming both ranks and the action where two ranks of a class
/// differ in structure (an action or loop where the other has another, or none).
/// With `one_class`, every rank of every input in one class (key kEveryRank), whatever its grid position: the ranks of
/// a periodic grid (or of a code whose boundary ranks behave as the others) have one structure, and an input whose grid
/// has no interior along a dimension (2 ranks wide) still counts (docs/extrapolation.md#one-class).
/// With `keep_samples`, every volume of the largest input (the last) is kept per rank (Observation::samples).
std::vector<ClassModel> build_classes(const std::vector<Input>& inputs, bool one_class = false,
                                      bool keep_samples = false);

/// The class key of `rank` on `grid`: its position code, or kEveryRank for one class.
inline int class_key(const Grid& grid, int rank, bool one_class)
{
  return one_class ? kEveryRank : position_code(grid.position(rank));
}

/// The partners (absolute ranks, with the rank) that the actions of each rank of `input` name, for finding its grid.
std::vector<std::pair<int, int>> partner_pairs(const Input& input);

/// `set` read with consecutive `compute` actions of a rank merged into one (volumes summed): a burst that the program
/// split with a call the trace does not show (SMPI ends a burst at MPI_Wtime) is one burst, whatever its parts'
/// sizes against the tracer's threshold. Replayed, the merged action takes the same time (up to rounding). And every
/// gap (between two non-compute actions, after the last) that has no compute gets a
/// `compute 0`: a compute's presence is a value, so that ranks that computed in a gap now and then (a volume near the
/// tracer's threshold) have the structure of those that always did (the generator leaves out a compute that is
/// absent at the target).
std::unique_ptr<trace::TraceSet> merge_computes(std::unique_ptr<trace::TraceSet> set);

/// Points `a.args` at the arguments of `a.text` (after the rank and the name): for readers that hold an action's text
/// themselves, once the underlying reader's has moved on.
void point_args(trace::Action& a);

/// Per rank of `input`, the colours of its `comm_split` actions in order (-1: MPI_UNDEFINED), for finding its grid.
std::vector<std::vector<long long>> split_colours(const Input& input);

/// How many ranks are members of a communicator made by `comm_split` (the ranks with the same colour at the same
/// split, from split_colours) that is a line or a plane of `grid`: its members span whole dimensions of the grid and
/// agree on the other coordinates (a row, a column), not the whole grid.
std::size_t grid_line_members(const std::vector<std::vector<long long>>& colours, const Grid& grid);

} // namespace tit::extrap

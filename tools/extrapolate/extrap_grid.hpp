// Process grids of tit-trace extrapolate (docs/extrapolation.md#grid): 1-D, 2-D or 3-D, ranks numbered with
// dimension 0 varying fastest (rank = x0 + n0 * (x1 + n1 * x2)) or by recursive bisection (a box halved along one
// dimension after the other, the lower half taking the lower ranks), dimensions chosen as MPI_Dims_create chooses
// them, and each rank's position class (first, interior, last along each dimension).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tit::extrap {

/// MPI_Dims_create's choice for `p` ranks in `d` dimensions: the factorisation whose largest and smallest factors
/// are closest (then the smallest largest factor), in non-increasing order.
std::vector<int> dims_create(int p, int d);

/// How a grid numbers its ranks.
enum class Numbering {
  RowMajor,  ///< rank = x0 + n0 * (x1 + n1 * x2): dimension 0 varies fastest (MPI_Cart_create's order)
  /// Recursive bisection (miniFE's box_partition; recursive coordinate bisection with power-of-two halves): the rank's
  /// bits, most significant first, halve the box along dimensions d-1, d-2, ..., 0, d-1, ... in turn (a dimension
  /// whose halvings are spent is skipped), bit 1 the upper half. Every size a power of two.
  Bisection,
  /// Recursive coordinate bisection that halves the dimension with the most ranks left (miniAMR's initial
  /// partition): ties to the higher dimension, so that 4 x 4 x 4 is halved along 2, 1, 0, 2, 1, 0 as Bisection does,
  /// but 2 x 2 x 4 along 2, 2, 1, 0. Every size a power of two.
  BisectionLargest,
};

/// Whether `n` numbers ranks by one of the recursive bisections.
inline bool bisected(Numbering n) { return n == Numbering::Bisection || n == Numbering::BisectionLargest; }

struct Grid {
  std::vector<int> dims; ///< dims[0] varies fastest (row-major); 1 to 3 dimensions
  Numbering numbering = Numbering::RowMajor;

  int dimensions() const { return static_cast<int>(dims.size()); }
  int ranks() const;
  std::array<int, 3> coords(int rank) const;
  int rank_of(const std::array<int, 3>& c) const;
  /// The sizes as a function's variables: n0, n1, n2 (1 beyond the grid's dimensions).
  std::array<double, 3> sizes() const;
  /// "6 x 6" (n0 first); "8 x 8 x 8, recursive bisection" (", largest first") for those numberings.
  std::string describe() const;
  /// The position class of `rank`: per dimension 0 first, 1 interior, 2 last (a dimension of 1: 3, only).
  std::array<int, 3> position(int rank) const;
  /// The grid offset from `from` to `to` when `to` is a neighbour (each coordinate within 1, directly or across the
  /// boundary: periodic wrap); std::nullopt otherwise. A direct offset is preferred to a wrapped one.
  std::optional<std::array<int, 3>> neighbour(int from, int to) const;
  /// Every grid offset (each coordinate -1, 0 or 1) that leads from `from` to `to` across the periodic boundary: more
  /// than one along a dimension of 2 ranks, where the neighbours on both sides are one rank (none: no neighbour).
  std::vector<std::array<int, 3>> neighbour_offsets(int from, int to) const;
  /// The rank at grid offset `delta` of `from`, wrapping around the boundary when needed.
  int at_offset(int from, const std::array<int, 3>& delta) const;
};

/// A position as one integer (a key: positions compare by it).
inline int position_code(const std::array<int, 3>& position) { return position[0] + 4 * position[1] + 16 * position[2]; }

/// "first,interior" for a position (as many entries as dimensions).
std::string position_name(const std::array<int, 3>& position, int dimensions);

/// The grid of `p` ranks in `d` dimensions: dims_create(p, d), in the order where the smallest dimension varies
/// fastest (MPI_Cart_create's row-major numbering) or, with `largest_fastest`, the largest.
Grid grid_for(int p, int d, bool largest_fastest);

/// The grid of `p` ranks in `d` dimensions numbered by recursive bisection: each dimension 2^(the halvings along it),
/// dimension d-1 halved first (so the largest when they differ), numbered by `numbering` (one of the bisections);
/// std::nullopt when `p` is not a power of two.
std::optional<Grid> bisection_grid(int p, int d, Numbering numbering = Numbering::Bisection);

/// Whether every size of `g` is a power of two (what Numbering::Bisection needs).
bool powers_of_two(const Grid& g);

/// "AxBxC" (A the fastest-varying dimension): std::nullopt when malformed (not 1 to 3 positive integers).
std::optional<Grid> parse_grid(std::string_view text);

} // namespace tit::extrap

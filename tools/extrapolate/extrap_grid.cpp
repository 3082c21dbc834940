// Process grids of tit-trace extrapolate (docs/extrapolation.md#grid).
#include "extrap_grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace tit::extrap {

namespace {

/// Every non-increasing factorisation of `p` into `d` factors, the best (closest largest and smallest, then the
/// smallest largest) kept in `best`.
void search(int p, int d, int max_factor, std::vector<int>& current, std::vector<int>& best)
{
  if (d == 1) {
    if (p > max_factor)
      return;
    current.push_back(p);
    auto spread = [](const std::vector<int>& v) { return std::pair(v.front() - v.back(), v.front()); };
    if (best.empty() || spread(current) < spread(best))
      best = current;
    current.pop_back();
    return;
  }
  for (int f = std::min(p, max_factor); f >= 1; --f) {
    if (p % f != 0)
      continue;
    current.push_back(f);
    search(p / f, d - 1, f, current, best);
    current.pop_back();
  }
}

} // namespace

std::vector<int> dims_create(int p, int d)
{
  std::vector<int> current, best;
  search(p, d, p, current, best);
  return best;
}

int Grid::ranks() const
{
  int n = 1;
  for (int d : dims)
    n *= d;
  return n;
}

namespace {

int log2_exact(int n)
{
  int b = 0;
  while ((1 << b) < n)
    ++b;
  return b;
}

/// The dimension that each bit of a bisection-numbered rank halves, most significant bit first (`size` of them; a rank
/// count below 2^31 has fewer than 32 bits): on the stack, since every coordinate lookup needs it.
struct HalvingOrder {
  std::array<int, 32> dim{};
  std::size_t size = 0;
};

HalvingOrder compute_halving_order(const std::vector<int>& dims, Numbering numbering)
{
  std::array<int, 3> left{0, 0, 0};
  std::size_t total = 0;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    left[k] = log2_exact(dims[k]);
    total += static_cast<std::size_t>(left[k]);
  }
  HalvingOrder order;
  const int d = static_cast<int>(dims.size());
  if (numbering == Numbering::BisectionLargest) {
    while (order.size < total && order.size < order.dim.size()) {
      int k = d - 1; // the most halvings left (the most ranks: every size a power of two), ties to the higher
      for (int j = d - 2; j >= 0; --j)
        if (left[j] > left[k])
          k = j;
      order.dim[order.size++] = k;
      --left[k];
    }
    return order;
  }
  for (int k = d - 1; order.size < total && order.size < order.dim.size(); k = (k + d - 1) % d)
    if (left[k] > 0) {
      order.dim[order.size++] = k;
      --left[k];
    }
  return order;
}

/// compute_halving_order of the last grid asked for (lookups come grid after grid).
const HalvingOrder& halving_order(const std::vector<int>& dims, Numbering numbering)
{
  thread_local std::vector<int> last;
  thread_local Numbering last_numbering = Numbering::RowMajor;
  thread_local HalvingOrder order;
  if (dims != last || numbering != last_numbering || last.empty()) {
    order = compute_halving_order(dims, numbering);
    last = dims;
    last_numbering = numbering;
  }
  return order;
}

} // namespace

std::array<int, 3> Grid::coords(int rank) const
{
  std::array<int, 3> c{0, 0, 0};
  if (bisected(numbering)) {
    const HalvingOrder& order = halving_order(dims, numbering);
    for (std::size_t i = 0; i < order.size; ++i) {
      int bit = (rank >> (order.size - 1 - i)) & 1;
      auto k = static_cast<std::size_t>(order.dim[i]);
      c[k] = 2 * c[k] + bit;
    }
    return c;
  }
  for (std::size_t k = 0; k < dims.size(); ++k) {
    c[k] = rank % dims[k];
    rank /= dims[k];
  }
  return c;
}

int Grid::rank_of(const std::array<int, 3>& c) const
{
  int r = 0;
  if (bisected(numbering)) {
    std::array<int, 3> left{0, 0, 0}; // the bits of each coordinate not yet placed
    for (std::size_t k = 0; k < dims.size(); ++k)
      left[k] = log2_exact(dims[k]);
    const HalvingOrder& order = halving_order(dims, numbering);
    for (std::size_t i = 0; i < order.size; ++i) {
      auto k = static_cast<std::size_t>(order.dim[i]);
      r = 2 * r + ((c[k] >> --left[k]) & 1);
    }
    return r;
  }
  for (std::size_t k = dims.size(); k-- > 0;)
    r = r * dims[k] + c[k];
  return r;
}

std::array<double, 3> Grid::sizes() const
{
  std::array<double, 3> s{1, 1, 1};
  for (std::size_t k = 0; k < dims.size(); ++k)
    s[k] = dims[k];
  return s;
}

std::string Grid::describe() const
{
  std::string s;
  for (std::size_t k = 0; k < dims.size(); ++k)
    s += (k ? " x " : "") + std::to_string(dims[k]);
  if (bisected(numbering))
    s += numbering == Numbering::BisectionLargest ? ", recursive bisection, largest first" : ", recursive bisection";
  return s;
}

std::array<int, 3> Grid::position(int rank) const
{
  std::array<int, 3> c = coords(rank), pos{0, 0, 0};
  for (std::size_t k = 0; k < dims.size(); ++k)
    pos[k] = dims[k] == 1 ? 3 : c[k] == 0 ? 0 : c[k] == dims[k] - 1 ? 2 : 1;
  return pos;
}

std::optional<std::array<int, 3>> Grid::neighbour(int from, int to) const
{
  std::array<int, 3> a = coords(from), b = coords(to), d{0, 0, 0};
  for (std::size_t k = 0; k < dims.size(); ++k) {
    int diff = b[k] - a[k];
    if (std::abs(diff) > 1) {
      diff += diff > 0 ? -dims[k] : dims[k];
      if (std::abs(diff) > 1)
        return std::nullopt;
    }
    d[k] = diff;
  }
  return d;
}

std::vector<std::array<int, 3>> Grid::neighbour_offsets(int from, int to) const
{
  std::vector<std::array<int, 3>> out;
  auto reach = [&](std::size_t k) { return k < dims.size() ? 1 : 0; }; // no offset beyond the grid's dimensions
  std::array<int, 3> d{0, 0, 0};
  for (d[2] = -reach(2); d[2] <= reach(2); ++d[2])
    for (d[1] = -reach(1); d[1] <= reach(1); ++d[1])
      for (d[0] = -reach(0); d[0] <= reach(0); ++d[0])
        if (at_offset(from, d) == to)
          out.push_back(d);
  return out;
}

int Grid::at_offset(int from, const std::array<int, 3>& delta) const
{
  std::array<int, 3> c = coords(from);
  for (std::size_t k = 0; k < dims.size(); ++k)
    c[k] = ((c[k] + delta[k]) % dims[k] + dims[k]) % dims[k];
  return rank_of(c);
}

std::string position_name(const std::array<int, 3>& position, int dimensions)
{
  static const char* const names[] = {"first", "interior", "last", "only"};
  std::string s;
  for (int k = 0; k < dimensions; ++k)
    s += (k ? "," : "") + std::string(names[position[k]]);
  return s;
}

Grid grid_for(int p, int d, bool largest_fastest)
{
  Grid g{dims_create(p, d)};
  if (!largest_fastest)
    std::reverse(g.dims.begin(), g.dims.end());
  return g;
}

std::optional<Grid> bisection_grid(int p, int d, Numbering numbering)
{
  if (p < 1 || (p & (p - 1)) != 0 || d < 1 || d > 3)
    return std::nullopt;
  Grid g{std::vector<int>(static_cast<std::size_t>(d), 1), numbering};
  for (int bits = log2_exact(p), k = d - 1; bits > 0; --bits, k = (k + d - 1) % d)
    g.dims[static_cast<std::size_t>(k)] *= 2;
  return g;
}

bool powers_of_two(const Grid& g)
{
  return std::all_of(g.dims.begin(), g.dims.end(), [](int n) { return n > 0 && (n & (n - 1)) == 0; });
}

std::optional<Grid> parse_grid(std::string_view text)
{
  Grid g;
  while (true) {
    auto x = text.find('x');
    std::string_view part = text.substr(0, x);
    int v = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || end != part.data() + part.size() || v < 1 || g.dims.size() == 3)
      return std::nullopt;
    g.dims.push_back(v);
    if (x == std::string_view::npos)
      break;
    text.remove_prefix(x + 1);
  }
  return g;
}

} // namespace tit::extrap

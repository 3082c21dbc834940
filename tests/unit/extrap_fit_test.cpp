// tit-trace extrapolate's fitting and grids (tools/extrapolate/extrap_fit.cpp, extrap_grid.cpp).
#include "extrapolate/extrap_fit.hpp"
#include "extrapolate/extrap_grid.hpp"
#include "extrapolate/extrap_model.hpp"
#include "extrapolate/extrap_unroll.hpp"
#include "trace_test_support.hpp"

#include "compressed/compressed.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <tuple>

using namespace tit::extrap;

namespace {

std::vector<Point> points(const std::vector<double>& ps, double (*f)(double))
{
  std::vector<Point> out;
  for (double p : ps) {
    Point x;
    x.p = p;
    x.dims = {std::sqrt(p), std::sqrt(p), 1};
    x.value = f(p);
    out.push_back(x);
  }
  return out;
}

} // namespace

TEST(ExtrapFit, ConstantIsPreferredWhenExact)
{
  auto fit = tit::extrap::fit(points({9, 16, 25}, [](double) { return 4.0; }), 2, true, Scaling::None);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->model.term, Term::Const);
  EXPECT_EQ(fit->model.describe(), "4");
  EXPECT_TRUE(fit->exact);
  EXPECT_EQ(fit->loo_error, 0);
  EXPECT_TRUE(fit->also_exact.empty());
}

TEST(ExtrapFit, StrongScalingVolumeIsExactInverse)
{
  auto fit = tit::extrap::fit(points({9, 16, 25}, [](double p) { return 144000 / p; }), 2, false, Scaling::None);
  ASSERT_TRUE(fit);
  EXPECT_TRUE(fit->exact);
  EXPECT_EQ(fit->model.describe(), "144000 / p");
  EXPECT_DOUBLE_EQ(fit->model.eval(36, {6, 6, 1}), 4000);
  EXPECT_EQ(fit->loo_error, 0);
}

TEST(ExtrapFit, FaceSizeListsTheGridDimensionsThatTie)
{
  auto fit = tit::extrap::fit(points({9, 16, 25}, [](double p) { return 960 / std::sqrt(p); }), 2, true,
                              Scaling::None);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->model.describe(), "960 / p^(1/2)");
  ASSERT_EQ(fit->also_exact.size(), 2u);
  EXPECT_EQ(fit->also_exact[0], "960 / n0");
  EXPECT_EQ(fit->also_exact[1], "960 / n1");
  EXPECT_EQ(integer_at(fit->model, 36, {6, 6, 1}), 160);
}

TEST(ExtrapFit, ThreeDimensionalFaceShrinksAsTwoThirds)
{
  auto fit = tit::extrap::fit(points({27, 64, 125}, [](double p) { return 28800 / std::pow(std::cbrt(p), 2); }), 0,
                              true, Scaling::None);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->model.describe(), "28800 / p^(2/3)");
  EXPECT_EQ(integer_at(fit->model, 216, {1, 1, 1}), 800);
}

TEST(ExtrapFit, LogarithmAndOffset)
{
  auto fit = tit::extrap::fit(points({4, 8, 16, 32}, [](double p) { return 3 + 2 * std::log2(p); }), 0, true,
                              Scaling::None);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->model.describe(), "3 + 2 * log2(p)");
  EXPECT_EQ(integer_at(fit->model, 1024, {1, 1, 1}), 23);
}

TEST(ExtrapFit, IntegersWithoutAnExactFitAreRefused)
{
  EXPECT_FALSE(tit::extrap::fit(points({3, 4, 5}, [](double p) { return std::exp2(p); }), 1, true, Scaling::None));
}

TEST(ExtrapFit, IntegerPredictionMustBeAnInteger)
{
  Model m{Term::Inv, Var::P, 0, 120};
  EXPECT_EQ(integer_at(m, 8, {8, 1, 1}), 15);
  EXPECT_FALSE(integer_at(m, 7, {7, 1, 1}));
}

TEST(ExtrapFit, NoisyVolumesKeepTheConstantUnlessTwiceAsGood)
{
  // +-1 % around 1000: the best 2-term function is not twice as close as the constant
  std::vector<double> noise{1.0, -1.0, 0.5, -0.5};
  std::vector<Point> pts;
  for (std::size_t i = 0; i < noise.size(); ++i)
    pts.push_back(Point{double(4 << i), {1, 1, 1}, 1000 * (1 + noise[i] / 100)});
  auto fit = tit::extrap::fit(pts, 1, false, Scaling::None);
  ASSERT_TRUE(fit);
  EXPECT_FALSE(fit->exact);
  EXPECT_EQ(fit->model.term, Term::Const);
  EXPECT_NEAR(fit->error, 0.01, 1e-3);
  // 1e6 / p within 1 %: the inverse wins and its leave-one-out error is small
  std::vector<Point> strong;
  for (std::size_t i = 0; i < noise.size(); ++i)
    strong.push_back(Point{double(4 << i), {1, 1, 1}, 1e6 / double(4 << i) * (1 + noise[i] / 100)});
  fit = tit::extrap::fit(strong, 1, false, Scaling::None);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->model.term, Term::Inv);
  EXPECT_LT(fit->error, 0.02);
  EXPECT_LT(fit->loo_error, 0.05);
  EXPECT_GT(fit->loo_error, 0);
}

TEST(ExtrapFit, ScalingBreaksTies)
{
  // two points: every two-term function fits them exactly; the scaling says which is preferred
  auto two = points({4, 16}, [](double p) { return 100 / p + 10; });
  EXPECT_EQ(tit::extrap::fit(two, 0, false, Scaling::None)->model.term, Term::Linear);
  EXPECT_EQ(tit::extrap::fit(two, 0, false, Scaling::Strong)->model.term, Term::Inv);
  EXPECT_EQ(tit::extrap::fit(two, 0, false, Scaling::Weak)->model.term, Term::Log2);
}

// A message to a grid neighbour carries the face between them: miniFE's bisection grids at 64, 128 and 256 ranks
// (4 x 4 x 4, 4 x 4 x 8, 4 x 8 x 8; n0 is 4 on every input) to 8 x 8 x 8.
TEST(ExtrapFit, HaloSizesFollowTheFaceTheyCross)
{
  EXPECT_EQ(face_variable({1, 0, 0}, 3), Var::Dim12);
  EXPECT_EQ(face_variable({0, 0, -1}, 3), Var::Dim01);
  EXPECT_EQ(face_variable({0, 1, 0}, 3), Var::Dim02);
  EXPECT_EQ(face_variable({1, -1, 0}, 3), Var::Dim2); // an edge
  EXPECT_FALSE(face_variable({1, 1, -1}, 3));         // a corner: a constant
  EXPECT_FALSE(face_variable({0, 0, 0}, 3));
  EXPECT_EQ(face_variable({1, 0, 0}, 2), Var::Dim1);
  const std::array<double, 3> at{8, 8, 8};
  // across n0: 1600 / (n1 n2); the family's first exact function, 6400 / p, gives half a message at the target
  std::vector<Point> across0{{64, {4, 4, 4}, 100}, {128, {4, 4, 8}, 50}, {256, {4, 8, 8}, 25}};
  std::optional<Fit> face = fit_face(across0, Var::Dim12);
  ASSERT_TRUE(face);
  EXPECT_EQ(face->model.describe(), "1600 / (n1 n2)");
  EXPECT_DOUBLE_EQ(face->model.eval(512, at), 25);
  EXPECT_DOUBLE_EQ(tit::extrap::fit(across0, 3, true, Scaling::None)->model.eval(512, at), 12.5);
  // across n2: 100, 100, 50; n0 n1 takes two values, enough for b / (n0 n1) alone (400 / n1 fits them too)
  std::vector<Point> across2{{64, {4, 4, 4}, 100}, {128, {4, 4, 8}, 100}, {256, {4, 8, 8}, 50}};
  face = fit_face(across2, Var::Dim01);
  ASSERT_TRUE(face);
  EXPECT_DOUBLE_EQ(face->model.eval(512, at), 25);
  // an edge along n2: 40 / n2
  std::vector<Point> edge{{64, {4, 4, 4}, 10}, {128, {4, 4, 8}, 5}, {256, {4, 8, 8}, 5}};
  EXPECT_DOUBLE_EQ(fit_face(edge, Var::Dim2)->model.eval(512, at), 5);
  // a weak-scaled face: the constant
  std::vector<Point> weak{{64, {4, 4, 4}, 64}, {128, {4, 4, 8}, 64}, {256, {4, 8, 8}, 64}};
  EXPECT_EQ(fit_face(weak, Var::Dim12)->model.term, Term::Const);
  // no face: values that no function of it reproduces
  std::vector<Point> other{{64, {4, 4, 4}, 100}, {128, {4, 4, 8}, 60}, {256, {4, 8, 8}, 25}};
  EXPECT_FALSE(fit_face(other, Var::Dim12));
}

TEST(ExtrapFit, NodeFacesOfTheLastRanksOwnOneMorePlane)
{
  // miniFE's last ranks along n0 own 40 / n0 + 1 planes of nodes: their faces across n1 are 110, 55, 55 on the
  // bisection grids of 64, 128 and 256 ranks; 1760 / (n0 n2) reproduces them too, but gives 27.5 at 8 x 8 x 8
  const Point at{512, {8, 8, 8}, 0};
  std::vector<Point> last{{64, {4, 4, 4}, 110}, {128, {4, 4, 8}, 55}, {256, {4, 8, 8}, 55}};
  std::optional<Fit> face = fit_face(last, Var::Dim02, {true, false, false}, at);
  ASSERT_TRUE(face);
  EXPECT_EQ(face->model.term, Term::NodeFace);
  EXPECT_EQ(face->model.describe(), "(40 / n0 + 1) (40 / n2)");
  EXPECT_DOUBLE_EQ(face->model.eval(at), 30);
  EXPECT_TRUE(face->exact);
  // a class that is interior along n0 has no such plane: b / face, which the target cannot take as an integer (refused
  // later), is all that fits
  face = fit_face(last, Var::Dim02, {false, false, false}, at);
  ASSERT_TRUE(face);
  EXPECT_EQ(face->model.describe(), "1760 / (n0 n2)");
  // an interior rank's face, 100, 50, 50: b / face is an integer at the target and is kept
  std::vector<Point> inner{{64, {4, 4, 4}, 100}, {128, {4, 4, 8}, 50}, {256, {4, 8, 8}, 50}};
  EXPECT_EQ(fit_face(inner, Var::Dim02, {true, true, true}, at)->model.describe(), "1600 / (n0 n2)");
  // last along both dimensions of the face: (40 / n0 + 1) (40 / n2 + 1)
  std::vector<Point> corner{{64, {4, 4, 4}, 121}, {128, {4, 4, 8}, 66}, {256, {4, 8, 8}, 66}};
  face = fit_face(corner, Var::Dim02, {true, true, true}, at);
  ASSERT_TRUE(face);
  EXPECT_EQ(face->model.describe(), "(40 / n0 + 1) (40 / n2 + 1)");
  EXPECT_DOUBLE_EQ(face->model.eval(at), 36);
  // a 2-D grid's edge: 120 / n1 + 1 (two values of n1 on the inputs: a + b / n1 is not tried)
  std::vector<Point> line{{9, {3, 3, 1}, 41}, {18, {6, 3, 1}, 41}, {27, {3, 9, 1}, 41}};
  line[2] = Point{18, {3, 6, 1}, 21};
  face = fit_face(line, Var::Dim1, {false, true, false}, Point{36, {6, 6, 1}, 0});
  ASSERT_TRUE(face);
  EXPECT_EQ(face->model.describe(), "(120 / n1 + 1)");
  EXPECT_DOUBLE_EQ(face->model.eval(36, {6, 6, 1}), 21);
  face = fit_face(line, Var::Dim1, {false, false, false}, Point{36, {6, 6, 1}, 0});
  EXPECT_FALSE(face); // interior along n1: nothing fits
}

TEST(ExtrapGrid, DimsCreateIsMostSquareLargestFirst)
{
  EXPECT_EQ(dims_create(36, 2), (std::vector<int>{6, 6}));
  EXPECT_EQ(dims_create(12, 2), (std::vector<int>{4, 3}));
  EXPECT_EQ(dims_create(16, 3), (std::vector<int>{4, 2, 2}));
  EXPECT_EQ(dims_create(7, 2), (std::vector<int>{7, 1}));
  EXPECT_EQ(dims_create(16384, 2), (std::vector<int>{128, 128}));
  EXPECT_EQ(grid_for(12, 2, false).dims, (std::vector<int>{3, 4})); // MPI_Cart_create: the last (smallest) fastest
  EXPECT_EQ(grid_for(12, 2, true).dims, (std::vector<int>{4, 3}));
}

TEST(ExtrapGrid, CoordinatesPositionsAndNeighbours)
{
  Grid g{{4, 3}};
  EXPECT_EQ(g.ranks(), 12);
  EXPECT_EQ(g.coords(6), (std::array<int, 3>{2, 1, 0}));
  EXPECT_EQ(g.rank_of({2, 1, 0}), 6);
  EXPECT_EQ(position_name(g.position(0), 2), "first,first");
  EXPECT_EQ(position_name(g.position(6), 2), "interior,interior");
  EXPECT_EQ(position_name(g.position(11), 2), "last,last");
  EXPECT_EQ(g.neighbour(5, 6), (std::array<int, 3>{1, 0, 0}));
  EXPECT_EQ(g.neighbour(4, 7), (std::array<int, 3>{-1, 0, 0})); // across the boundary of dimension 0
  EXPECT_EQ(g.neighbour(1, 9), (std::array<int, 3>{0, -1, 0}));
  EXPECT_FALSE(g.neighbour(0, 2));
  EXPECT_EQ(g.at_offset(4, {-1, 0, 0}), 7);
  EXPECT_EQ(g.at_offset(1, {0, -1, 0}), 9);
}

// miniFE's box_partition at 64 ranks: the rank's bits, most significant first, halve z, y, x, z, y, x; rank 5
// (binary 000101) is x 1, y 0, z 1, a face rank with 17 neighbours, rank 9 (001001) the corner x 3, y 0, z 0 with 7.
TEST(ExtrapGrid, RecursiveBisectionNumbering)
{
  Grid g = *bisection_grid(64, 3);
  EXPECT_EQ(g.dims, (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(g.coords(5), (std::array<int, 3>{1, 0, 1}));
  EXPECT_EQ(g.coords(9), (std::array<int, 3>{3, 0, 0}));
  EXPECT_EQ(g.coords(42), (std::array<int, 3>{2, 1, 2}));
  for (int r = 0; r < g.ranks(); ++r)
    EXPECT_EQ(g.rank_of(g.coords(r)), r);
  auto neighbours = [&](int rank) {
    int n = 0;
    for (int q = 0; q < g.ranks(); ++q) {
      std::array<int, 3> a = g.coords(rank), b = g.coords(q);
      bool near = q != rank;
      for (int k = 0; k < 3; ++k)
        near = near && std::abs(a[k] - b[k]) <= 1; // no wrap: miniFE's box is not periodic
      n += near ? 1 : 0;
    }
    return n;
  };
  EXPECT_EQ(neighbours(5), 17);
  EXPECT_EQ(neighbours(9), 7);
  EXPECT_EQ(g.at_offset(5, {1, 1, 1}), 42);
  EXPECT_EQ(g.at_offset(5, {1, 0, 0}), 12);
  EXPECT_EQ(g.at_offset(5, {1, 0, -1}), 8);
  EXPECT_EQ(position_name(g.position(9), 3), "last,first,first");
  // 128 = 2^7: z halved three times (first and last), y and x twice
  EXPECT_EQ(bisection_grid(128, 3)->dims, (std::vector<int>{4, 4, 8}));
  EXPECT_EQ(bisection_grid(128, 3)->coords(1), (std::array<int, 3>{0, 0, 1}));
  EXPECT_EQ(bisection_grid(8, 2)->dims, (std::vector<int>{2, 4}));
  EXPECT_FALSE(bisection_grid(48, 3));
  EXPECT_EQ(g.describe(), "4 x 4 x 4, recursive bisection");
  // a grid whose dimensions do not take turns evenly: a spent dimension is skipped
  Grid uneven{{2, 8}, Numbering::Bisection};
  for (int r = 0; r < uneven.ranks(); ++r)
    EXPECT_EQ(uneven.rank_of(uneven.coords(r)), r);
  EXPECT_EQ(uneven.coords(1), (std::array<int, 3>{0, 1, 0})); // bits: y, x, y, y
}

TEST(ExtrapGrid, RecursiveBisectionOfTheLargestDimension)
{
  // miniAMR's initial partition: the dimension with the most ranks left halved first, ties to the higher dimension
  Grid g = *bisection_grid(16, 3, Numbering::BisectionLargest);
  EXPECT_EQ(g.dims, (std::vector<int>{2, 2, 4}));
  // bits, most significant first: x2, x2, x1, x0 (in turn, Bisection: x2, x1, x0, x2)
  EXPECT_EQ(g.coords(11), (std::array<int, 3>{1, 1, 2}));
  EXPECT_EQ(g.coords(1), (std::array<int, 3>{1, 0, 0}));
  EXPECT_EQ(bisection_grid(16, 3)->coords(1), (std::array<int, 3>{0, 0, 1}));
  for (int p : {8, 16, 32, 64, 128, 512})
    for (int d : {2, 3}) {
      Grid h = *bisection_grid(p, d, Numbering::BisectionLargest);
      EXPECT_EQ(h.dims, bisection_grid(p, d)->dims) << p << " ranks, " << d << "-D";
      for (int r = 0; r < h.ranks(); ++r)
        ASSERT_EQ(h.rank_of(h.coords(r)), r) << p << " ranks, " << d << "-D";
    }
  // on cubes both orders agree: 4 x 4 x 4 halved along 2, 1, 0, 2, 1, 0
  Grid cube = *bisection_grid(64, 3, Numbering::BisectionLargest), turns = *bisection_grid(64, 3);
  for (int r = 0; r < 64; ++r)
    EXPECT_EQ(cube.coords(r), turns.coords(r));
  // 2-D, 4 x 8: halved along 1, 1, 0, 1, 0 (in turn: 1, 0, 1, 0, 1)
  Grid flat = *bisection_grid(32, 2, Numbering::BisectionLargest);
  EXPECT_EQ(flat.coords(8), (std::array<int, 3>{0, 2, 0}));
  EXPECT_EQ(bisection_grid(32, 2)->coords(8), (std::array<int, 3>{2, 0, 0}));
  EXPECT_EQ(flat.describe(), "4 x 8, recursive bisection, largest first");
}

TEST(ExtrapGrid, ParseGrid)
{
  EXPECT_EQ(parse_grid("12x3")->dims, (std::vector<int>{12, 3}));
  EXPECT_EQ(parse_grid("8")->dims, (std::vector<int>{8}));
  EXPECT_EQ(parse_grid("4x2x2")->dims, (std::vector<int>{4, 2, 2}));
  EXPECT_FALSE(parse_grid("3y3"));
  EXPECT_FALSE(parse_grid("2x2x2x2"));
  EXPECT_FALSE(parse_grid("0x4"));
  EXPECT_FALSE(parse_grid(""));
}

namespace {

/// The values of `f` at every rank of a 2-D grid of n0 x n1 ranks (x0 varies fastest).
RankValues grid_values(int n0, int n1, long long (*f)(int x0, int x1, int n0, int n1))
{
  RankValues in;
  in.at.p = n0 * n1;
  in.at.dims = {static_cast<double>(n0), static_cast<double>(n1), 1};
  for (int x1 = 0; x1 < n1; ++x1)
    for (int x0 = 0; x0 < n0; ++x0)
      in.values.push_back({{x0, x1, 0}, f(x0, x1, n0, n1)});
  return in;
}

} // namespace

TEST(ExtrapFit, GridFunctionOfTheRowIndex)
{
  auto row = [](int, int x1, int, int) { return static_cast<long long>(x1); };
  auto g = fit_grid_function({grid_values(4, 3, row), grid_values(5, 4, row), grid_values(6, 5, row)}, 2,
                             Scaling::None);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->describe(), "x1");
  EXPECT_EQ(g->at(42, {7, 6, 1}, {3, 5, 0}), 5);
}

TEST(ExtrapFit, GridFunctionOfTheRankUsesTheStride)
{
  auto rank = [](int x0, int x1, int n0, int) { return static_cast<long long>(x0 + n0 * x1); };
  auto g = fit_grid_function({grid_values(4, 3, rank), grid_values(5, 4, rank), grid_values(6, 5, rank)}, 2,
                             Scaling::None);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->describe(), "x0 + n0 * x1");
  EXPECT_EQ(g->at(42, {7, 6, 1}, {3, 5, 0}), 38);
}

TEST(ExtrapFit, GridFunctionOfTheTransposedRank)
{
  // the partner across a transpose of a square grid (NPB CG's exchange): rank x1 + n0 x0; the rank itself still
  // comes first as x0 + n0 * x1 (the own dimension's stride before another's)
  auto transposed = [](int x0, int x1, int n0, int) { return static_cast<long long>(x1 + n0 * x0); };
  auto g = fit_grid_function({grid_values(3, 3, transposed), grid_values(4, 4, transposed),
                              grid_values(5, 5, transposed)},
                             2, Scaling::None);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->describe(), "n0 * x0 + x1");
  EXPECT_EQ(g->at(36, {6, 6, 1}, {2, 5, 0}), 17);
  auto rank = [](int x0, int x1, int n0, int) { return static_cast<long long>(x0 + n0 * x1); };
  g = fit_grid_function({grid_values(3, 3, rank), grid_values(4, 4, rank), grid_values(5, 5, rank)}, 2, Scaling::None);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->describe(), "x0 + n0 * x1");
  // 3-D: x0 and x2 swapped on cubes, n0 * n1 * x0 + n0 * x1 + x2
  auto cube = [](int n) {
    RankValues in;
    in.at.p = n * n * n;
    in.at.dims = {static_cast<double>(n), static_cast<double>(n), static_cast<double>(n)};
    for (int x2 = 0; x2 < n; ++x2)
      for (int x1 = 0; x1 < n; ++x1)
        for (int x0 = 0; x0 < n; ++x0)
          in.values.push_back({{x0, x1, x2}, x2 + n * x1 + n * n * x0});
    return in;
  };
  g = fit_grid_function({cube(3), cube(4), cube(5)}, 3, Scaling::None);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->describe(), "n0 * n1 * x0 + n0 * x1 + x2");
}

TEST(ExtrapFit, GridFunctionOfABoundaryClassFitsItsConstantTerm)
{
  // the ranks of the last column only (x0 = n0 - 1): the rank is n0 - 1 + n0 * x1
  auto last = [](int n0, int n1) {
    RankValues in;
    in.at.p = n0 * n1;
    in.at.dims = {static_cast<double>(n0), static_cast<double>(n1), 1};
    for (int x1 = 1; x1 + 1 < n1; ++x1)
      in.values.push_back({{n0 - 1, x1, 0}, n0 - 1 + n0 * x1});
    return in;
  };
  auto g = fit_grid_function({last(4, 3), last(5, 4), last(6, 5)}, 2, Scaling::None);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->describe(), "-1 + 1 * n0 + n0 * x1");
  EXPECT_EQ(g->at(42, {7, 6, 1}, {6, 2, 0}), 20);
}

TEST(ExtrapFit, GridFunctionRefusesTheParity)
{
  auto parity = [](int x0, int x1, int n0, int) { return static_cast<long long>((x0 + n0 * x1) % 2); };
  EXPECT_FALSE(fit_grid_function({grid_values(4, 3, parity), grid_values(5, 4, parity), grid_values(6, 5, parity)},
                                 2, Scaling::None));
}

TEST(ExtrapGrid, SplitIntoRowsScoresTheGridWhoseRowsTheyAre)
{
  // 12 ranks split by rank / 4 (rows of 4 consecutive ranks), then by rank % 4 (columns of 3)
  std::vector<std::vector<long long>> colours;
  for (int r = 0; r < 12; ++r)
    colours.push_back({r / 4, r % 4});
  EXPECT_EQ(grid_line_members(colours, Grid{{4, 3}}), 24u);
  EXPECT_EQ(grid_line_members(colours, Grid{{3, 4}}), 0u); // rows of 3: the groups of 4 are not lines
  EXPECT_EQ(grid_line_members(colours, Grid{{12}}), 0u);   // a 1-D grid has no lines but the whole grid
  colours[5] = {-1, -1}; // MPI_UNDEFINED: the row and the column of rank 5 lack it, and are no longer whole lines
  EXPECT_EQ(grid_line_members(colours, Grid{{4, 3}}), 2u * 4u + 3u * 3u);
}

TEST(ExtrapFit, AVariableWithTwoValuesOnTheInputsIsNotUsed)
{
  // 27 (3 x 3 x 3), 45 (5 x 3 x 3), 48 (4 x 4 x 3): n1 takes 2 values, so any a + b f(n1) goes through the 3 points;
  // a face of (120 / n1) * (120 / n2) has no function of the family, and none is made up
  std::vector<Point> pts;
  for (auto [p, d0, d1, d2] : {std::tuple(27, 3, 3, 3), std::tuple(45, 5, 3, 3), std::tuple(48, 4, 4, 3)}) {
    Point x;
    x.p = p;
    x.dims = {static_cast<double>(d0), static_cast<double>(d1), static_cast<double>(d2)};
    x.value = (120 / d1) * (120 / d2);
    pts.push_back(x);
  }
  EXPECT_FALSE(tit::extrap::fit(pts, 3, true, Scaling::None));
}

TEST(ExtrapFit, AVariableWithTwoValuesReadsATargetThatHasOneOfThem)
{
  // NPB CG's steps along rows of n0 = 4, 4, 8 ranks (2-D grids 4 x 2, 4 x 4, 8 x 4): 2, 2, 3 steps. At 64 ranks (8 x 8)
  // every exact function of n0 gives 3; at 128 (16 x 8), n0 / 4 + 1 and log2(n0) disagree, and p fits none
  std::vector<Point> pts;
  for (auto [p, d0, d1, v] : {std::tuple(8, 4, 2, 2), std::tuple(16, 4, 4, 2), std::tuple(32, 8, 4, 3)})
    pts.push_back(Point{static_cast<double>(p), {static_cast<double>(d0), static_cast<double>(d1), 1}, v * 1.0});
  auto fit = tit::extrap::fit(pts, 2, true, Scaling::None, Point{64, {8, 8, 1}, 0});
  ASSERT_TRUE(fit);
  EXPECT_EQ(integer_at(fit->model, 64, {8, 8, 1}), 3);
  for (const tit::extrap::Model& m : fit->alternatives)
    EXPECT_EQ(integer_at(m, 64, {8, 8, 1}), 3) << m.describe();
  EXPECT_FALSE(tit::extrap::fit(pts, 2, true, Scaling::None, Point{128, {16, 8, 1}, 0}));
  EXPECT_FALSE(tit::extrap::fit(pts, 2, true, Scaling::None)); // no target: nothing to read it off
}

TEST(ExtrapFit, TransposeBlockShrinksAsTheSquare)
{
  // an all-to-all transpose of an N x N array by rows: (N / p)^2 elements to each rank
  auto fit = tit::extrap::fit(points({4, 8, 16}, [](double p) { return 2 * (1024 / p) * (1024 / p); }), 1, true,
                              Scaling::None);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->model.describe(), "2097152 / p^2");
  EXPECT_EQ(integer_at(fit->model, 64, {64, 1, 1}), 512);
}

TEST(ExtrapFit, MeasuredVolumeIsNotNegativeAtTheTarget)
{
  // init bursts of cg measured at 4, 8, 16 ranks: a + b log2 p follows them best and is negative at 64
  std::vector<Point> pts;
  for (auto [p, v] : {std::pair(4.0, 7.4e6), std::pair(8.0, 4.7e6), std::pair(16.0, 2.2e6)})
    pts.push_back(Point{p, {p, 1, 1}, v});
  Point target{64, {64, 1, 1}, 0};
  auto fit = tit::extrap::fit(pts, 1, false, Scaling::None, target);
  ASSERT_TRUE(fit);
  EXPECT_FALSE(fit->exact);
  EXPECT_GT(fit->model.eval(target), 0);
  EXPECT_GE(fit->loo_error, 0);
}

TEST(ExtrapFit, VolumeWrittenAsAnIntegerIsNotRoundedAwayAtTheTarget)
{
  // miniFE's compute between two waits of a boundary class, traced at 64, 128, 256 ranks: -95.8 + 49083 / p follows
  // them best and gives 0.1 at 512, which a trace of integer volumes writes as 0, no compute
  std::vector<Point> pts{Point{64, {4, 4, 4}, 581.18}, Point{128, {4, 4, 8}, 448.35}, Point{256, {4, 8, 8}, 91.51}};
  Point target{512, {8, 8, 8}, 0};
  auto loose = tit::extrap::fit(pts, 0, false, Scaling::None, target);
  ASSERT_TRUE(loose);
  EXPECT_GT(loose->model.eval(target), 0);
  EXPECT_LT(loose->model.eval(target), 0.5);
  auto fit = tit::extrap::fit(pts, 0, false, Scaling::None, target, 0.5);
  ASSERT_TRUE(fit);
  EXPECT_GT(fit->model.eval(target), 0.5);
  // inputs that are not all above the floor (a compute present in a third of its gaps, volume 1): no candidate refused
  std::vector<Point> sparse{Point{64, {4, 4, 4}, 0.33}, Point{128, {4, 4, 8}, 0.3}, Point{256, {4, 8, 8}, 0.36}};
  EXPECT_TRUE(tit::extrap::fit(sparse, 0, false, Scaling::None, target, 0.5));
}

TEST(ExtrapFit, MeasuredVolumesAreNotCarriedAlongAGrowingTerm)
{
  // a burst of LULESH measured by our tracer at 27, 64, 125 ranks (weak scaling, growing with the machine's
  // oversubscription): 52 k + 11.5 p^2 followed the three best and gave 1.4 M at 343 ranks, 6 times the largest
  std::vector<Point> pts;
  for (auto [p, v] : {std::pair(27.0, 60370.0), std::pair(64.0, 99288.0), std::pair(125.0, 231915.0)})
    pts.push_back(Point{p, {std::cbrt(p), std::cbrt(p), std::cbrt(p)}, v});
  Point target{343, {7, 7, 7}, 0};
  auto fit = tit::extrap::fit(pts, 3, false, Scaling::Weak, target);
  ASSERT_TRUE(fit);
  EXPECT_FALSE(fit->exact);
  for (Term growing : {Term::Linear, Term::Sqrt, Term::Cbrt, Term::TwoThirds, Term::Log2, Term::Square})
    EXPECT_NE(fit->model.term, growing) << fit->model.describe();
  EXPECT_LT(fit->model.eval(target), 1.5 * 231915) << fit->model.describe();
  EXPECT_GT(fit->model.eval(target), 60370) << fit->model.describe();
  // an exact growing function still wins (generated volumes, a count of operations)
  std::vector<Point> exact;
  for (double p : {27.0, 64.0, 125.0})
    exact.push_back(Point{p, {std::cbrt(p), std::cbrt(p), std::cbrt(p)}, 100 + 3 * p * p});
  fit = tit::extrap::fit(exact, 3, false, Scaling::Weak, target);
  ASSERT_TRUE(fit);
  EXPECT_TRUE(fit->exact);
  EXPECT_NEAR(fit->model.eval(target), 100 + 3 * 343.0 * 343.0, 1e-6 * 3 * 343 * 343);
}

TEST(ExtrapModel, ConsecutiveComputesAreMergedAndCommunicatorLoopsUnrolled)
{
  namespace ts = tit::trace::test_support;
  auto dir = ts::scratch_dir();
  for (int r = 0; r < 2; ++r)
    ts::write_file(dir / ("rank-" + std::to_string(r) + ".txt"),
                   std::to_string(r) + " init\n" + std::to_string(r) + " compute 100\n" + std::to_string(r) +
                       " compute 23.5\n" + std::to_string(r) + " comm_split 0 " + std::to_string(r) + " 0 1 1\n" +
                       std::to_string(r) + " comm_split 0 0 " + std::to_string(r) + " 2 2\n" + std::to_string(r) +
                       " finalize\n");
  auto set = merge_computes(tit::trace::TraceSet::open(dir, std::nullopt));
  auto reader = set->reader(1);
  tit::trace::Action a;
  ASSERT_TRUE(reader->next(a));
  EXPECT_EQ(a.name, "init");
  ASSERT_TRUE(reader->next(a));
  EXPECT_EQ(a.text, "1 compute 123.5");
  EXPECT_DOUBLE_EQ(a.amount, 123.5);
  ASSERT_TRUE(reader->next(a));
  EXPECT_EQ(a.text, "1 comm_split 0 1 0 1 1");
  EXPECT_EQ(a.args, (std::vector<std::string_view>{"0", "1", "0", "1", "1"}));

  Input in;
  in.path = dir.string();
  auto all = merge_computes(tit::trace::TraceSet::open(dir, std::nullopt));
  in.trace = tit::trace::cformat::fold(*all, tit::trace::ValueMode{});
  auto loops = [&] {
    int n = 0;
    for (const auto& rank : in.trace.meta.ranks)
      for (std::uint32_t id : in.trace.meta.bodies[rank.root])
        n += in.trace.meta.nodes[id].loop ? 1 : 0;
    return n;
  };
  EXPECT_GT(loops(), 0); // folded: the two splits are a loop of 2
  unroll_communicator_loops(in.trace);
  EXPECT_EQ(loops(), 0);
  // the two splits are two items of the rank's sequence (not a loop of 2), with their own colours
  const auto& meta = in.trace.meta;
  for (const auto& rank : meta.ranks)
    for (std::uint32_t id : meta.bodies[rank.root])
      EXPECT_FALSE(meta.nodes[id].loop);
  EXPECT_EQ(split_colours(in), (std::vector<std::vector<long long>>{{0, 0}, {1, 0}}));
}

TEST(ExtrapModel, BlocksOfCollectivesInSomeIterationsAreGatheredAfterTheirLoop)
{
  // 12 iterations of an exchange and an allreduce; at iterations 0, 4 and 9 two more allreduces after it (miniFE's
  // breakdown checks). Read through merge_computes and gather_sporadic_blocks, the rank gives out the 12 iterations,
  // then the 3 blocks; the folder folds both into loops, and gathered_loops names the blocks' loop.
  namespace ts = tit::trace::test_support;
  auto dir = ts::scratch_dir();
  auto iterations = [](int r) {
    std::string out = std::to_string(r) + " init\n";
    const std::string p = std::to_string(1 - r) + " ";
    for (int it = 0; it < 12; ++it) {
      out += std::to_string(r) + " send " + p + "0 8\n" + std::to_string(r) + " recv " + p + "0 8\n";
      out += std::to_string(r) + " compute 500\n" + std::to_string(r) + " allreduce 1 10\n";
      if (it == 0 || it == 4 || it == 9)
        out += std::to_string(r) + " allreduce 1 10\n" + std::to_string(r) + " compute 7\n" + std::to_string(r) +
               " allreduce 1 10\n";
    }
    return out + std::to_string(r) + " finalize\n";
  };
  for (int r = 0; r < 2; ++r)
    ts::write_file(dir / ("rank-" + std::to_string(r) + ".txt"), iterations(r));
  std::vector<std::vector<GatheredRun>> runs;
  auto set = gather_sporadic_blocks(merge_computes(tit::trace::TraceSet::open(dir, std::nullopt)), runs);
  auto reader = set->reader(0);
  std::vector<std::string> names;
  std::vector<std::string> texts;
  for (tit::trace::Action a; reader->next(a);) {
    names.emplace_back(a.name);
    texts.emplace_back(a.text);
  }
  // init and its gap, 12 x (send, compute 0, recv, compute 500, allreduce, compute 0), 3 x (allreduce, compute 7,
  // allreduce, compute 0), finalize and its gap
  ASSERT_EQ(names.size(), 2u + 12 * 6 + 3 * 4 + 2);
  for (int it = 0; it < 12; ++it) {
    EXPECT_EQ(names[2 + 6 * it], "send") << "iteration " << it;
    EXPECT_EQ(texts[2 + 6 * it + 3], "0 compute 500") << "iteration " << it;
    EXPECT_EQ(names[2 + 6 * it + 4], "allreduce") << "iteration " << it;
    EXPECT_EQ(texts[2 + 6 * it + 5], "0 compute 0") << "iteration " << it;
  }
  for (int b = 0; b < 3; ++b) {
    EXPECT_EQ(names[2 + 12 * 6 + 4 * b], "allreduce") << "block " << b;
    EXPECT_EQ(texts[2 + 12 * 6 + 4 * b + 1], "0 compute 7") << "block " << b;
    EXPECT_EQ(names[2 + 12 * 6 + 4 * b + 2], "allreduce") << "block " << b;
  }
  EXPECT_EQ(names[2 + 12 * 6 + 12], "finalize");
  ASSERT_EQ(runs[0].size(), 1u);
  EXPECT_EQ(runs[0][0].first, 2u + 12 * 6);
  EXPECT_EQ(runs[0][0].length, 12u);
  EXPECT_EQ(runs[0][0].blocks, 3u);

  auto all = gather_sporadic_blocks(merge_computes(tit::trace::TraceSet::open(dir, std::nullopt)), runs);
  tit::trace::cformat::Loaded folded = tit::trace::cformat::fold(*all, tit::trace::ValueMode{});
  std::set<std::uint32_t> loops = gathered_loops(folded, runs);
  ASSERT_FALSE(loops.empty());
  for (std::uint32_t id : loops)
    EXPECT_TRUE(folded.meta.nodes[id].loop);
  // the block at the first iteration (before the block has repeated 3 times) and in most of the others: not sporadic,
  // every action given out in its place
  std::string most = "0 init\n";
  for (int it = 0; it < 8; ++it) {
    most += "0 send 1 0 8\n0 recv 1 0 8\n0 compute 500\n0 allreduce 1 10\n";
    if (it == 0 || it >= 3)
      most += "0 allreduce 1 10\n0 compute 7\n0 allreduce 1 10\n";
  }
  ts::write_file(dir / "rank-0.txt", most + "0 finalize\n");
  std::vector<std::string> given, read;
  auto plain_set = merge_computes(tit::trace::TraceSet::open(dir, std::nullopt));
  auto plain = plain_set->reader(0);
  for (tit::trace::Action b; plain->next(b);)
    read.emplace_back(b.text);
  auto phases = gather_sporadic_blocks(merge_computes(tit::trace::TraceSet::open(dir, std::nullopt)), runs);
  auto given_reader = phases->reader(0);
  for (tit::trace::Action a; given_reader->next(a);)
    given.emplace_back(a.text);
  EXPECT_EQ(given, read);
  EXPECT_TRUE(runs[0].empty());
  // the same iterations with a block once only: not gathered (a last iteration that differs)
  ts::write_file(dir / "rank-0.txt", "0 init\n0 allreduce 1 10\n0 allreduce 1 10\n0 allreduce 1 10\n0 barrier\n"
                                     "0 allreduce 1 10\n0 finalize\n");
  ts::write_file(dir / "rank-1.txt", "1 init\n1 allreduce 1 10\n1 allreduce 1 10\n1 allreduce 1 10\n1 barrier\n"
                                     "1 allreduce 1 10\n1 finalize\n");
  auto once = gather_sporadic_blocks(merge_computes(tit::trace::TraceSet::open(dir, std::nullopt)), runs);
  auto r0 = once->reader(0);
  std::vector<std::string> kept;
  for (tit::trace::Action a; r0->next(a);)
    if (a.name != "compute")
      kept.emplace_back(a.name);
  EXPECT_EQ(kept, (std::vector<std::string>{"init", "allreduce", "allreduce", "allreduce", "barrier", "allreduce",
                                            "finalize"}));
  EXPECT_TRUE(runs[0].empty());
}

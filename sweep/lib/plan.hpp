#pragma once
// The plan of a sweep in its output folder: DIR/manifest.json lists every point (its values and the
// tit-replay command line), DIR/points/NNNNNN/ holds each point's platform variant and results.
// A plan written once is what every runner (local, a Slurm array task, collect) reads.
#include "points.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace tit::sweep {

struct PlannedPoint {
  std::size_t index = 0;
  std::vector<std::string> values;
  std::filesystem::path dir;      // absolute
  std::vector<std::string> argv;  // tit-replay and its arguments, absolute paths
};

struct Plan {
  std::filesystem::path out;      // absolute
  std::string sweep_file;
  std::vector<std::string> keys;  // the vary keys, as written
  std::vector<PlannedPoint> points;
};

// Writes DIR/manifest.json and the platform variants of the points not done yet. When DIR already
// holds a manifest of the same sweep (same keys and points), it is kept (a resumed run); another
// sweep's manifest is an InputError.
Plan write_plan(const Spec& spec, const std::vector<Point>& points, const std::filesystem::path& out,
                const std::string& tit_replay);

// Reads DIR/manifest.json; throws InputError when it is missing or not a tit-sweep manifest.
Plan read_plan(const std::filesystem::path& out);

} // namespace tit::sweep

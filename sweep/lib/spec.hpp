#pragma once

#include "core/error.hpp"
// A sweep file (YAML): the base run and the parameters to vary.
//
//   platform: cluster.xml          # paths relative to the sweep file
//   hostfile: cluster.hosts        # or deployment: deploy.xml
//   traces: traces/halo16/
//   cfg: {smpi/async-small-thresh: 65536}
//   args: [--merge-computations]   # more tit-replay options (optional)
//   vary:
//     "cluster[id=c0]@bb_bw": [1GBps, 2.25GBps, 10GBps]          # a list
//     "cluster[id=c0]@lat": {from: 5us, to: 50us, steps: 4}     # a linear range
//     "host@speed": {from: 1Gf, to: 8Gf, steps: 4, scale: geometric}
//     "cfg:coll/selector": [smpi, ompi]                           # a model parameter
//     traces: {glob: "traces/halo*/"}                             # a set of files
//   zip: [["cluster[id=c0]@bb_bw", "cluster[id=c0]@lat"]]         # keys that move together
//   sample: {points: 20, seed: 1}                                 # a random sample of the grid
#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "selector.hpp"

namespace tit::sweep {

// Bad input: the message is complete ("FILE:LINE: error: ..."); programs exit with code 2.
struct InputError : tit::Error {
  using tit::Error::Error;
};

enum class ParamKind { attribute, cfg, traces, platform, hostfile, deployment };

struct Param {
  std::string key;  // as written in the file: the CSV column name
  ParamKind kind;
  Selector selector;                 // attribute parameters
  std::string cfg_name;              // cfg parameters
  std::vector<std::string> values;   // as written (units kept), or file paths as written
  std::vector<int> value_lines;      // line of each value in the sweep file (1-based)
  int line = 0;                      // line of the key
};

struct Spec {
  std::filesystem::path file;        // the sweep file
  std::filesystem::path dir;         // its directory: paths are relative to it
  std::string platform, hostfile, deployment, traces;  // as written, relative to dir
  std::vector<std::pair<std::string, std::string>> cfg;
  std::vector<std::string> args;
  std::vector<Param> params;
  std::vector<std::vector<std::size_t>> zip;  // groups of parameter indices
  std::optional<std::size_t> sample_points;
  unsigned long long sample_seed = 0;
  int sample_line = 0;

  std::string where(int line) const { return file.string() + ":" + std::to_string(line); }
  std::filesystem::path resolve(const std::string& path) const;
};

// Reads and checks a sweep file: syntax, keys, ranges, files, selectors against the platform(s) and
// units of every value. Throws InputError naming the file and line.
Spec load_spec(const std::filesystem::path& file);

} // namespace tit::sweep

// The algorithms of each collective by name, and the algorithm sets (selectors), for --cfg=coll/...
#pragma once

#include "core/error.hpp"

#include "colls/colls.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tit::colls {

struct AlgorithmInfo {
  const char* collective; ///< "bcast", "alltoall", ...
  const char* name;       ///< "binomial", "linear", ...
  Algorithm function;
  const char* description;
};

/// Every algorithm of every collective.
const std::vector<AlgorithmInfo>& algorithms();
/// Names of the algorithm sets --cfg=coll/selector accepts.
std::vector<std::string> selector_names();

/// An unknown selector, collective or algorithm name; what() lists the accepted ones.
class SelectionError : public tit::Error {
public:
  using tit::Error::Error;
};

/// The selector named `selector` with the per-collective `overrides` (collective -> algorithm name).
Selector make_selector(const std::string& selector, const std::map<std::string, std::string>& overrides);

/// Declares coll/selector and coll/<collective> in SimGrid's configuration (before it parses options).
void declare_config_flags();
/// Builds the selector from SimGrid's configuration (command line or platform <config>), then `settings`
/// ("coll/selector:SET", "coll/COLLECTIVE:ALGORITHM": a workload job's own) over it.
Selector selector_from_config(const std::vector<std::string>& settings = {});

} // namespace tit::colls

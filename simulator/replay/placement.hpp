// Where ranks run: a SimGrid deployment file or an MPI hostfile. Knows nothing of the engine: returns
// host names; the replayer resolves them on the platform.
#pragma once

#include "core/error.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace tit::replay {

/// A bad deployment or hostfile; what() names the file (and line) and what was expected.
class InputError : public tit::Error {
public:
  using tit::Error::Error;
};

/// Host name of each rank, index = rank.
struct Placement {
  std::vector<std::string> hosts;
  std::string source; ///< file it was read from, for messages
};

/// Reads `<actor host="h" function="3"/>` (or the older `<process .../>`) elements; the function is the
/// rank number (digits, optionally after a prefix such as "p" or "rank"). Ranks must be 0..n-1, once each.
Placement read_deployment(const std::filesystem::path& file);

/// Reads an MPI hostfile (`host` or `host:N` lines, '#' comments) and places `ranks` ranks (> 0) round-robin
/// over its slots like smpirun. The rank count comes from the traces or --np, never from the slots: a line
/// `host:16000000` offers slots, it does not make ranks (one host name per rank is the cost of a placement).
Placement read_hostfile(const std::filesystem::path& file, int ranks);

} // namespace tit::replay

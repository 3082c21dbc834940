// Checks a SimGrid platform file before the engine loads it: every value SimGrid parses (speeds, bandwidths,
// latencies with its units, core counts, radicals, topologies) for syntax, sign and range, and every reference to a
// host, zone, link or trace. SimGrid stops with an abort (xbt_die, an assertion, "The Impossible Did Happen") on many
// of these, or silently computes with a negative bandwidth; this check refuses them first, naming file and line.
// Knows nothing of the engine (pugixml only), so that it can be unit-tested and fuzzed.
#pragma once

#include "core/error.hpp"

#include "platform/topology.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tit::platform {

/// A platform SimGrid would abort on or compute nonsense with; what() is "FILE:LINE: error: <element ...>
/// attribute="value": what is wrong; expected ...".
class PlatformError : public tit::Error {
public:
  using tit::Error::Error;
};

/// Checks the platform file `file`; throws PlatformError on the first problem (or when it cannot be read). Returns
/// its routing structure, to check the routes between the hosts a deployment uses.
Topology check_platform_file(const std::filesystem::path& file);

/// Checks platform text; `file` names it in messages and anchors relative profile files (speed_file, ...).
Topology check_platform_text(std::string_view text, const std::filesystem::path& file);

} // namespace tit::platform

// The wait-state analysis as text (tit-replay --analysis), as JSON (--analysis-json) and the comparison of
// two JSON analyses (tit-replay --compare A.json B.json).
#pragma once

#include "core/error.hpp"

#include "analysis/analysis.hpp"

#include <ostream>
#include <stdexcept>
#include <string>

namespace tit::analysis {

void write_text(std::ostream& out, const Result& result);

/// JSON document with "schema": "tit-replay analysis v1".
void write_json(std::ostream& out, const Result& result);

/// The JSON document of a replay that stopped (no analysis): the schema, "complete": false and the error (a deadlock's
/// lists the blocked ranks). --compare refuses it, saying so.
void write_incomplete_json(std::ostream& out, const std::string& error);

/// A malformed or foreign analysis file.
class CompareError : public tit::Error {
public:
  using tit::Error::Error;
};

/// Reads two --analysis-json files and prints what changed from A to B. Throws CompareError naming the file.
void compare(std::ostream& out, const std::string& a_path, const std::string& b_path);

} // namespace tit::analysis

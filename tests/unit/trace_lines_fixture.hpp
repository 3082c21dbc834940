// Shared by the per-dialect parser tests: parses lines of one rank, numbering them 1, 2, ...
#pragma once

#include "trace/reader.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tit::trace::testing {

/// Parses the lines of one rank of a set of `ranks` ranks (0: rank count unknown).
class LineParser {
public:
  LineParser(std::string file, detail::DialectGuess guess, int ranks)
      : file_(std::move(file)), parser_{file_, guess, ranks}
  {
  }

  const Action& parse(std::string_view line)
  {
    parser_.split(line, ++line_, action_);
    parser_.interpret(action_);
    return action_;
  }
  std::string error(std::string_view line)
  {
    try {
      parse(line);
    } catch (const TraceError& e) {
      return e.what();
    }
    return "<no error>";
  }
  std::vector<std::string> args() const { return {action_.args.begin(), action_.args.end()}; }

  std::string file_;
  detail::ActionParser parser_;
  Action action_;
  std::uint64_t line_ = 0;
};

/// The same as a GoogleTest fixture, for a 4-rank set.
class LinesFixture : public ::testing::Test, public LineParser {
protected:
  LinesFixture(std::string file, detail::DialectGuess guess) : LineParser(std::move(file), guess, 4) {}
};

} // namespace tit::trace::testing

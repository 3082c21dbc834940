// Shared by the per-dialect parser tests: parses lines of one rank of a 4-rank set, numbering them 1, 2, ...
#pragma once

#include "trace/reader.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tit::trace::testing {

class LinesFixture : public ::testing::Test {
protected:
  LinesFixture(std::string file, detail::DialectGuess guess) : file_(std::move(file)), parser_{file_, guess, 4} {}

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

} // namespace tit::trace::testing

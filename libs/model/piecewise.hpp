// Size-dependent model functions of the hybrid MPI model: piecewise-linear overheads
// (`smpi/os`, `smpi/or`, `smpi/ois`: "threshold:offset:slope;...") and factor tables
// (`smpi/bw-factor`, `smpi/lat-factor`: "threshold:value;...").
#pragma once

#include "core/error.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tit::model {

/// A malformed model string. what() says which chunk and why.
class ModelError : public tit::Error {
public:
  using tit::Error::Error;
};

/// f(size) = offset + slope * size on the segment of the largest threshold strictly below `size`;
/// sizes at or below every threshold use the first segment (SimGrid's smpi/os rule).
class PiecewiseLinear {
public:
  struct Segment {
    std::uint64_t threshold = 0;
    double offset = 0;
    double slope = 0;
  };

  PiecewiseLinear() = default;
  /// Parses "threshold:offset[:slope];..." (values accept time units: 2us, 1ms...; like SimGrid, fields past
  /// the slope are accepted and ignored, so its default "0:0:0:0:0" parses). Throws ModelError.
  static PiecewiseLinear parse(std::string_view text);

  double operator()(double size) const;
  bool is_zero() const { return zero_; }
  const std::vector<Segment>& segments() const { return segments_; }

private:
  std::vector<Segment> segments_; // sorted by threshold
  bool zero_ = true;
};

/// factor(size) = value of the largest threshold strictly below `size`, 1.0 when size is at or below
/// every threshold (SimGrid's smpi/bw-factor and smpi/lat-factor rule).
class FactorTable {
public:
  struct Entry {
    std::uint64_t threshold = 0;
    double value = 1.0;
  };

  FactorTable() = default;
  /// Parses "threshold:value;...". Throws ModelError.
  static FactorTable parse(std::string_view text);

  double operator()(double size) const;
  const std::vector<Entry>& entries() const { return entries_; }

private:
  std::vector<Entry> entries_; // sorted by threshold
};

/// Parses a number with an optional time unit (s, ms, us, ns, ps, m, h, d, w); throws ModelError.
double parse_time_value(std::string_view token);

} // namespace tit::model

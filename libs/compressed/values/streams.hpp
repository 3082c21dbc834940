// Value streams built from tokens, for tools that make a compressed trace from a model (tit-trace extrapolate) and for
// pool_stats' kept values: ValueStreams (decoded streams) and ValueBlock (a block's bytes, built as its values arrive).
#pragma once

#include "compressed/common/format.hpp"

#include <map>
#include <memory>

namespace tit::trace::cformat {

/// One rank's value streams built from tokens, one stream per (signature, value slot), as runs (equal values, or
/// integers by a constant step), for a trace made from a model; take() groups each stream's runs into repeats.
class ValueStreams {
public:
  void add(std::uint32_t signature, std::uint32_t slot, std::string_view token);
  /// The streams in (signature, slot) order, so that equal ranks give equal blocks.
  std::vector<Stream> take();

private:
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> index_;
  std::vector<Stream> streams_;
};

/// One rank's value block built from tokens as they arrive, in memory bounded by each stream's look-ahead of runs (as
/// RankCompressor's streams), not by the number of values: encode() gives the bytes encode_streams() writes of the
/// streams ValueStreams would hold (exact values, runs grouped into repeats).
class ValueBlock {
public:
  ValueBlock();
  ~ValueBlock();
  ValueBlock(const ValueBlock&) = delete;
  ValueBlock& operator=(const ValueBlock&) = delete;
  void add(std::uint32_t signature, std::uint32_t slot, std::string_view token);
  std::string encode();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace tit::trace::cformat

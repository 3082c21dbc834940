// The bin runs of `binned:R` value blocks as they are read (values/runs.cpp, values/blocks.cpp). Internal to values/.
#pragma once

#include "compressed/values/values.hpp"

#include <fmt/format.h>

namespace tit::trace::cformat {

/// The bin indices of a binned value block, read before its streams; each bin run takes the next.
struct BinIndices {
  Bins bins;
  std::span<const std::int64_t> indices; ///< per bin run, in order, less the base of the run's stream
  std::size_t used = 0;
  const std::int64_t* base = nullptr; ///< the base of the stream being read (none: it has no bin runs)
  std::uint32_t signature = 0, slot = 0; ///< that stream's
  std::int64_t next(ByteReader& r)
  {
    if (used == indices.size())
      r.fail(fmt::format("expected at most {} bin runs (the block's bin indices), found more", indices.size()));
    std::int64_t k = indices[used++];
    if (base == nullptr)
      r.fail(fmt::format("expected no bin run in the stream of signature {}'s value slot {} (the structure record "
                         "gives it no bin base), found one", signature, slot));
    k += *base;
    if (k > Bins::kMaxIndex || k < -Bins::kMaxIndex)
      r.fail(fmt::format("expected a bin index within +-2^40, found the base {} plus {}", *base, k - *base));
    return k;
  }
};

/// One run of a value stream, or a bin run (`bins`, the block's bin indices, relative to the stream's base).
ValueRun decode_run(ByteReader& r, std::size_t max_text, BinIndices* bins);

} // namespace tit::trace::cformat

// The readers fuzzed here read files: each input is written to a scratch directory of this process first.
#pragma once

#include "trace/reader.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <unistd.h>

namespace tit::fuzz {

/// A fresh empty directory of this process (the same one at each call).
inline const std::filesystem::path& scratch()
{
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("tit-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  std::error_code ec;
  for (auto const& entry : std::filesystem::directory_iterator(dir, ec))
    std::filesystem::remove_all(entry.path(), ec);
  return dir;
}

/// Reads every rank of `set`, at most `budget` actions in all: a reader must return actions or throw TraceError.
inline void read_ranks(tit::trace::TraceSet& set, int budget = 100000)
{
  for (int r = 0; r < set.rank_count() && budget > 0; ++r) {
    auto reader = set.reader(r);
    tit::trace::Action a;
    while (budget-- > 0 && reader->next(a)) {
    }
  }
}

inline void write_file(const std::filesystem::path& p, std::string_view content)
{
  std::ofstream(p, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
}

} // namespace tit::fuzz

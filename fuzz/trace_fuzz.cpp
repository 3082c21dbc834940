// Trace sets: the first byte chooses the layout (per-rank directory, merged file, trace list), gzip, and whether the
// files are read as SimGrid <= 3.19's format (tit-trace convert --from pre3.20); the rest is split at NUL bytes into
// up to 4 files. Every action of every rank is read; the reader must either return actions
// or throw a TraceError.
#include "fuzz_files.hpp"
#include "trace/reader.hpp"

#include <string>
#include <vector>
#include <zlib.h>

namespace {

void write_maybe_gzip(const std::filesystem::path& p, std::string_view content, bool gzip)
{
  if (not gzip) {
    tit::fuzz::write_file(p, content);
    return;
  }
  gzFile gz = gzopen(p.c_str(), "wb");
  if (gz == nullptr)
    return;
  if (not content.empty())
    gzwrite(gz, content.data(), static_cast<unsigned>(content.size()));
  gzclose(gz);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  if (size == 0)
    return 0;
  int layout = data[0] % 3;
  bool gzip = (data[0] & 4) != 0;
  bool pre320 = (data[0] & 8) != 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string_view> parts;
  while (parts.size() < 3) {
    auto nul = rest.find('\0');
    if (nul == std::string_view::npos)
      break;
    parts.push_back(rest.substr(0, nul));
    rest.remove_prefix(nul + 1);
  }
  parts.push_back(rest);

  auto dir = tit::fuzz::scratch();
  std::filesystem::path target;
  std::optional<int> ranks;
  if (layout == 0) { // a directory of per-rank files
    target = dir / "ranks";
    std::filesystem::create_directory(target);
    for (std::size_t i = 0; i < parts.size(); ++i)
      write_maybe_gzip(target / ("rank-" + std::to_string(i) + ".txt" + (gzip ? ".gz" : "")), parts[i], gzip);
  } else if (layout == 1) { // one merged file
    target = dir / (gzip ? "merged.txt.gz" : "merged.txt");
    write_maybe_gzip(target, parts[0], gzip);
    if (parts.size() > 1)
      ranks = static_cast<int>(parts.size());
  } else { // a trace list naming the other parts
    target = dir / "traces.txt";
    std::string list;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      auto name = "part-" + std::to_string(i) + (gzip ? ".gz" : ".txt");
      write_maybe_gzip(dir / name, parts[i], gzip);
      list += name + "\n";
    }
    tit::fuzz::write_file(target, std::string(parts[0]) + list);
  }
  try {
    auto set = pre320 ? tit::trace::TraceSet::open(target, ranks, tit::trace::Dialect::Pre320)
                      : tit::trace::TraceSet::open(target, ranks);
    int n = set->rank_count();
    if (n > 64) // a merged file may name huge ranks; reading 64 streams is enough
      n = 64;
    for (int r = 0; r < n; ++r) {
      auto reader = set->reader(r);
      tit::trace::Action action;
      while (reader->next(action)) {
      }
    }
  } catch (const tit::trace::TraceError&) {
  }
  return 0;
}

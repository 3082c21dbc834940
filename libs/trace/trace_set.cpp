// TraceSet::open: a directory of per-rank files, a trace list, one merged file, a compressed trace, or a file of a
// registered external format (OTF2).
#include "trace/reader.hpp"
#include "compressed/compressed.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace fs = std::filesystem;

namespace tit::trace {

namespace {

using detail::DialectGuess;
using detail::FileScan;
using detail::ScanDepth;

/// One per-rank trace file of a set, opened once: scanned at TraceSet::open, then read from its start by its rank.
struct RankFile {
  std::string path;
  DialectGuess dialect;
  std::string rank_origin; ///< how its rank was decided, for the rank mismatch message
  std::string unit;        ///< what its compute volumes count (FileScan::compute_unit)
  std::unique_ptr<detail::LineSource> source;
};

/// A per-rank file opened for its scan and then its reader, with a buffer per open rank large enough to read fast
/// and small enough for thousands of ranks.
std::unique_ptr<detail::LineSource> open_rank_file(const std::string& path, std::size_t rank_files)
{
  std::size_t buffer = std::clamp<std::size_t>((std::size_t{16} << 20) / rank_files, std::size_t{8} << 10,
                                               detail::LineSource::kDefaultBuffer);
  return std::make_unique<detail::LineSource>(path, buffer);
}

/// The unit the files declare; files that declare none take it; two that differ are an error.
std::string common_unit(const std::vector<RankFile>& files)
{
  const RankFile* first = nullptr;
  for (auto const& f : files) {
    if (f.unit.empty())
      continue;
    if (first == nullptr)
      first = &f;
    else if (f.unit != first->unit)
      throw TraceError(fmt::format("error: the trace files count compute volumes in different units: '{}' in {}, "
                                   "'{}' in {} (trace every rank with the same TIT_TRACE_COMPUTE and TIT_TRACE_RATE)",
                                   first->unit, first->path, f.unit, f.path));
  }
  return first != nullptr ? first->unit : std::string();
}

/// A trace set of text files, whose dialect a caller may choose instead of the detected one.
class PlainSet : public TraceSet {
public:
  void read_as(Dialect dialect) { read_as_ = dialect; }

protected:
  DialectGuess dialect_of(const DialectGuess& detected) const
  {
    return read_as_ ? DialectGuess{*read_as_, 0, ""} : detected;
  }

private:
  std::optional<Dialect> read_as_;
};

class PerRankSet final : public PlainSet {
public:
  PerRankSet(std::vector<RankFile> files, std::string description)
      : files_(std::move(files))
      , handed_out_(files_.size(), false)
      , description_(std::move(description))
      , unit_(common_unit(files_))
  {
  }

  int rank_count() const override { return static_cast<int>(files_.size()); }
  bool has_own_rank_count() const override { return true; }
  std::string describe() const override { return description_; }
  const std::string& compute_unit() const override { return unit_; }

  std::unique_ptr<RankReader> reader(int r) override
  {
    claim(r);
    RankFile& f = files_[static_cast<std::size_t>(r)];
    return detail::make_file_reader(std::move(f.source), r, f.rank_origin, dialect_of(f.dialect), rank_count());
  }

private:
  void claim(int r)
  {
    if (r < 0 || r >= rank_count() || handed_out_[static_cast<std::size_t>(r)])
      throw std::logic_error(fmt::format("TraceSet::reader({}): no such rank or already handed out", r));
    handed_out_[static_cast<std::size_t>(r)] = true;
  }

  std::vector<RankFile> files_;
  std::vector<bool> handed_out_;
  std::string description_;
  std::string unit_;
};

class MergedSet final : public PlainSet {
public:
  MergedSet(std::string path, DialectGuess dialect, int rank_count, std::string description, std::string unit)
      : source_(detail::make_merged_source(std::move(path), rank_count))
      , dialect_(std::move(dialect))
      , rank_count_(rank_count)
      , handed_out_(static_cast<std::size_t>(rank_count), false)
      , description_(std::move(description))
      , unit_(std::move(unit))
  {
  }

  int rank_count() const override { return rank_count_; }
  bool has_own_rank_count() const override { return false; }
  std::string describe() const override { return description_; }
  const std::string& compute_unit() const override { return unit_; }

  std::unique_ptr<RankReader> reader(int r) override
  {
    if (r < 0 || r >= rank_count_ || handed_out_[static_cast<std::size_t>(r)])
      throw std::logic_error(fmt::format("TraceSet::reader({}): no such rank or already handed out", r));
    handed_out_[static_cast<std::size_t>(r)] = true;
    return detail::make_merged_reader(source_, r, dialect_of(dialect_), rank_count_);
  }

private:
  std::shared_ptr<detail::MergedSource> source_;
  DialectGuess dialect_;
  int rank_count_;
  std::vector<bool> handed_out_;
  std::string description_;
  std::string unit_;
};

[[noreturn]] void fail_set(std::string_view what) { throw TraceError(fmt::format("error: {}", what)); }

/// Files a replay keeps open besides the rank traces: standard streams, the platform, timelines, SimGrid's own.
constexpr std::size_t kOtherOpenFiles = 64;

/// Every rank reads its own file, all of them at once: raise the soft limit of open files to the hard one when
/// it is too low, or stop before opening any, saying which limit to raise.
void make_room_for_open_files(std::size_t count, const std::string& where)
{
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0)
    return; // opening then reports the file that could not be opened
  const std::size_t need = count + kOtherOpenFiles;
  if (lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur >= need)
    return;
  rlimit raised = lim;
  raised.rlim_cur = lim.rlim_max == RLIM_INFINITY ? need : lim.rlim_max;
  if (raised.rlim_cur >= need && setrlimit(RLIMIT_NOFILE, &raised) == 0)
    return;
  auto hard = lim.rlim_max == RLIM_INFINITY ? std::string("unlimited") : std::to_string(lim.rlim_max);
  throw TraceError(fmt::format(
      "error: {}: {} per-rank trace files are read at once, one open file each, but this process may open at most "
      "{} files (hard limit {}); expected a limit of at least {}: raise it with `ulimit -n {}` in the shell that "
      "starts tit-replay (above the hard limit: as root, or `nofile` in /etc/security/limits.conf), or replay the "
      "traces as one merged file",
      where, count, static_cast<unsigned long long>(lim.rlim_cur), hard, need, need));
}

void check_deployed(std::size_t traces, std::optional<int> ranks, const std::string& where)
{
  if (ranks && static_cast<std::size_t>(*ranks) != traces)
    fail_set(fmt::format("rank mismatch: '{}' has {} rank traces but {} ranks are deployed", where, traces, *ranks));
}

std::unique_ptr<TraceSet> open_merged(const std::string& path, std::optional<int> ranks, FileScan scan,
                                      std::string description)
{
  int count = scan.max_rank + 1;
  if (count <= 0)
    fail_set(fmt::format("merged trace '{}' holds no action line, so its number of ranks is unknown", path));
  // The file's highest rank gives the count: every rank below must have lines (each rank's trace starts with
  // init), or a stray large rank (a typo, a damaged file) would make millions of empty ranks.
  if (scan.first_missing_rank >= 0)
    fail_set(fmt::format("merged trace '{}' has lines of rank {} but none of rank {} ({} ranks have lines): a merged "
                         "trace holds the lines of every rank from 0 to its highest",
                         path, scan.max_rank, scan.first_missing_rank, scan.distinct_ranks));
  // A count given by --np or a placement must be the file's: more ranks would replay as ranks without actions
  // (finishing at 0), fewer would leave lines unread.
  if (ranks && *ranks != count)
    fail_set(fmt::format("rank mismatch: merged trace '{}' holds the lines of ranks 0 to {} ({} ranks) but --np or "
                         "the placement gives {}",
                         path, scan.max_rank, count, *ranks));
  return std::make_unique<MergedSet>(path, std::move(scan.dialect), count, std::move(description),
                                     std::move(scan.compute_unit));
}

std::unique_ptr<TraceSet> open_merged(const std::string& path, std::optional<int> ranks, std::string description)
{
  return open_merged(path, ranks, detail::scan_file(path, ScanDepth::AllRanks), std::move(description));
}

// ---- directories ------------------------------------------------------------------------------------

std::vector<std::string> trace_files_in(const fs::path& dir)
{
  std::vector<std::string> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    std::error_code ec2;
    // Side files of our tracer (timings-<r>.csv) are not traces.
    bool side_file = name.ends_with(".csv");
    if (!name.empty() && name.front() != '.' && !side_file && e.is_regular_file(ec2))
      files.push_back(e.path().string());
  }
  if (ec)
    fail_set(fmt::format("cannot read trace directory '{}': {}", dir.string(), ec.message()));
  std::sort(files.begin(), files.end());
  return files;
}

/// Places each file at the rank its first action line names; ranks must be 0..n-1, each once.
std::vector<RankFile> place_by_rank(const std::vector<std::string>& files, std::vector<FileScan>& scans,
                                    std::vector<std::unique_ptr<detail::LineSource>>& sources, const std::string& dir)
{
  std::size_t n = files.size();
  std::vector<std::optional<std::size_t>> holder(n);
  std::optional<std::size_t> stray; // a file whose rank is out of 0..n-1
  for (std::size_t i = 0; i < n; ++i) {
    if (!scans[i].first_rank)
      fail_set(fmt::format("trace '{}' holds no action line, so its rank is unknown", files[i]));
    auto rank = static_cast<std::size_t>(*scans[i].first_rank);
    if (rank >= n) {
      stray = stray.value_or(i);
    } else if (holder[rank]) {
      fail_set(fmt::format("rank {} is held by two files: '{}' and '{}'", rank, files[*holder[rank]], files[i]));
    } else {
      holder[rank] = i;
    }
  }
  std::vector<RankFile> placed(n);
  for (std::size_t r = 0; r < n; ++r) {
    if (!holder[r])
      fail_set(fmt::format("no file in '{}' holds rank {} ({} per-rank files must hold ranks 0..{}; "
                           "'{}' holds rank {})",
                           dir, r, n, n - 1, files[*stray], *scans[*stray].first_rank));
    std::size_t i = *holder[r];
    placed[r] = RankFile{files[i], std::move(scans[i].dialect), "", scans[i].compute_unit, std::move(sources[i])};
  }
  return placed;
}

std::unique_ptr<TraceSet> open_list(const std::string& path, std::optional<int> ranks);

std::unique_ptr<TraceSet> open_directory(const fs::path& dir, std::optional<int> ranks)
{
  std::string where = dir.string();
  // A directory written by our tracer holds its trace list: it says which file is which rank.
  std::error_code ec;
  if (fs::is_regular_file(dir / "trace.list", ec))
    return open_list((dir / "trace.list").string(), ranks);
  std::vector<std::string> files = trace_files_in(dir);
  if (files.empty())
    fail_set(fmt::format("trace directory '{}' holds no trace file", where));
  if (files.size() == 1) { // one merged file, or the trace of a single rank
    FileScan scan = detail::scan_file(files[0], ScanDepth::AllRanks);
    if (scan.several_ranks)
      return open_merged(files[0], ranks, std::move(scan), fmt::format("merged file {}", files[0]));
  }
  check_deployed(files.size(), ranks, where);
  make_room_for_open_files(files.size(), where);
  std::vector<FileScan> scans;
  std::vector<std::unique_ptr<detail::LineSource>> sources;
  scans.reserve(files.size());
  sources.reserve(files.size());
  for (const std::string& file : files) {
    sources.push_back(open_rank_file(file, files.size()));
    scans.push_back(detail::scan_lines(*sources.back(), ScanDepth::FirstRank));
  }
  std::vector<RankFile> placed = place_by_rank(files, scans, sources, where);
  return std::make_unique<PerRankSet>(std::move(placed), fmt::format("{} per-rank files in {}", files.size(), where));
}

// ---- trace lists --------------------------------------------------------------------------------------

struct ListEntry {
  std::string path;
  std::uint64_t line;
};

/// A listed path: as written (relative to the current directory), else relative to the list's directory.
std::string resolve_listed(const detail::LineSource& list, std::string_view text)
{
  fs::path p{std::string(text)};
  fs::path beside = fs::path(list.path()).parent_path() / p;
  std::error_code ec;
  fs::file_status st = fs::status(p, ec);
  fs::path found = p;
  if (!fs::exists(st) && !p.is_absolute()) {
    st = fs::status(beside, ec);
    found = beside;
  }
  if (!fs::exists(st))
    detail::fail_at(list.path(), list.line_number(), text,
                    p.is_absolute() ? fmt::format("cannot find trace '{}'", text)
                                    : fmt::format("cannot find trace '{}': neither '{}' (from the current "
                                                  "directory) nor '{}' exists",
                                                  text, p.string(), beside.string()));
  if (fs::is_directory(st))
    detail::fail_at(list.path(), list.line_number(), text,
                    fmt::format("trace '{}' is a directory; a trace list names files", found.string()));
  return found.string();
}

std::vector<ListEntry> read_trace_list(const std::string& path)
{
  detail::LineSource list(path, 64 * 1024);
  std::vector<ListEntry> entries;
  std::string_view line;
  while (list.next(line)) {
    line = detail::trim(line);
    if (!detail::is_skipped(line))
      entries.push_back(ListEntry{resolve_listed(list, line), list.line_number()});
  }
  if (entries.empty())
    fail_set(fmt::format("'{}' holds neither trace lines nor trace file names", path));
  return entries;
}

/// The error of a compressed trace named among other files by a trace list.
[[noreturn]] void fail_compressed_in_list(const std::string& list, const ListEntry& e, std::size_t entries)
{
  detail::fail_at(list, e.line, e.path,
                  fmt::format("'{}' is a compressed trace, which holds every rank: a trace list names it on its only "
                              "line, or names one plain file per rank, not both ({} files listed)",
                              e.path, entries));
}

RankFile listed_rank_file(const ListEntry& entry, int rank, const std::string& list, std::size_t entries)
{
  std::string origin = fmt::format(" (line {} of trace list '{}')", entry.line, list);
  std::unique_ptr<detail::LineSource> source = open_rank_file(entry.path, entries);
  if (has_compressed_magic(source->head()))
    fail_compressed_in_list(list, entry, entries);
  FileScan scan = detail::scan_lines(*source, ScanDepth::FirstRank);
  if (scan.first_rank && *scan.first_rank != rank)
    detail::fail_at(entry.path, scan.first_line, scan.first_text,
                    fmt::format("line is for rank {} but this file holds rank {}'s actions{}", *scan.first_rank,
                                rank, origin));
  return RankFile{entry.path, std::move(scan.dialect), std::move(origin), std::move(scan.compute_unit),
                  std::move(source)};
}

std::unique_ptr<TraceSet> open_list(const std::string& path, std::optional<int> ranks)
{
  std::vector<ListEntry> entries = read_trace_list(path);
  // a compressed trace holds every rank: a list may name one, alone (docs/compressed-format.md); among other
  // files, each is recognised when it is opened for its scan
  if (entries.size() == 1 && is_compressed_trace(entries[0].path))
    return detail::open_compressed(entries[0].path, ranks);
  if (entries.size() == 1)
    return open_merged(entries[0].path, ranks, fmt::format("merged file {} (listed in {})", entries[0].path, path));
  make_room_for_open_files(entries.size(), path);
  std::vector<RankFile> files;
  files.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i)
    files.push_back(listed_rank_file(entries[i], static_cast<int>(i), path, entries.size()));
  check_deployed(entries.size(), ranks, path); // after the scans, which name a compressed trace among the files
  return std::make_unique<PerRankSet>(std::move(files),
                                      fmt::format("{} per-rank files listed in {}", entries.size(), path));
}

// ---- one file ------------------------------------------------------------------------------------------

/// A trace line starts with a rank and has an action; a trace list line is a path.
bool holds_trace_lines(const std::string& path)
{
  detail::LineSource src(path, 64 * 1024);
  std::string_view line;
  while (src.next(line)) {
    line = detail::trim(line);
    if (detail::is_skipped(line))
      continue;
    std::string_view first = detail::next_field(line);
    return !line.empty() && detail::parse_int(first).has_value();
  }
  return false;
}

std::vector<ExternalFormat>& external_formats()
{
  static std::vector<ExternalFormat> formats;
  return formats;
}

/// The registered format that recognises `path`, or nullptr. An OTF2 anchor file no format reads is refused by name
/// (read as text, its bytes would make a baffling message).
const ExternalFormat* external_format_of(const fs::path& path)
{
  for (const ExternalFormat& f : external_formats())
    if (f.recognises(path))
      return &f;
  if (path.extension() == ".otf2")
    fail_set(fmt::format("'{}' is an OTF2 archive, which this program does not read (tit-replay and tit-trace do)",
                         path.string()));
  return nullptr;
}

} // namespace

void register_format(ExternalFormat format)
{
  auto& formats = external_formats();
  for (ExternalFormat& f : formats)
    if (f.name == format.name) {
      f = std::move(format);
      return;
    }
  formats.push_back(std::move(format));
}

std::unique_ptr<TraceSet> TraceSet::open(const fs::path& path, std::optional<int> ranks)
{
  if (ranks && *ranks <= 0)
    fail_set(fmt::format("the number of ranks to replay must be positive, got {}", *ranks));
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    fail_set(fmt::format("cannot open trace '{}': {}", path.string(),
                         ec ? ec.message() : std::string(std::strerror(ENOENT))));
  if (fs::is_directory(st) && fs::is_regular_file(path / "traces.otf2", ec)) // an OTF2 archive named by its directory
    return TraceSet::open(path / "traces.otf2", ranks);
  if (fs::is_directory(st))
    return open_directory(path, ranks);
  if (is_compressed_trace(path))
    return detail::open_compressed(path, ranks);
  if (const ExternalFormat* format = external_format_of(path))
    return format->open(path, ranks);
  std::string file = path.string();
  if (holds_trace_lines(file))
    return open_merged(file, ranks, fmt::format("merged file {}", file));
  return open_list(file, ranks);
}

std::unique_ptr<TraceSet> TraceSet::open(const fs::path& path, std::optional<int> ranks, Dialect read_as)
{
  std::unique_ptr<TraceSet> set = open(path, ranks);
  auto* plain = dynamic_cast<PlainSet*>(set.get());
  if (plain == nullptr && external_format_of(path) != nullptr)
    fail_set(fmt::format("'{}' is an {} archive, which cannot be read as {}", path.string(),
                         external_format_of(path)->name, detail::dialect_name(read_as)));
  if (plain == nullptr)
    fail_set(fmt::format("'{}' is a compressed trace, which records the dialect of each rank: it cannot be read as {}",
                         path.string(), detail::dialect_name(read_as)));
  plain->read_as(read_as);
  return set;
}

} // namespace tit::trace

// An OTF2 archive as a TraceSet: one OTF2 reader shared by the ranks, each rank reading its location's events in
// chunks and parsing the lines they make with the trace library's dialect-2 parser.
#include "definitions.hpp"
#include "event_callbacks.hpp"
#include "otf2_input.hpp"
#include "rank_events.hpp"

#include <fmt/format.h>

#include <fstream>

namespace fs = std::filesystem;

namespace tit::otf2 {
namespace {

using trace::TraceError;

/// The OTF2 reader of an archive and its definitions, shared by the rank readers.
struct Archive {
  std::string anchor;
  OTF2_Reader* reader = nullptr;
  Definitions defs;
  std::vector<OTF2_EvtReader*> evt_readers; ///< rank r's, handed to its RankReader
  ReadOptions options;

  ~Archive()
  {
    if (reader != nullptr)
      OTF2_Reader_Close(reader);
  }
};

[[noreturn]] void fail(const std::string& anchor, std::string_view what)
{
  throw TraceError(fmt::format("{}: error: {}: {}", anchor, what, last_otf2_error()));
}

void open_locations(Archive& a)
{
  for (OTF2_LocationRef loc : a.defs.rank_locations)
    if (OTF2_Reader_SelectLocation(a.reader, loc) != OTF2_SUCCESS)
      fail(a.anchor, fmt::format("cannot select location {}", loc));
  bool defs_open = OTF2_Reader_OpenDefFiles(a.reader) == OTF2_SUCCESS;
  if (OTF2_Reader_OpenEvtFiles(a.reader) != OTF2_SUCCESS)
    fail(a.anchor, "cannot open the event files");
  for (OTF2_LocationRef loc : a.defs.rank_locations) {
    if (defs_open)
      if (OTF2_DefReader* local = OTF2_Reader_GetDefReader(a.reader, loc)) { // the location's mapping tables
        uint64_t read = 0;
        if (OTF2_Reader_ReadAllLocalDefinitions(a.reader, local, &read) != OTF2_SUCCESS)
          fail(a.anchor, fmt::format("truncated or damaged archive: the local definitions of location {} stop "
                                     "after {} records",
                                     loc, read));
        OTF2_Reader_CloseDefReader(a.reader, local);
      }
    OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(a.reader, loc);
    if (evt == nullptr)
      fail(a.anchor, fmt::format("cannot read the events of location {}", loc));
    a.evt_readers.push_back(evt);
  }
  if (defs_open)
    OTF2_Reader_CloseDefFiles(a.reader);
}

std::shared_ptr<Archive> open_reader(const fs::path& anchor, const ReadOptions& options)
{
  capture_otf2_errors();
  auto a = std::make_shared<Archive>();
  a->anchor = anchor.string();
  a->options = options;
  a->reader = OTF2_Reader_Open(a->anchor.c_str());
  if (a->reader == nullptr)
    fail(a->anchor, "not a readable OTF2 archive");
  if (OTF2_Reader_SetSerialCollectiveCallbacks(a->reader) != OTF2_SUCCESS)
    fail(a->anchor, "cannot set up the OTF2 reader");
  uint64_t locations = 0;
  if (OTF2_Reader_GetNumberOfLocations(a->reader, &locations) != OTF2_SUCCESS)
    fail(a->anchor, "truncated or damaged anchor file");
  a->defs = read_definitions(a->reader, a->anchor, options.metric);
  if (options.metric_required && !a->defs.has_metric)
    throw TraceError(fmt::format("{}: error: the archive records no metric '{}' (--metric): give another metric, or "
                                 "none to estimate the volumes from the elapsed time",
                                 a->anchor, options.metric));
  open_locations(*a);
  return a;
}

class OtfRankReader final : public trace::RankReader {
public:
  OtfRankReader(std::shared_ptr<Archive> archive, int rank)
      : archive_(std::move(archive))
      , evt_(archive_->evt_readers[static_cast<std::size_t>(rank)])
      , events_(archive_->defs, rank, archive_->options, archive_->anchor)
      , file_(fmt::format("{}[rank {}]", archive_->anchor, rank))
      , parser_(file_, trace::detail::DialectGuess{trace::Dialect::SimGrid, 0, ""},
                static_cast<int>(archive_->defs.rank_locations.size()))
  {
    OTF2_EvtReaderCallbacks* cb = make_event_callbacks();
    OTF2_Reader_RegisterEvtCallbacks(archive_->reader, evt_, cb, &events_);
    OTF2_EvtReaderCallbacks_Delete(cb);
  }
  ~OtfRankReader() override { OTF2_Reader_CloseEvtReader(archive_->reader, evt_); }

  bool next(trace::Action& out) override
  {
    for (;;) {
      if (auto line = events_.pop()) {
        text_ = std::move(line->text);
        parser_.split(text_, line->event, out);
        parser_.interpret(out);
        return true;
      }
      if (!events_.error().empty())
        throw TraceError(events_.error());
      if (done_)
        return false;
      read_chunk();
    }
  }
  const std::string& file() const override { return file_; }

private:
  void read_chunk()
  {
    uint64_t got = 0;
    OTF2_ErrorCode status = OTF2_Reader_ReadLocalEvents(archive_->reader, evt_, kChunk, &got);
    read_ += got;
    if (!events_.error().empty())
      throw TraceError(events_.error());
    if (status != OTF2_SUCCESS)
      throw TraceError(fmt::format("{}: error: truncated or damaged archive: its events stop after event {}: {}",
                                   file_, read_, last_otf2_error()));
    if (got < kChunk) {
      events_.finish(read_ + 1);
      done_ = true;
      if (events_.skipped() > 0)
        fmt::print(stderr, "warning: {}: {} records that cannot be replayed were skipped (--skip-unsupported)\n",
                   file_, events_.skipped());
    }
  }

  static constexpr uint64_t kChunk = 4096;
  std::shared_ptr<Archive> archive_;
  OTF2_EvtReader* evt_;
  RankEvents events_;
  std::string file_;
  trace::detail::ActionParser parser_;
  std::string text_;
  std::uint64_t read_ = 0;
  bool done_ = false;
};

class ArchiveSet final : public trace::TraceSet {
public:
  explicit ArchiveSet(std::shared_ptr<Archive> archive)
      : archive_(std::move(archive)), handed_out_(archive_->defs.rank_locations.size(), false)
  {
    const Definitions& d = archive_->defs;
    const ReadOptions& o = archive_->options;
    double rate = o.rate.value_or(1e9);
    unit_ = d.has_metric ? (o.metric == "PAPI_TOT_INS" ? std::string("instructions") : o.metric)
                         : trace::compute_unit("wall-time", fmt::format("{}", rate));
    source_ = d.has_metric ? fmt::format("increments of metric {}", o.metric)
                           : fmt::format("ESTIMATE: elapsed time between MPI calls x {} per second", rate);
  }
  int rank_count() const override { return static_cast<int>(handed_out_.size()); }
  bool has_own_rank_count() const override { return true; }
  std::string describe() const override
  {
    return fmt::format("OTF2 archive {} ({} ranks; compute volumes: {})", archive_->anchor, rank_count(), source_);
  }
  const std::string& compute_unit() const override { return unit_; }
  std::unique_ptr<trace::RankReader> reader(int r) override
  {
    if (r < 0 || r >= rank_count() || handed_out_[static_cast<std::size_t>(r)])
      throw std::logic_error(fmt::format("TraceSet::reader({}): no such rank or already handed out", r));
    handed_out_[static_cast<std::size_t>(r)] = true;
    return std::make_unique<OtfRankReader>(archive_, r);
  }

private:
  std::shared_ptr<Archive> archive_;
  std::vector<bool> handed_out_;
  std::string unit_;
  std::string source_;
};

ReadOptions& registered_options()
{
  static ReadOptions options;
  return options;
}

} // namespace

bool is_anchor_file(const fs::path& path)
{
  std::error_code ec;
  if (path.extension() != ".otf2" || !fs::is_regular_file(path, ec))
    return false;
  std::ifstream in(path, std::ios::binary);
  char head[6] = {};
  in.read(head, sizeof head);
  return in.gcount() == sizeof head && std::string_view(head + 2, 4) == "OTF2";
}

std::unique_ptr<trace::TraceSet> open_archive(const fs::path& anchor, std::optional<int> ranks,
                                              const ReadOptions& options)
{
  auto set = std::make_unique<ArchiveSet>(open_reader(anchor, options));
  if (ranks && *ranks != set->rank_count())
    throw TraceError(fmt::format("error: rank mismatch: OTF2 archive '{}' has {} ranks but {} ranks are deployed",
                                 anchor.string(), set->rank_count(), *ranks));
  return set;
}

void enable(const ReadOptions& options)
{
  registered_options() = options;
  trace::register_format(trace::ExternalFormat{
      "OTF2", is_anchor_file,
      [](const fs::path& p, std::optional<int> ranks) { return open_archive(p, ranks, registered_options()); }});
}

} // namespace tit::otf2

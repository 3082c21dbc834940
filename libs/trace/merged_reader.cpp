// One merged file read as the streams of all its ranks. Each rank pulls lines from the shared file;
// lines of other ranks met on the way wait in their rank's queue (raw text and line number, parsed
// when dequeued), so memory follows the skew between ranks, not the size of the file.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <cstring>
#include <utility>

namespace tit::trace::detail {

namespace {

/// A FIFO of lines in one growing byte buffer: [line number][length][text] records, no allocation per line.
class LineQueue {
public:
  void push(std::string_view text, std::uint64_t line)
  {
    auto len = static_cast<std::uint32_t>(text.size());
    std::size_t at = bytes_.size();
    bytes_.resize(at + sizeof line + sizeof len + len);
    std::memcpy(bytes_.data() + at, &line, sizeof line);
    std::memcpy(bytes_.data() + at + sizeof line, &len, sizeof len);
    std::memcpy(bytes_.data() + at + sizeof line + sizeof len, text.data(), len);
  }

  bool pop(std::string& text, std::uint64_t& line)
  {
    if (head_ == bytes_.size())
      return false;
    std::uint32_t len = 0;
    std::memcpy(&line, bytes_.data() + head_, sizeof line);
    std::memcpy(&len, bytes_.data() + head_ + sizeof line, sizeof len);
    text.assign(bytes_.data() + head_ + sizeof line + sizeof len, len);
    head_ += sizeof line + sizeof len + len;
    if (head_ == bytes_.size()) { // empty: start over, keeping the capacity
      bytes_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAt && head_ * 2 >= bytes_.size()) { // drop the taken half
      bytes_.erase(0, head_);
      head_ = 0;
    }
    return true;
  }

  std::size_t size() const { return bytes_.size() - head_; }

  void drop()
  {
    bytes_.clear();
    bytes_.shrink_to_fit();
    head_ = 0;
  }

private:
  static constexpr std::size_t kCompactAt = std::size_t{64} * 1024;
  std::string bytes_;
  std::size_t head_ = 0;
};

} // namespace

class MergedSource {
public:
  MergedSource(std::string path, int rank_count)
      : path_(std::move(path)), source_(std::make_unique<LineSource>(path_)), queues_(rank_count),
        open_(rank_count, true)
  {
  }

  const std::string& path() const { return path_; }

  /// The next line of rank `rank` (copied into `text`); false at the end of the file.
  bool take(int rank, std::string& text, std::uint64_t& line)
  {
    if (queues_[rank].pop(text, line))
      return true;
    std::string_view raw;
    while (source_ && source_->next(raw)) {
      raw = trim(raw);
      if (is_skipped(raw))
        continue;
      int owner = owner_of(raw);
      if (owner == rank) {
        text.assign(raw);
        line = source_->line_number();
        return true;
      }
      if (open_[owner])
        queues_[owner].push(raw, source_->line_number());
    }
    source_.reset();
    return false;
  }

  /// Rank `rank` reads no more: its lines are dropped from now on.
  void close(int rank)
  {
    open_[rank] = false;
    queues_[rank].drop();
  }

  std::size_t backlog() const
  {
    std::size_t bytes = 0;
    for (const LineQueue& q : queues_)
      bytes += q.size();
    return bytes;
  }

private:
  int owner_of(std::string_view text) const
  {
    std::string_view rest = text;
    int owner = rank_field(path_, source_->line_number(), text, next_field(rest));
    if (owner >= static_cast<int>(queues_.size()))
      fail_at(path_, source_->line_number(), text,
              fmt::format("line is for rank {} but only {} ranks are replayed (ranks 0..{})", owner,
                          queues_.size(), queues_.size() - 1));
    return owner;
  }

  std::string path_;
  std::unique_ptr<LineSource> source_;
  std::vector<LineQueue> queues_;
  std::vector<bool> open_;
};

namespace {

class MergedRankReader final : public RankReader {
public:
  MergedRankReader(std::shared_ptr<MergedSource> source, int rank, DialectGuess dialect, int rank_count)
      : source_(std::move(source)), rank_(rank), parser_(source_->path(), std::move(dialect), rank_count)
  {
  }
  ~MergedRankReader() override { source_->close(rank_); }
  MergedRankReader(const MergedRankReader&) = delete;
  MergedRankReader& operator=(const MergedRankReader&) = delete;

  bool next(Action& out) override
  {
    std::uint64_t line = 0;
    if (!source_->take(rank_, line_, line))
      return false;
    parser_.split(line_, line, out);
    parser_.interpret(out);
    return true;
  }

  const std::string& file() const override { return source_->path(); }

private:
  std::shared_ptr<MergedSource> source_;
  int rank_;
  ActionParser parser_;
  std::string line_; // this rank's current line: the action's views point here
};

} // namespace

std::shared_ptr<MergedSource> make_merged_source(std::string path, int rank_count)
{
  return std::make_shared<MergedSource>(std::move(path), rank_count);
}

std::size_t merged_backlog(const MergedSource& source) { return source.backlog(); }

std::unique_ptr<RankReader> make_merged_reader(std::shared_ptr<MergedSource> source, int rank,
                                               DialectGuess dialect, int rank_count)
{
  return std::make_unique<MergedRankReader>(std::move(source), rank, std::move(dialect), rank_count);
}

} // namespace tit::trace::detail

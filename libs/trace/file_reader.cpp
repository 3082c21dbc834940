// The stream of one rank read from its own file.
#include "trace/reader.hpp"

#include <fmt/format.h>

#include <utility>

namespace tit::trace::detail {

namespace {

class FileRankReader final : public RankReader {
public:
  FileRankReader(std::unique_ptr<LineSource> source, int rank, std::string rank_origin, DialectGuess dialect,
                 int rank_count)
      : path_(source->path())
      , rank_(rank)
      , rank_origin_(std::move(rank_origin))
      , parser_(path_, std::move(dialect), rank_count)
      , source_(std::move(source))
  {
    source_->rewind();
  }

  bool next(Action& out) override
  {
    std::string_view line;
    while (source_ && source_->next(line)) {
      line = trim(line);
      if (is_skipped(line))
        continue;
      parser_.split(line, source_->line_number(), out);
      if (out.rank != rank_)
        fail(out, fmt::format("line is for rank {} but this file holds rank {}'s actions{}", out.rank, rank_,
                              rank_origin_));
      parser_.interpret(out);
      return true;
    }
    source_.reset(); // the end: give back the file descriptor and the buffer
    return false;
  }

  const std::string& file() const override { return path_; }

private:
  std::string path_;
  int rank_;
  std::string rank_origin_;
  ActionParser parser_;
  std::unique_ptr<LineSource> source_;
};

} // namespace

std::unique_ptr<RankReader> make_file_reader(std::unique_ptr<LineSource> source, int rank, std::string rank_origin,
                                             DialectGuess dialect, int rank_count)
{
  return std::make_unique<FileRankReader>(std::move(source), rank, std::move(rank_origin), std::move(dialect),
                                          rank_count);
}

} // namespace tit::trace::detail

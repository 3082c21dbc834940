// One rank's OTF2 events turned into the lines of its time-independent trace (dialect 2, with our tracer's
// communicator extension). Fed event by event by the archive's reader (archive_set.cpp); hands out the lines once
// they are complete (an irecv's source, tag and size are only known at its completion).
#pragma once

#include "collectives.hpp"
#include "definitions.hpp"
#include "otf2_input.hpp"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tit::otf2 {

/// A line and the event it comes from (its position among the location's events, from 1).
struct TraceLine {
  std::string text;
  std::uint64_t event = 0;
  std::uint64_t waits_for = 0; ///< an irecv whose completion is not read yet: its request id (0: complete)
};

/// One MPI record inside a region, kept until the region's Leave says what made it.
struct Record {
  enum class Type {
    Send, Isend, Recv, IrecvRequest, IsendComplete, IrecvComplete, Test, Cancelled, Collective,
    NbcRequest,  ///< NonBlockingCollectiveRequest: a nonblocking collective starts (its line waits for its completion)
    NbcComplete, ///< NonBlockingCollectiveComplete: its operation, communicator, root and sizes (in `collective`)
  };
  Type type = Type::Send;
  std::uint64_t event = 0;
  std::uint32_t peer = 0;
  OTF2_CommRef comm = OTF2_UNDEFINED_COMM;
  std::uint32_t tag = 0;
  std::uint64_t bytes = 0;
  std::uint64_t request = 0;
  CollectiveRecord collective;
};

class RankEvents {
public:
  RankEvents(const Definitions& defs, int rank, const ReadOptions& options, const std::string& anchor);

  void enter(std::uint64_t time, OTF2_RegionRef region, std::uint64_t event);
  void leave(std::uint64_t time, OTF2_RegionRef region, std::uint64_t event);
  void metric(OTF2_MetricRef metric, std::uint8_t count, const OTF2_Type* types, const OTF2_MetricValue* values);
  void record(Record r);
  /// A record that cannot be replayed: stops (the error is kept for error()) unless options say to skip it.
  void unsupported(std::string_view record, std::uint64_t event);
  /// After the last event.
  void finish(std::uint64_t events);

  /// The next complete line, if any.
  std::optional<TraceLine> pop();
  /// Whether lines wait for a later event (an irecv not yet completed).
  bool blocked() const { return !lines_.empty() && lines_.front().waits_for != 0; }
  /// The first error met ("" if none): the reading stops there.
  const std::string& error() const { return error_; }
  std::uint64_t skipped() const { return skipped_; }

private:
  struct Pending {
    int src, dst, tag, comm;
    bool recv;
    std::uint64_t line;              ///< an irecv's or a nonblocking collective's line (absolute position)
    std::vector<std::uint64_t> tests; ///< test lines written before the irecv's source was known
    bool collective = false;         ///< a nonblocking collective (its key: -333 -333 -1, as our tracer writes it)
    /// Whether its line is still unknown: an irecv before its source, a nonblocking collective (until it completes).
    bool unknown() const { return (recv && src < 0) || collective; }
  };
  TraceLine& line_at(std::uint64_t position) { return lines_[position - first_line_]; }

  void fail(std::uint64_t event, std::string_view what);
  void emit(std::uint64_t event, std::string text, std::uint64_t waits_for = 0);
  void compute_until(std::uint64_t time);
  void flush_region(const std::string& region, std::uint64_t event);
  void translate(const Record& r, const std::string& region);
  void point_to_point(const Record& r, const std::string& region);
  void completion(const Record& r, const std::string& region);
  void collective(const Record& r);
  /// A collective record's line text without the rank ("bcast 100 0 6 comm=1"); nothing for a communicator of one
  /// rank (it moves nothing) or a record that cannot be replayed (unsupported() was told).
  std::optional<std::string> collective_text(const Record& r);
  bool nonblocking_complete(Pending& p, const Record& r);
  bool sendrecv(const std::string& region);
  bool waitall(const std::string& region);
  /// The world rank of `peer` in `comm`, and the communicator's handle on this rank.
  std::pair<int, int> world_peer(const Record& r);
  int handle_of(const Communicator& c, std::uint64_t event);
  const Communicator& comm_of(OTF2_CommRef ref, std::uint64_t event);
  std::string key_of(const Pending& p) const;

  const Definitions& defs_;
  int rank_;
  ReadOptions options_;
  std::string anchor_;
  std::string where_;
  std::deque<TraceLine> lines_;
  std::uint64_t first_line_ = 0; ///< number of lines popped so far (positions in lines_ are relative to it)
  std::vector<OTF2_RegionRef> stack_;
  int mpi_depth_ = 0;
  std::vector<Record> region_records_;
  std::unordered_map<int, int> handles_; ///< communicator index -> this rank's handle
  std::unordered_map<std::uint64_t, Pending> requests_;
  std::vector<std::uint64_t> request_order_;
  std::optional<std::uint64_t> last_leave_time_;
  std::optional<double> metric_now_;
  std::optional<double> metric_at_leave_;
  bool finalized_ = false;
  std::string error_;
  std::uint64_t skipped_ = 0;
};

} // namespace tit::otf2

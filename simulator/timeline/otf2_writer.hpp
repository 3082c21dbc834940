// --otf2 DIR: the simulated run as an OTF2 archive (Vampir, Scalasca, pipit, otf2-print): one location per rank
// under its host in the system tree, one region per MPI call (and "compute", "sleep"), Score-P's MPI records with
// the simulated times. Kept in memory during the replay, written when it ends (docs/otf2.md).
#pragma once

#include "timeline/observer.hpp"
#include "timeline/otf2_events.hpp"

#include <optional>
#include <string>
#include <unordered_map>

namespace tit::timeline {

class Otf2Writer final : public Observer {
public:
  /// Fails (Otf2Error) when `dir` exists and is not an empty directory.
  explicit Otf2Writer(std::string dir);
  void begin_run(const std::vector<std::string>& hosts) override;
  void action_end(const ActionRecord& record) override;
  void message_received(const mpi::MessageEvent& e) override;
  void end_run(double simulated_time) override;

private:
  struct Request {
    bool recv;
    int peer, tag;
    std::uint64_t bytes;
    std::optional<otf2_out::Record> collective; ///< a nonblocking collective: its completion record, but the time
  };
  struct Arrival {
    int src, tag;
  };
  struct RankState {
    std::vector<Arrival> arrivals; ///< user messages received and not yet given to a receive, in arrival order
    /// Posted and not completed, by handle (mpi::Request::handle: the OTF2 request id on the rank's location).
    std::unordered_map<std::uint64_t, Request> pending;
  };

  std::uint32_t region_of(const trace::Action& a);
  void point_to_point(const ActionRecord& r, otf2_out::Item& item);
  /// A wait's or test's records: a completion for each request the simulated run completed, MpiRequestTest for each
  /// one a test left pending.
  void completions(const ActionRecord& r, otf2_out::Item& item);
  void completion(int rank, std::uint64_t handle, Request q, otf2_out::Item& item);
  /// The source of a receive from `src` (kAnySource: the first message that arrived with its tag), and the arrival
  /// it takes.
  int matched_source(int rank, int src, int tag);
  /// The Collective record of a blocking collective, or the fields of a nonblocking one's completion.
  static otf2_out::Record collective_record(const ActionRecord& r);
  void collective(const ActionRecord& r, otf2_out::Item& item);
  void nonblocking_collective(const ActionRecord& r, otf2_out::Item& item);

  std::string dir_;
  otf2_out::Run run_;
  std::vector<RankState> states_;
  std::unordered_map<std::string, std::uint32_t> region_ids_;
  bool written_ = false;
};

} // namespace tit::timeline

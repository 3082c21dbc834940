// Collects what the analysis needs while replaying (a compact record per action), then analyses.
#pragma once

#include "analysis/analysis.hpp"
#include "timeline/observer.hpp"

#include <optional>
#include <unordered_map>

namespace tit::analysis {

class Recorder final : public timeline::Observer {
public:
  explicit Recorder(DelayModel model) : model_(model) {}
  void begin_run(const std::vector<std::string>& hosts) override;
  void action_begin(int rank, const trace::Action& action, double time) override;
  void action_end(const timeline::ActionRecord& record) override;
  void message_sent(const mpi::MessageEvent& e) override;
  void message_received(const mpi::MessageEvent& e) override;
  void end_run(double end_time) override;
  /// Runs the analysis (once the run is over); `simulated_time` is the replay's prediction.
  Result analyse(double simulated_time);

private:
  std::uint32_t name_id(std::string_view name);
  DelayModel model_;
  Input input_;
  std::unordered_map<std::string, std::uint32_t> name_ids_;
  std::vector<std::uint32_t> current_; ///< per rank, the index of the action in progress
  struct Sent {
    int src;
    std::uint32_t index;
  };
  std::unordered_map<std::uint64_t, Sent> in_flight_;
};

} // namespace tit::analysis

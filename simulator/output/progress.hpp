// The progress display of a long replay (stderr): simulated time reached, actions done and their rate.
// An observer of the replay; it never changes what is simulated.
#pragma once

#include "timeline/observer.hpp"

#include <chrono>
#include <cstdint>
#include <ostream>

namespace tit::output {

class ProgressDisplay final : public timeline::Observer {
public:
  /// terminal: rewrite one line twice a second; otherwise print a line every 10 s. Both print a last
  /// line when the run ends.
  ProgressDisplay(std::ostream& out, bool terminal);
  ~ProgressDisplay() override;
  void action_end(const timeline::ActionRecord& record) override;
  void end_run(double simulated_time) override;

private:
  void print(bool last);

  std::ostream& out_;
  bool terminal_;
  bool printed_ = false;
  std::uint64_t actions_ = 0;
  double reached_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
};

} // namespace tit::output

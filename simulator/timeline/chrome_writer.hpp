// --chrome-trace FILE: Chrome's trace event JSON (Perfetto UI, chrome://tracing): one track per rank, a
// complete slice per action, a flow arrow per message. Written while replaying.
#pragma once

#include "timeline/observer.hpp"

#include <ostream>
#include <string>

namespace tit::timeline {

class ChromeTraceWriter final : public Observer {
public:
  explicit ChromeTraceWriter(std::ostream& out);
  ~ChromeTraceWriter() override;
  void begin_run(const std::vector<std::string>& hosts) override;
  void action_end(const ActionRecord& record) override;
  void message_sent(const mpi::MessageEvent& e) override;
  void message_received(const mpi::MessageEvent& e) override;
  void end_run(double simulated_time) override;
  void stopped(double time, const std::string& error) override;
  /// Closes the JSON document (also done by the destructor, so a failed replay still leaves valid JSON).
  void close();

private:
  void separator();
  std::ostream& out_;
  bool first_ = true;
  bool closed_ = false;
  double simulated_time_ = -1;
  double stopped_at_ = -1;   ///< the replay stopped at this time (-1: it did not, or its time is unknown)
  std::string error_;        ///< and why
};

/// `s` as the inside of a JSON string literal.
std::string json_escape(std::string_view s);

} // namespace tit::timeline

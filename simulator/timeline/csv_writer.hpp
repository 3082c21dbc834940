// --csv FILE: one row per action and one per message, written while replaying (memory does not grow with
// the trace: only messages sent and not yet received are remembered).
#pragma once

#include "timeline/observer.hpp"

#include <ostream>
#include <unordered_map>

namespace tit::timeline {

/// Columns: record,rank,line,action,args,start,end,bytes,peer,category. `record` is `action` or `message`;
/// a message row has the sender as rank, the receiver as peer, the tag as args (`tag=T`), the send's post
/// time as start and the receive's completion as end. Rows come in the order actions end. The first line
/// is `# tit-replay timeline csv v1`.
class CsvWriter final : public Observer {
public:
  explicit CsvWriter(std::ostream& out);
  void action_end(const ActionRecord& record) override;
  void message_sent(const mpi::MessageEvent& e) override;
  void message_received(const mpi::MessageEvent& e) override;
  void stopped(double time, const std::string& error) override;

private:
  std::ostream& out_;
  std::unordered_map<std::uint64_t, double> in_flight_; ///< message id -> send time
};

} // namespace tit::timeline

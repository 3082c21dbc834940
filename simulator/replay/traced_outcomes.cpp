// The traced outcome of a test (tit/traced-tests, docs/mpi-semantics.md#traced-outcomes): what the rest of the
// rank's trace says a test completed in the traced run.
#include "replay/rank_actor.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace s4u = simgrid::s4u;
using tit::trace::Action;
using tit::trace::Kind;

namespace tit::replay {

// A test (or waitany) completed in the traced run the requests that no later line of the trace names before
// their key is posted again or the trace ends; a request a later wait or test names was still pending. Several
// pending requests of one key, a waitall or test/wait of several requests coming first, or no decision within
// the look-ahead window leave the outcome Unknown: the replay's own outcome then stands.
std::vector<mpi::Traced> RankActor::traced_outcomes(const Action& a, const std::vector<mpi::RequestPtr>& reqs)
{
  std::vector<mpi::Traced> traced(reqs.size(), mpi::Traced::Unknown);
  std::vector<trace::MessageKey> keys;
  std::vector<std::size_t> asked;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const mpi::Request& r = *reqs[i];
    if (r.type == mpi::Request::Type::Group || r.origin != mpi::Origin::User)
      continue;
    auto same_key = [&](const mpi::RequestPtr& p) { return p->key == r.key; };
    if (std::count_if(pending_.begin(), pending_.end(), same_key) > 1)
      continue;
    keys.push_back(r.key);
    asked.push_back(i);
  }
  if (keys.empty())
    return traced;
  std::vector<Fate> fates = reader_.fates(mpi_.rank(), keys);
  for (std::size_t k = 0; k < keys.size(); ++k)
    traced[asked[k]] = fates[k] == Fate::Named       ? mpi::Traced::Pending
                       : fates[k] == Fate::Forgotten ? mpi::Traced::Completed
                                                     : mpi::Traced::Unknown;
  // Only with tit/traced-tests does an unknown outcome change anything (by default it is SimGrid's rule).
  if (reader_.window_exhausted() && run_.world->params().traced_tests) {
    std::string key = fmt::format("lookahead {}", mpi_.rank());
    if (not run_.warnings.repeat(key))
      run_.warnings.add(key, fmt::format("{}:{}: warning: rank {}: the next {} actions neither name nor post again "
                                         "a request this line tests or waits for: its traced outcome is unknown, "
                                         "the replay's own stands\n  {}",
                                         *a.file, a.line, mpi_.rank(), reader_.window(), a.text));
  }
  return traced;
}

} // namespace tit::replay

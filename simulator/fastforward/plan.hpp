// Fast-forward, its plan (docs/fast-forward.md): which loops of a trace set can be cut, and the trace set with
// those loops cut to a few iterations. Knows nothing of SimGrid: the replays and the fit are in fast_forward.hpp.
//
// A loop is cut only when every rank runs it, at the top level of its sequence (not inside another loop), the same
// number of times (give or take the iterations a rank folds from another starting point), and its body neither starts nor ends the run nor makes communicators: then every rank skipping
// the same iterations skips the same messages and collectives, and what remains still matches. Iterations longer than
// the folder's window (a rank with many neighbours) are folded from the flat run they leave; each of rank 0's loops is
// matched with one of every other rank's by trip count and collectives, and a rank's other loops are not cut.
#pragma once

#include "trace/reader.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tit::fastforward {

struct Settings {
  double tolerance = 0.005;     ///< the largest estimated relative error accepted (--fast-forward=TOL)
  std::uint64_t first_k = 4;    ///< the first cut: loops simulated for k, 2k and 3k iterations
  int doublings = 3;            ///< k doubled at most this many times while the fit is not within tolerance
  std::size_t max_loops = 8;    ///< more long loops than this: not fast-forwarded (each costs two more replays)
  unsigned parallel = 1;        ///< cut replays run side by side (each in a child process), at most this many
  /// What is said while the trace is read (one line at a time); may be empty.
  std::function<void(std::string_view)> progress;
};

/// One loop cut on every rank.
struct Loop {
  std::uint64_t trip = 0;                ///< iterations: the fewest of any rank
  std::vector<std::uint64_t> extra;      ///< per rank: iterations more than `trip` (0, 1 or 2: the ranks fold the
                                         ///< loop from different starting points); a cut skips as many on each rank
  std::vector<std::uint64_t> first;      ///< per rank: its first MPI call's index among the rank's calls (0-based)
  std::vector<std::uint64_t> body;       ///< per rank: MPI calls per iteration (computations are not counted: a
                                         ///< computation goes with the call after it)
  std::string where;                     ///< rank 0's first MPI call of the loop: "file:line"
  std::vector<double> work;              ///< per iteration: compute volume summed over the ranks
  std::vector<double> peak;              ///< per iteration: the largest compute volume of a rank
  std::vector<double> bytes;             ///< per iteration: bytes sent (messages and collectives) summed over ranks
  std::uint64_t kept = 0;                ///< iterations whose actions are held: a cut keeps at most this many
};

/// The loops of a trace set and the actions a cut keeps.
class Plan {
public:
  /// Reads `traces` once: each rank's MPI calls folded into loops as `tit-trace compress` folds them, the actions a
  /// cut may keep held, each iteration's volumes counted. Throws trace::TraceError on a bad trace (as the replay
  /// would).
  static Plan make(const std::filesystem::path& traces, std::optional<int> ranks, const Settings& settings);

  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  ~Plan();

  /// The loops cut, in the order rank 0 runs them; empty when none can be (refusal() says why).
  const std::vector<Loop>& loops() const;
  /// Why no loop is cut (empty when some are).
  const std::string& refusal() const;
  int rank_count() const;
  /// Every action of the trace set (every rank).
  std::uint64_t actions() const;
  /// The actions of every rank with loop j cut to iterations[j] (each at most loops()[j].kept).
  std::uint64_t actions_of_cut(const std::vector<std::uint64_t>& iterations) const;
  /// The trace set with loop j cut to iterations[j] iterations (plus its extra ones) on every rank: the first ones
  /// kept, the others left out (as many on every rank), every action outside the loops kept. Its readers parse the lines as traced (file
  /// and line numbers of the trace set), so errors name the trace. The plan must outlive it.
  std::unique_ptr<trace::TraceSet> cut(const std::vector<std::uint64_t>& iterations) const;

  struct Impl; ///< plan.cpp

private:
  explicit Plan(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace tit::fastforward

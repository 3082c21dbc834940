#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace tit::colls {
namespace {

// The recursive-doubling allgather after the scatter. What a rank receives is what its partner holds, so
// each rank's sizes depend on the others': the exchanges of all ranks are worked out together, in relative
// ranks, once per (size, bytes).
struct Exchange {
  enum Kind : std::uint8_t { SendRecv, Send, Recv } kind;
  int peer;      ///< relative rank
  double send;   ///< bytes sent
  double posted; ///< bytes of the receive posted (at least what arrives)
};

struct Plan {
  int n = 0;
  std::int64_t nbytes = -1;
  std::vector<std::vector<Exchange>> of; ///< per relative rank
};

Plan make_plan(int n, std::int64_t nbytes)
{
  Plan plan{n, nbytes, std::vector<std::vector<Exchange>>(static_cast<std::size_t>(n))};
  std::int64_t piece = (nbytes + n - 1) / n;
  std::vector<std::int64_t> held(static_cast<std::size_t>(n)); // curr_size: bytes held
  std::vector<std::int64_t> last(static_cast<std::size_t>(n), 0); // recv_size: bytes of the last receive
  for (int r = 0; r < n; ++r) {
    std::int64_t own = nbytes - r * piece;
    held[static_cast<std::size_t>(r)] = own < 0 ? 0 : (own > piece ? piece : own);
  }
  auto at = [](auto& v, int r) -> auto& { return v[static_cast<std::size_t>(r)]; };
  int step = 0;
  for (int mask = 1; mask < n; mask <<= 1, ++step) {
    std::vector<std::int64_t> got(static_cast<std::size_t>(n), -1);
    for (int r = 0; r < n; ++r) {
      int partner = r ^ mask;
      if (partner >= n)
        continue;
      std::int64_t offset = (partner >> step << step) * piece;
      std::int64_t posted = nbytes - offset < 0 ? 0 : nbytes - offset;
      at(plan.of, r).push_back({Exchange::SendRecv, partner, static_cast<double>(at(held, r)),
                                static_cast<double>(posted)});
      at(got, r) = at(held, partner);
    }
    for (int r = 0; r < n; ++r)
      if (at(got, r) >= 0) {
        at(last, r) = at(got, r);
        at(held, r) += at(got, r);
      }
    // Ranks whose partner subtree is cut off by n: those that have its data pass it on, by halving.
    int top_k = 0;
    while ((mask >> top_k) > 1)
      ++top_k;
    int k = top_k;
    for (int sub = mask >> 1; sub > 0; sub >>= 1, --k) {
      std::vector<std::int64_t> arriving(static_cast<std::size_t>(n), -1);
      for (int r = 0; r < n; ++r) {
        int my_root = r >> step << step;
        int partner_root = (r ^ mask) >> step << step;
        if (partner_root + mask <= n)
          continue;
        int completed = n - my_root - mask;
        int dst = r ^ sub;
        int tree_root = r >> k << k;
        std::int64_t offset = piece * (my_root + mask);
        if (dst > r && r < tree_root + completed && dst >= tree_root + completed) {
          at(plan.of, r).push_back({Exchange::Send, dst, static_cast<double>(at(last, r)), 0});
          if (dst < n)
            at(arriving, dst) = at(last, r);
        } else if (dst < r && dst < tree_root + completed && r >= tree_root + completed) {
          at(plan.of, r).push_back({Exchange::Recv, dst, 0, static_cast<double>(nbytes - offset)});
        }
      }
      for (int r = 0; r < n; ++r)
        if (at(arriving, r) >= 0) {
          at(last, r) = at(arriving, r);
          at(held, r) += at(arriving, r);
          for (auto& e : at(plan.of, r))
            if (e.kind == Exchange::Recv && e.posted <= 0) // a receive of no size: take the sender's
              e.posted = static_cast<double>(at(arriving, r));
        }
    }
  }
  return plan;
}

const Plan& plan_for(int n, std::int64_t nbytes)
{
  thread_local std::unique_ptr<Plan> cached; // every rank of one call asks for the same plan in turn
  if (not cached || cached->n != n || cached->nbytes != nbytes)
    cached = std::make_unique<Plan>(make_plan(n, nbytes));
  return *cached;
}

} // namespace

// MPICH's bcast for long messages (SimGrid's bcast-scatter-rdb-allgather.cpp): a binomial scatter of
// ceil(bytes / n)-byte pieces, then a recursive-doubling allgather (a sendrecv per step with the rank
// 2^i away, relative to the root) where, when n is not a power of two, the ranks that have a missing
// partner's data pass it on by recursive halving.
void bcast_scatter_rdb_allgather(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  std::int64_t nbytes = ompi::type_size(call) * ompi::element_count(call);
  if (n == 1 || nbytes == 0)
    return;
  int relative = (rank.rank() - call.root + n) % n;
  auto world = [&call, n](int r) { return (r + call.root) % n; };
  ompi::binomial_scatter(rank, n, relative, nbytes, kTagBcast, world);
  for (auto const& e : plan_for(n, nbytes).of[static_cast<std::size_t>(relative)]) {
    int peer = world(e.peer);
    if (e.kind == Exchange::SendRecv)
      rank.sendrecv(peer, e.send, peer, e.posted, kTagBcast);
    else if (e.kind == Exchange::Send)
      rank.send(peer, kTagBcast, e.send);
    else
      rank.recv(peer, kTagBcast, e.posted);
  }
}

} // namespace tit::colls

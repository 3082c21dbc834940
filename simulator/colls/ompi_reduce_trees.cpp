// The tree reduces of Open MPI's tuned module: a tree and a segment size each, over the generic segmented
// reduce (reduce-ompi.cpp).
#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

using ompi::element_count;
using ompi::segment_count;
using ompi::type_size;

void reduce_ompi_chain(mpi::PointToPoint& rank, const Call& call)
{
  std::int64_t count = element_count(call);
  auto tree = ompi::build_chain(call.size / 2, call.size, rank.rank(), call.root);
  ompi::tree_reduce(rank, tree, count, type_size(call), segment_count(64 * 1024, type_size(call), count));
}

void reduce_ompi_pipeline(mpi::PointToPoint& rank, const Call& call)
{
  std::int64_t count = element_count(call);
  auto message = static_cast<double>(type_size(call) * count);
  std::int64_t segsize = 64 * 1024;
  if (call.size > 0.0410 / 1024.0 * message + 9.7128)
    segsize = 1024;
  else if (call.size > 0.0033 / 1024.0 * message + 1.6761)
    segsize = 32 * 1024;
  auto tree = ompi::build_chain(1, call.size, rank.rank(), call.root);
  ompi::tree_reduce(rank, tree, count, type_size(call), segment_count(segsize, type_size(call), count));
}

void reduce_ompi_binary(mpi::PointToPoint& rank, const Call& call)
{
  std::int64_t count = element_count(call);
  auto tree = ompi::build_tree(2, call.size, rank.rank(), call.root);
  ompi::tree_reduce(rank, tree, count, type_size(call), segment_count(32 * 1024, type_size(call), count));
}

void reduce_ompi_binomial(mpi::PointToPoint& rank, const Call& call)
{
  std::int64_t count = element_count(call);
  std::int64_t message = type_size(call) * count;
  std::int64_t segsize = 0; // unsegmented unless the communicator is large for the message
  bool small = (call.size < 8 && message < 20480) || message < 2048 || count <= 1;
  if (not small && call.size > 0.6016 / 1024.0 * static_cast<double>(message) + 1.3496)
    segsize = 1024;
  auto tree = ompi::build_in_order_bmtree(call.size, rank.rank(), call.root);
  ompi::tree_reduce(rank, tree, count, type_size(call), segment_count(segsize, type_size(call), count));
}

// The in-order binary tree is rooted at size - 1, which then sends the result to the root.
void reduce_ompi_in_order_binary(mpi::PointToPoint& rank, const Call& call)
{
  std::int64_t count = element_count(call);
  int io_root = call.size - 1;
  auto tree = ompi::build_in_order_bintree(call.size, rank.rank());
  ompi::tree_reduce(rank, tree, count, type_size(call), count);
  if (io_root == call.root)
    return;
  if (rank.rank() == call.root)
    rank.recv(io_root, kTagReduce, call.bytes);
  else if (rank.rank() == io_root)
    rank.send(call.root, kTagReduce, call.bytes);
}

} // namespace tit::colls

// The communication trees of Open MPI's "tuned" collectives as SimGrid 3.32 builds them
// (colls/coll_tuned_topo.cpp), seen from one rank, and the segment arithmetic of those collectives.
#pragma once

#include "colls/colls.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace tit::colls::ompi {

/// One rank's place in a tree: its parent and its children, in the order the algorithms serve them.
struct Tree {
  int root = 0;          ///< the rank the tree was built for (the in-order binary tree: size - 1)
  int prev = -1;         ///< parent; -1 for none (a binomial tree's root is its own parent)
  std::vector<int> next; ///< children
};

/// k-ary tree, filled level by level in shifted ranks (rank - root): the children of shifted rank s at
/// level l are s + k^l, s + 2 k^l, ... (ompi_coll_tuned_topo_build_tree).
Tree build_tree(int fanout, int size, int rank, int root);
/// Binary tree rooted at size - 1 whose in-order traversal is the rank order (build_in_order_bintree).
Tree build_in_order_bintree(int size, int rank);
/// Binomial tree: children in increasing distance order, the parent last bit set (build_bmtree).
Tree build_bmtree(int size, int rank, int root);
/// Binomial tree whose children are visited nearest first (build_in_order_bmtree).
Tree build_in_order_bmtree(int size, int rank, int root);
/// `fanout` chains hanging from the root (build_chain); a fanout of 1 is a pipeline.
Tree build_chain(int fanout, int size, int rank, int root);

/// Elements per segment for segments of `segsize` bytes of `type_size`-byte elements
/// (COLL_TUNED_COMPUTED_SEGCOUNT): `count` (one segment) unless a segment holds at least one element
/// and fewer than `count`; the quotient is rounded to the nearest.
std::int64_t segment_count(std::int64_t segsize, std::int64_t type_size, std::int64_t count);

/// Open MPI's generic segmented reduce over `tree` (smpi_coll_tuned_ompi_reduce_generic, without a limit on
/// outstanding requests, as every SimGrid caller uses it): `count` elements of `type_size` bytes in segments
/// of `segcount` elements. Inner nodes receive each segment from each child in turn, overlapping the next
/// receive with the wait for the previous one, and forward a segment to their parent once it is complete;
/// leaves send their segments with blocking sends.
void tree_reduce(mpi::PointToPoint& rank, const Tree& tree, std::int64_t count, std::int64_t type_size,
                 std::int64_t segcount);

/// The binomial scatter of MPICH's scatter-allgather bcasts (scatter_for_bcast): `nbytes` cut into pieces of
/// ceil(nbytes / n) bytes, piece i for relative rank i. `rel` is this rank's rank relative to the root among
/// `n`, `peer(r)` the rank to address for relative rank r. A rank receives what its parent still holds beyond
/// its own part, posting a receive of everything from its offset on; it then forwards to its children, farthest
/// first, what they lack. Returns the bytes this rank holds afterwards, its piece included.
std::int64_t binomial_scatter(mpi::PointToPoint& rank, int n, int rel, std::int64_t nbytes, int tag,
                              const std::function<int(int)>& peer);
/// The bytes binomial_scatter leaves relative rank `rel` with, before it forwards any.
std::int64_t binomial_scatter_received(int n, int rel, std::int64_t nbytes);

/// Bytes of one element of `call`'s datatype (1 when the trace gives none or a derived type).
std::int64_t type_size(const Call& call);
/// Elements of `call`'s buffer.
std::int64_t element_count(const Call& call);

} // namespace tit::colls::ompi

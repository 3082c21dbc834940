#include "colls/ompi_tree.hpp"

#include <algorithm>
#include <cmath>

namespace tit::colls::ompi {
namespace {

constexpr int kMaxFanout = 32; // MAXTREEFANOUT

int power(int base, int exponent)
{
  if (exponent < 0)
    return 0;
  int p = 1;
  for (int i = 0; i < exponent; ++i)
    p *= base;
  return p;
}

// The level of shifted rank `s` in a k-ary tree filled level by level (level 0: the root).
int level_of(int fanout, int s)
{
  int level = 0;
  for (int nodes = 0; nodes <= s; ++level)
    nodes += power(fanout, level);
  return level - 1;
}

int shifted(int rank, int root, int size) { return rank - root < 0 ? rank - root + size : rank - root; }

} // namespace

Tree build_tree(int fanout, int size, int rank, int root)
{
  Tree t;
  t.root = root;
  if (fanout < 1 || fanout > kMaxFanout || size < 2)
    return t;
  int s = shifted(rank, root, size);
  int level = level_of(fanout, s);
  int delta = power(fanout, level);
  for (int i = 1; i <= fanout; ++i) {
    int child = s + delta * i;
    if (child >= size)
      break;
    t.next.push_back((child + root) % size);
  }
  // Up to the parent: step back by delta / fanout while above the nodes of the levels before this one.
  int above = fanout > 1 ? (power(fanout, level) - 1) / (fanout - 1) : 0;
  int parent = s;
  if (parent < fanout)
    parent = 0;
  else
    while (parent >= above)
      parent -= delta / fanout;
  t.prev = (parent + root) % size;
  return t;
}

Tree build_in_order_bintree(int size, int rank)
{
  Tree t;
  t.root = size - 1;
  // Descend from the whole range [0, size) rooted at its last rank: the right subtree holds the
  // size / 2 lowest ranks (rooted at its own last one), the left subtree the ranks in between.
  int me = rank;
  int n = size;
  int parent = size - 1;
  int offset = 0;
  while (true) {
    int right_size = n >> 1;
    int left = -1;
    int right = -1;
    if (n - 1 > 0) {
      left = parent - 1;
      if (left > 0)
        right = right_size - 1;
    }
    if (me == parent) {
      if (left >= 0)
        t.next.push_back(left + offset);
      if (right >= 0)
        t.next.push_back(right + offset);
      break;
    }
    if (me > right) { // left subtree: ranks right_size .. parent - 1
      if (me == left)
        t.prev = parent + offset;
      n = n - right_size - 1;
      offset += right_size;
      me -= right_size;
      parent = n - 1;
    } else { // right subtree: ranks 0 .. right_size - 1
      if (me == right)
        t.prev = parent + offset;
      n = right_size;
      parent = right;
    }
  }
  return t;
}

Tree build_bmtree(int size, int rank, int root)
{
  Tree t;
  t.root = root;
  int index = shifted(rank, root, size);
  int mask = 1;
  while (mask <= index)
    mask <<= 1;
  if (rank == root) {
    t.prev = root;
  } else {
    int remote = (index ^ (mask >> 1)) + root;
    t.prev = remote >= size ? remote - size : remote;
  }
  for (; mask < size; mask <<= 1) {
    int remote = index ^ mask;
    if (remote >= size)
      break;
    remote += root;
    t.next.push_back(remote >= size ? remote - size : remote);
  }
  return t;
}

Tree build_in_order_bmtree(int size, int rank, int root)
{
  Tree t;
  t.root = root;
  int v = (rank - root + size) % size;
  if (rank == root)
    t.prev = root;
  for (int mask = 1; mask < size; mask <<= 1) {
    int remote = v ^ mask;
    if (remote < v) {
      t.prev = (remote + root) % size;
      break;
    }
    if (remote < size)
      t.next.push_back((remote + root) % size);
  }
  return t;
}

Tree build_chain(int fanout, int size, int rank, int root)
{
  Tree t;
  t.root = root;
  fanout = std::clamp(fanout, 1, kMaxFanout);
  if (size - 1 < fanout)
    fanout = size - 1;
  int s = shifted(rank, root, size);
  if (fanout == 1) {
    t.prev = s == 0 ? -1 : (s - 1 + root) % size;
    if (s + 1 < size)
      t.next.push_back((s + 1 + root) % size);
    return t;
  }
  if (size == 1)
    return t;
  // Chains of `longest` ranks (the first `mark` of them; the others one shorter) in shifted ranks 1..size-1.
  int longest = (size - 1) / fanout;
  int mark = fanout + 1;
  if ((size - 1) % fanout != 0) {
    ++longest;
    mark = (size - 1) % fanout;
  }
  if (rank == root) {
    int child = (root + 1) % size;
    t.next.push_back(child);
    for (int i = 1; i < fanout; ++i) {
      child += longest;
      if (i > mark)
        --child;
      child %= size;
      t.next.push_back(child);
    }
    return t;
  }
  int head = 0;
  int length = 0;
  if (s - 1 < mark * longest) {
    head = 1 + (s - 1) / longest * longest;
    length = longest;
  } else {
    int column = mark + (s - 1 - mark * longest) / (longest - 1);
    head = mark * longest + 1 + (column - mark) * (longest - 1);
    length = longest - 1;
  }
  t.prev = ((s == head ? 0 : s - 1) + root) % size;
  if (s != head + length - 1 && s + 1 < size)
    t.next.push_back((s + 1 + root) % size);
  return t;
}

std::int64_t segment_count(std::int64_t segsize, std::int64_t type_size, std::int64_t count)
{
  if (segsize >= type_size && segsize < type_size * count) {
    std::int64_t n = segsize / type_size;
    if (segsize - n * type_size > (type_size >> 1))
      ++n;
    return n;
  }
  return count;
}

std::int64_t type_size(const Call& call)
{
  return call.datatype_size >= 1 ? static_cast<std::int64_t>(std::llround(call.datatype_size)) : 1;
}

std::int64_t element_count(const Call& call)
{
  return static_cast<std::int64_t>(std::llround(call.bytes / static_cast<double>(type_size(call))));
}

} // namespace tit::colls::ompi

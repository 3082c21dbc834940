// The bodies of a compressed part's rank structures grouped by place: the `stats` value mode (values/stats.cpp) pools
// the compute and sleep volumes of each group's actions. Internal to values/.
#pragma once

#include "compressed/common/format.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tit::trace::cformat {

/// The bodies of a part's rank structures grouped by *place*: bodies at the same place of rank structures of the same
/// shape (the same position of the same loop, down from the root) are one group. A structure's shape is its nodes with
/// the partners of its actions left out (an action by its signature's name, slot kinds and literals; a loop by its
/// trip count and its body's shape), so the rank structures of a stencil's boundary classes, which differ only by
/// their neighbours, have one shape, and their loop bodies are grouped place by place. A body found at several places
/// joins their groups (its schedules are its own, whatever place reaches it).
class BodyGroups {
public:
  explicit BodyGroups(const Part& p);

  /// The group of body `body`.
  std::uint32_t of(std::uint32_t body) { return find(body); }

private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  static constexpr std::uint64_t kRoot = ~std::uint64_t{0};
  /// Where a body is: the place of the body whose loop holds it and the loop's position there, or (kRoot, its shape)
  /// for a rank structure.
  using Place = std::pair<std::uint64_t, std::uint32_t>;

  template <typename Key> static std::uint32_t intern(std::map<Key, std::uint32_t>& ids, Key&& key);
  std::uint32_t shape(std::uint32_t body);
  /// Body `body` found at `place`: joins the group of the body found there first, then its loops' bodies, each at its
  /// own place (this place, the loop's position).
  void visit(std::uint32_t body, Place place, std::map<Place, std::uint32_t>& at);
  std::uint32_t find(std::uint32_t b)
  {
    while (parent_[b] != b)
      b = parent_[b] = parent_[parent_[b]];
    return b;
  }
  void unite(std::uint32_t a, std::uint32_t b);

  const Part& p_;
  std::vector<std::uint32_t> signature_;
  std::map<std::string, std::uint32_t> signature_ids_;
  std::vector<std::uint32_t> shape_;
  std::map<std::vector<std::uint64_t>, std::uint32_t> shape_ids_;
  std::map<Place, std::uint32_t> place_ids_;
  std::vector<std::uint32_t> parent_; ///< union-find over the bodies
};

} // namespace tit::trace::cformat

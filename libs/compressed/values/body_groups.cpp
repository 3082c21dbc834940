// The bodies of a part's rank structures grouped by place (body_groups.hpp): their shapes, and the union of the bodies
// found at each place.
#include "compressed/values/body_groups.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tit::trace::cformat {

template <typename Key> std::uint32_t BodyGroups::intern(std::map<Key, std::uint32_t>& ids, Key&& key)
{
  return ids.try_emplace(std::move(key), static_cast<std::uint32_t>(ids.size())).first->second;
}

BodyGroups::BodyGroups(const Part& p) : p_(p), shape_(p.bodies.size(), kNone), parent_(p.bodies.size())
{
  for (const Signature& s : p.signatures) {
    std::string key = s.name;
    for (const Slot& slot : s.slots) {
      key += static_cast<char>('0' + static_cast<int>(slot.kind));
      if (slot.kind == Slot::Kind::Literal)
        key += fmt::format("{}:{}", slot.literal.size(), slot.literal);
    }
    signature_.push_back(intern(signature_ids_, std::move(key)));
  }
  for (std::uint32_t b = 0; b < parent_.size(); ++b)
    parent_[b] = b;
  std::map<Place, std::uint32_t> at; // the first body found at each place
  std::vector<std::uint32_t> roots;
  for (const Part::RankPart& r : p.ranks)
    roots.push_back(r.root);
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  for (std::uint32_t root : roots)
    visit(root, {kRoot, shape(root)}, at);
}

std::uint32_t BodyGroups::shape(std::uint32_t body)
{
  if (shape_[body] != kNone)
    return shape_[body];
  std::vector<std::uint64_t> key;
  for (std::uint32_t id : p_.bodies[body]) {
    const Node& n = p_.nodes[id];
    if (n.loop) {
      key.push_back(std::uint64_t{shape(n.ref)} << 1 | 1);
      key.push_back(n.count);
    } else {
      key.push_back(std::uint64_t{signature_[n.ref]} << 1);
    }
  }
  return shape_[body] = intern(shape_ids_, std::move(key));
}

void BodyGroups::visit(std::uint32_t body, Place place, std::map<Place, std::uint32_t>& at)
{
  auto [it, first] = at.try_emplace(place, body);
  if (!first)
    unite(it->second, body);
  std::uint64_t id = intern(place_ids_, Place(place));
  const std::vector<std::uint32_t>& ids = p_.bodies[body];
  for (std::uint32_t pos = 0; pos < ids.size(); ++pos)
    if (p_.nodes[ids[pos]].loop)
      visit(p_.nodes[ids[pos]].ref, {id, pos}, at);
}

void BodyGroups::unite(std::uint32_t a, std::uint32_t b)
{
  a = find(a);
  b = find(b);
  if (a != b)
    parent_[std::max(a, b)] = std::min(a, b);
}

} // namespace tit::trace::cformat

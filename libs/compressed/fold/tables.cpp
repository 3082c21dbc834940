// The interned tables of a compressed trace being built: equal signatures, nodes and bodies get one id.
#include "compressed/fold/fold.hpp"
#include "compressed/common/bytes.hpp"

namespace tit::trace::cformat {

void Tables::key_begin(std::string& key, std::string_view name)
{
  ByteWriter w; // writes into `key`'s storage: no allocation once it has grown
  w.out() = std::move(key);
  w.out().clear();
  w.string(name);
  key = std::move(w.out());
}

void Tables::key_slot(std::string& key, Slot::Kind kind, std::string_view literal, std::int64_t offset)
{
  ByteWriter w;
  w.out() = std::move(key);
  w.byte(static_cast<std::uint8_t>(kind));
  w.string(literal);
  w.zigzag(offset);
  key = std::move(w.out());
}

std::int64_t Tables::find_signature(std::string_view key) const
{
  auto it = signature_ids_.find(key);
  return it == signature_ids_.end() ? -1 : static_cast<std::int64_t>(it->second);
}

std::uint32_t Tables::add_signature(std::string_view key, Signature&& s)
{
  auto [it, added] = signature_ids_.try_emplace(std::string(key), static_cast<std::uint32_t>(signatures_.size()));
  if (added)
    signatures_.push_back(std::move(s));
  return it->second;
}

std::uint32_t Tables::signature(Signature&& s)
{
  std::string key;
  key_begin(key, s.name);
  for (const Slot& slot : s.slots)
    key_slot(key, slot.kind, slot.literal, slot.offset);
  return add_signature(key, std::move(s));
}

std::uint32_t Tables::node(const Node& n)
{
  std::uint64_t key_a = (std::uint64_t{n.ref} << 1) | (n.loop ? 1 : 0);
  auto [it, added] = node_ids_.try_emplace({key_a, n.count}, static_cast<std::uint32_t>(nodes_.size()));
  if (added)
    nodes_.push_back(n);
  return it->second;
}

std::uint32_t Tables::body(std::vector<std::uint32_t>&& ids)
{
  auto it = body_ids_.find(ids);
  if (it != body_ids_.end())
    return it->second;
  auto id = static_cast<std::uint32_t>(bodies_.size());
  bodies_.push_back(ids);
  body_ids_.emplace(std::move(ids), id);
  return id;
}

std::uint32_t Tables::body_of(const std::vector<Node>& items)
{
  std::vector<std::uint32_t> ids;
  ids.reserve(items.size());
  for (const Node& n : items)
    ids.push_back(node(n));
  return body(std::move(ids));
}

void Tables::move_into(std::vector<Signature>& s, std::vector<Node>& n, std::vector<std::vector<std::uint32_t>>& b)
{
  s = std::move(signatures_);
  n = std::move(nodes_);
  b = std::move(bodies_);
  signature_ids_.clear();
  node_ids_.clear();
  body_ids_.clear();
}

} // namespace tit::trace::cformat

#include "replay/placement.hpp"

#include <charconv>
#include <fmt/core.h>
#include <fstream>
#include <map>
#include <optional>
#include <pugixml.hpp>

namespace tit::replay {
namespace {

std::optional<int> rank_of_function(const std::string& function)
{
  auto digits = function.find_first_of("0123456789");
  if (digits == std::string::npos || function.find_first_not_of("0123456789", digits) != std::string::npos)
    return std::nullopt;
  int rank = -1;
  auto [end, ec] = std::from_chars(function.data() + digits, function.data() + function.size(), rank);
  if (ec != std::errc())
    return std::nullopt;
  return rank;
}

} // namespace

Placement read_deployment(const std::filesystem::path& file)
{
  pugi::xml_document doc;
  auto result = doc.load_file(file.c_str());
  if (result.status == pugi::status_file_not_found)
    throw InputError(fmt::format("error: cannot open deployment '{}': no such file", file.string()));
  if (not result)
    throw InputError(fmt::format("{}: error: bad XML at byte {}: {}", file.string(), result.offset,
                                 result.description()));
  auto platform = doc.child("platform");
  if (not platform)
    throw InputError(fmt::format("{}: error: expected a <platform> root element with <actor> elements",
                                 file.string()));
  std::map<int, std::string> by_rank;
  for (auto node : platform.children()) {
    std::string tag = node.name();
    if (tag != "actor" && tag != "process")
      continue;
    std::string host = node.attribute("host").as_string();
    std::string function = node.attribute("function").as_string();
    if (host.empty())
      throw InputError(fmt::format("{}: error: <{} function=\"{}\"> has no host attribute", file.string(), tag,
                                   function));
    auto rank = rank_of_function(function);
    if (not rank)
      throw InputError(fmt::format("{}: error: <{} host=\"{}\" function=\"{}\">: the function must be the rank "
                                   "number (e.g. function=\"3\")",
                                   file.string(), tag, host, function));
    if (not by_rank.try_emplace(*rank, host).second)
      throw InputError(fmt::format("{}: error: rank {} is deployed twice (hosts '{}' and '{}')", file.string(), *rank,
                                   by_rank[*rank], host));
  }
  if (by_rank.empty())
    throw InputError(fmt::format("{}: error: no <actor host=\"...\" function=\"RANK\"/> element", file.string()));
  Placement p;
  p.source = file.string();
  int expected = 0;
  for (auto const& [rank, host] : by_rank) {
    if (rank != expected)
      throw InputError(fmt::format("{}: error: rank {} is not deployed (ranks must be 0..{})", file.string(),
                                   expected, by_rank.rbegin()->first));
    p.hosts.push_back(host);
    ++expected;
  }
  return p;
}

Placement read_hostfile(const std::filesystem::path& file, int ranks)
{
  if (ranks < 1)
    throw InputError(fmt::format("error: {} ranks to place on hostfile '{}': expected at least 1", ranks,
                                 file.string()));
  // Slots are kept as (host, count): a line "host:1000000000" must not unroll a billion names.
  std::ifstream in(file);
  if (not in)
    throw InputError(fmt::format("error: cannot open hostfile '{}'", file.string()));
  std::vector<std::pair<std::string, long long>> slots;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#')
      continue;
    auto last = line.find_last_not_of(" \t\r");
    std::string entry = line.substr(first, last - first + 1);
    int count = 1;
    if (auto colon = entry.find(':'); colon != std::string::npos) {
      std::string_view n(entry.data() + colon + 1, entry.size() - colon - 1);
      auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), count);
      if (ec != std::errc() || end != n.data() + n.size() || count < 1)
        throw InputError(fmt::format("{}:{}: error: expected 'host' or 'host:N' with N >= 1, got '{}'",
                                     file.string(), lineno, entry));
      entry.resize(colon);
    }
    if (entry.find_first_of(" \t") != std::string::npos)
      throw InputError(fmt::format("{}:{}: error: expected one host name per line, got '{}'", file.string(),
                                   lineno, entry));
    slots.emplace_back(entry, count);
  }
  if (slots.empty())
    throw InputError(fmt::format("{}: error: the hostfile lists no host", file.string()));
  Placement p;
  p.source = file.string();
  long long n = ranks;
  // Round-robin over the unrolled slots: rank r takes slot r mod total.
  p.hosts.reserve(static_cast<std::size_t>(n));
  for (long long r = 0; r < n;)
    for (auto it = slots.begin(); it != slots.end() && r < n; ++it)
      for (long long k = 0; k < it->second && r < n; ++k, ++r)
        p.hosts.push_back(it->first);
  return p;
}

} // namespace tit::replay

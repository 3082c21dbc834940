#include "analysis/report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>

namespace tit::analysis {

using json = nlohmann::ordered_json;

namespace {

constexpr const char* kSchema = "tit-replay analysis v1";

std::string model_name(DelayModel m)
{
  return m == DelayModel::Proportional ? "proportional" : "local-first";
}

std::string percent(double part, double whole)
{
  return whole > 0 ? fmt::format("{:5.1f}%", 100 * part / whole) : "    - ";
}

json breakdown_json(const Breakdown& b)
{
  json j;
  j["busy"] = b.busy;
  j["communication"] = b.communication;
  j["waiting"] = b.waiting;
  json patterns = json::object();
  for (auto const& [name, value] : b.by_pattern)
    patterns[name] = value;
  j["patterns"] = patterns;
  return j;
}

} // namespace

void write_text(std::ostream& out, const Result& res)
{
  std::size_t n = res.per_rank.size();
  double all = res.total.busy + res.total.communication + res.total.waiting;
  fmt::print(out, "\nWait-state analysis of the simulated run ({} ranks, {:.9g} s)\n", n, res.simulated_time);
  fmt::print(out, "  time summed over ranks    {:>14.9g} s\n", all);
  fmt::print(out, "    busy (computing)        {:>14.9g} s {}\n", res.total.busy, percent(res.total.busy, all));
  fmt::print(out, "    communication           {:>14.9g} s {}\n", res.total.communication,
             percent(res.total.communication, all));
  fmt::print(out, "    waiting                 {:>14.9g} s {}\n", res.total.waiting, percent(res.total.waiting, all));
  for (auto const& [name, value] : res.total.by_pattern)
    fmt::print(out, "      {:<22}{:>14.9g} s {}\n", name, value, percent(value, all));

  fmt::print(out, "\n  {:>5} {:<16} {:>13} {:>13} {:>13} {:>13}  {}\n", "rank", "host", "elapsed", "busy",
             "communication", "waiting", "largest wait state");
  for (std::size_t r = 0; r < n; ++r) {
    auto const& b = res.per_rank[r];
    std::string largest = "-";
    double best = 0;
    for (auto const& [name, value] : b.by_pattern)
      if (value > best) {
        best = value;
        largest = fmt::format("{} {:.6g} s", name, value);
      }
    fmt::print(out, "  {:>5} {:<16} {:>13.9g} {:>13.9g} {:>13.9g} {:>13.9g}  {}\n", r,
               r < res.hosts.size() ? res.hosts[r] : "", res.elapsed[r], b.busy, b.communication, b.waiting, largest);
  }

  fmt::print(out, "\n  {:<16} {:>13} {:>13} {:>13} {:>13}  (by action, summed over ranks)\n", "action", "busy",
             "communication", "waiting", "on crit. path");
  for (auto const& [name, b] : res.per_action) {
    auto it = res.path_by_action.find(name);
    fmt::print(out, "  {:<16} {:>13.9g} {:>13.9g} {:>13.9g} {:>13.9g}\n", name, b.busy, b.communication, b.waiting,
               it == res.path_by_action.end() ? 0.0 : it->second);
  }

  fmt::print(out, "\nCritical path: {:.9g} s\n", res.path_length);
  std::vector<std::pair<double, std::size_t>> on_path;
  for (std::size_t r = 0; r < res.path_by_rank.size(); ++r)
    if (res.path_by_rank[r] > 0)
      on_path.emplace_back(res.path_by_rank[r], r);
  std::sort(on_path.rbegin(), on_path.rend());
  for (auto const& [t, r] : on_path)
    fmt::print(out, "  rank {:<5} {:>14.9g} s {}\n", r, t, percent(t, res.path_length));

  fmt::print(out, "\nDelay costs ({} model): {:.9g} s of waiting traced back to the activities that caused it\n",
             model_name(res.model), res.total_cost);
  fmt::print(out, "  {:>5} {:<22} {:>14} {:>14}\n", "rank", "activity", "short-term", "long-term");
  std::vector<std::pair<double, std::pair<int, std::string>>> causes;
  for (auto const& [k, c] : res.cost_by_cause)
    causes.emplace_back(c.total(), k);
  std::sort(causes.begin(), causes.end(), [](auto const& x, auto const& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  std::size_t shown = 0;
  for (auto const& [total, k] : causes) {
    if (shown++ == 20) {
      fmt::print(out, "  ... {} more (see --analysis-json)\n", causes.size() - 20);
      break;
    }
    auto const& c = res.cost_by_cause.at(k);
    fmt::print(out, "  {:>5} {:<22} {:>14.9g} {:>14.9g}\n", k.first, k.second, c.short_term, c.long_term);
  }
}

void write_incomplete_json(std::ostream& out, const std::string& error)
{
  json j;
  j["schema"] = kSchema;
  j["complete"] = false;
  j["error"] = error;
  out << j.dump(1) << '\n';
}

void write_json(std::ostream& out, const Result& res)
{
  json j;
  j["schema"] = kSchema;
  j["simulated_time"] = res.simulated_time;
  j["total"] = breakdown_json(res.total);
  json ranks = json::array();
  for (std::size_t r = 0; r < res.per_rank.size(); ++r) {
    json e = breakdown_json(res.per_rank[r]);
    e["rank"] = r;
    e["host"] = r < res.hosts.size() ? res.hosts[r] : "";
    e["elapsed"] = res.elapsed[r];
    e["critical_path"] = r < res.path_by_rank.size() ? res.path_by_rank[r] : 0.0;
    e["delay_cost_short_term"] = r < res.cost_by_rank.size() ? res.cost_by_rank[r].short_term : 0.0;
    e["delay_cost_long_term"] = r < res.cost_by_rank.size() ? res.cost_by_rank[r].long_term : 0.0;
    ranks.push_back(e);
  }
  j["ranks"] = ranks;
  json actions = json::object();
  for (auto const& [name, b] : res.per_action) {
    json e = breakdown_json(b);
    auto it = res.path_by_action.find(name);
    e["critical_path"] = it == res.path_by_action.end() ? 0.0 : it->second;
    actions[name] = e;
  }
  j["actions"] = actions;
  j["critical_path"] = {{"length", res.path_length}};
  json causes = json::array();
  for (auto const& [k, c] : res.cost_by_cause)
    causes.push_back({{"rank", k.first}, {"activity", k.second}, {"short_term", c.short_term},
                      {"long_term", c.long_term}});
  j["delay_costs"] = {{"model", model_name(res.model)}, {"total", res.total_cost}, {"causes", causes}};
  out << j.dump(1) << '\n';
}

namespace {

json load(const std::string& path)
{
  std::ifstream in(path);
  if (not in)
    throw CompareError(fmt::format("{}: error: cannot read this analysis file", path));
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw CompareError(fmt::format("{}: error: not valid JSON: {}", path, e.what()));
  }
  if (not j.is_object() || j.value("schema", "") != kSchema)
    throw CompareError(fmt::format("{}: error: not a tit-replay analysis (expected \"schema\": \"{}\"; write one "
                                   "with tit-replay --analysis-json FILE)",
                                   path, kSchema));
  if (not j.value("complete", true)) {
    auto error = j.value("error", std::string());
    throw CompareError(fmt::format("{}: error: the replay that wrote this analysis stopped, so it holds none: {}",
                                   path, error.substr(0, error.find('\n'))));
  }
  return j;
}

double number(const json& j, const char* key, const std::string& path)
{
  auto it = j.find(key);
  if (it == j.end() || not it->is_number())
    throw CompareError(fmt::format("{}: error: field \"{}\" missing or not a number", path, key));
  return it->get<double>();
}

std::string signed_s(double v)
{
  return fmt::format("{:+.6g} s", v);
}

} // namespace

void compare(std::ostream& out, const std::string& a_path, const std::string& b_path)
{
  json a = load(a_path);
  json b = load(b_path);
  double ta = number(a, "simulated_time", a_path);
  double tb = number(b, "simulated_time", b_path);
  fmt::print(out, "prediction: {:.9g} s ({}) -> {:.9g} s ({}): {}", ta, a_path, tb, b_path, signed_s(tb - ta));
  if (ta > 0)
    fmt::print(out, " ({:+.2f}%)", 100 * (tb - ta) / ta);
  fmt::print(out, "\n");

  auto const& ra = a.at("ranks");
  auto const& rb = b.at("ranks");
  if (ra.size() != rb.size())
    fmt::print(out, "note: {} has {} ranks, {} has {}; per-rank changes compare the common ranks\n", a_path, ra.size(),
               b_path, rb.size());
  std::size_t common = std::min(ra.size(), rb.size());
  auto const& ta_total = a.at("total");
  auto const& tb_total = b.at("total");
  for (const char* part : {"busy", "communication", "waiting"})
    fmt::print(out, "  {:<24}{:>16} (summed over ranks)\n", part,
               signed_s(number(tb_total, part, b_path) - number(ta_total, part, a_path)));

  // Each waiting pattern: the change, and the ranks where it changed most.
  std::set<std::string> patterns;
  for (auto const* t : {&ta_total, &tb_total})
    for (auto const& [name, v] : t->at("patterns").items())
      patterns.insert(name);
  for (auto const& p : patterns) {
    double va = ta_total.at("patterns").value(p, 0.0);
    double vb = tb_total.at("patterns").value(p, 0.0);
    std::vector<std::pair<double, std::size_t>> changes;
    for (std::size_t r = 0; r < common; ++r) {
      double d = rb[r].at("patterns").value(p, 0.0) - ra[r].at("patterns").value(p, 0.0);
      if (d != 0)
        changes.emplace_back(d, r);
    }
    std::sort(changes.begin(), changes.end(),
              [](auto const& x, auto const& y) { return std::abs(x.first) > std::abs(y.first); });
    std::string ranks;
    for (std::size_t k = 0; k < changes.size() && k < 5; ++k)
      ranks += fmt::format("{}rank {} {}", k ? ", " : "", changes[k].second, signed_s(changes[k].first));
    if (changes.size() > 5)
      ranks += fmt::format(", ... ({} ranks)", changes.size());
    fmt::print(out, "    of which {:<15}{:>16}{}\n", p, signed_s(vb - va), ranks.empty() ? "" : " on " + ranks);
  }

  fmt::print(out, "critical path: {:.9g} s -> {:.9g} s: {}\n", number(a.at("critical_path"), "length", a_path),
             number(b.at("critical_path"), "length", b_path),
             signed_s(number(b.at("critical_path"), "length", b_path) - number(a.at("critical_path"), "length", a_path)));
  std::set<std::string> actions;
  for (auto const* j : {&a, &b})
    for (auto const& [name, v] : j->at("actions").items())
      actions.insert(name);
  for (auto const& name : actions) {
    double va = a.at("actions").contains(name) ? a.at("actions").at(name).value("critical_path", 0.0) : 0.0;
    double vb = b.at("actions").contains(name) ? b.at("actions").at(name).value("critical_path", 0.0) : 0.0;
    if (va != vb)
      fmt::print(out, "    {:<22}{:>16} on the path\n", name, signed_s(vb - va));
  }
}

} // namespace tit::analysis

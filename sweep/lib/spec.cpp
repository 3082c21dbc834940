#include "spec.hpp"

#include "units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <glob.h>
#include <yaml-cpp/yaml.h>

namespace fs = std::filesystem;

namespace tit::sweep {

fs::path Spec::resolve(const std::string& path) const
{
  fs::path p(path);
  return p.is_absolute() ? p : dir / p;
}

void check_against_platforms(const Spec& spec); // check.cpp

namespace {

int line_of(const YAML::Node& n)
{
  return n.Mark().line + 1;
}

[[noreturn]] void fail(const Spec& s, const YAML::Node& at, const std::string& what)
{
  throw InputError(fmt::format("{}: error: {}", s.where(line_of(at)), what));
}

std::string scalar(const Spec& s, const YAML::Node& n, const std::string& what)
{
  if (not n.IsScalar())
    fail(s, n, fmt::format("{} must be a single value", what));
  return n.Scalar();
}

void require_file(const Spec& s, const YAML::Node& at, const std::string& path, const std::string& what)
{
  std::error_code ec; // a name the system refuses (too long, ...) is a missing file, not an exception
  if (not fs::exists(s.resolve(path), ec))
    fail(s, at, fmt::format("{} '{}' does not exist (looked for {}){}", what, path, s.resolve(path).string(),
                            ec ? ": " + ec.message() : std::string()));
}

// A linear or geometric range of numbers that keep the unit written at both ends.
void expand_range(const Spec& s, const YAML::Node& n, Param& p)
{
  for (auto const& kv : n) {
    auto k = kv.first.Scalar();
    if (k != "from" && k != "to" && k != "steps" && k != "step" && k != "factor" && k != "scale")
      fail(s, kv.first, fmt::format("unknown range key '{}' (accepted: from, to, steps, step, factor, scale)", k));
  }
  if (not n["from"] || not n["to"])
    fail(s, n, "a range needs 'from' and 'to'");
  auto from_text = scalar(s, n["from"], "from");
  auto to_text = scalar(s, n["to"], "to");
  auto from = split_quantity(from_text);
  auto to = split_quantity(to_text);
  if (not from)
    fail(s, n["from"], fmt::format("'{}' is not a number", from_text));
  if (not to)
    fail(s, n["to"], fmt::format("'{}' is not a number", to_text));
  if (from->unit != to->unit)
    fail(s, n, fmt::format("a range keeps one unit: 'from' is in '{}', 'to' in '{}'", from->unit, to->unit));
  std::string scale = n["scale"] ? scalar(s, n["scale"], "scale") : (n["factor"] ? "geometric" : "linear");
  if (scale != "linear" && scale != "geometric")
    fail(s, n["scale"], fmt::format("unknown scale '{}' (accepted: linear, geometric)", scale));
  int given = (n["steps"] ? 1 : 0) + (n["step"] ? 1 : 0) + (n["factor"] ? 1 : 0);
  if (given != 1)
    fail(s, n, "a range needs exactly one of 'steps' (number of values), 'step' (linear) or 'factor' (geometric)");
  auto number = [&](const char* key) {
    auto text = scalar(s, n[key], key);
    auto q = split_quantity(text);
    if (not q || not q->unit.empty())
      fail(s, n[key], fmt::format("'{}' must be a plain number, not '{}'", key, text));
    return q->number;
  };
  double a = from->number, b = to->number;
  if (scale == "geometric" && (a <= 0 || b <= 0))
    fail(s, n, "a geometric range needs 'from' and 'to' above 0");
  std::vector<double> values;
  if (n["steps"]) {
    double steps = number("steps");
    if (steps != std::floor(steps) || steps < 0)
      fail(s, n["steps"], fmt::format("'steps' must be a whole number, not '{}'", n["steps"].Scalar()));
    auto count = static_cast<std::size_t>(steps);
    for (std::size_t i = 0; i < count; ++i) {
      double t = count == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(count - 1);
      values.push_back(i + 1 == count && count > 1 ? b : scale == "linear" ? a + (b - a) * t : a * std::pow(b / a, t));
    }
  } else if (n["step"]) {
    if (scale != "linear")
      fail(s, n["step"], "'step' makes a linear range; use 'factor' for a geometric one");
    double step = number("step");
    if (step == 0)
      fail(s, n["step"], "'step' must not be 0");
    double slack = std::abs(step) * 1e-9;
    for (std::size_t i = 0; i < 1000000; ++i) {
      double v = a + step * static_cast<double>(i);
      if ((step > 0 && v > b + slack) || (step < 0 && v < b - slack))
        break;
      values.push_back(v);
    }
  } else {
    double factor = number("factor");
    if (factor <= 0 || factor == 1)
      fail(s, n["factor"], "'factor' must be above 0 and other than 1");
    double v = a;
    for (std::size_t i = 0; i < 1000000; ++i, v *= factor) {
      if ((factor > 1 && v > b * (1 + 1e-9)) || (factor < 1 && v < b * (1 - 1e-9)))
        break;
      values.push_back(v);
    }
  }
  if (values.empty())
    fail(s, n, fmt::format("empty range: from {} to {} gives no value", from_text, to_text));
  for (double v : values) {
    p.values.push_back(fmt::format("{}{}", v, from->unit));
    p.value_lines.push_back(line_of(n));
  }
}

// Orders names with their numbers by value: halo4 < halo8 < halo16.
bool natural_less(const std::string& a, const std::string& b)
{
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2])))
        ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2])))
        ++j2;
      auto x = a.substr(i, i2 - i), y = b.substr(j, j2 - j);
      x.erase(0, std::min(x.find_first_not_of('0'), x.size()));
      y.erase(0, std::min(y.find_first_not_of('0'), y.size()));
      if (x.size() != y.size())
        return x.size() < y.size();
      if (x != y)
        return x < y;
      i = i2;
      j = j2;
    } else {
      if (a[i] != b[j])
        return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// A set of files: a list of paths or {glob: PATTERN} (matches in natural order: halo4 before halo16).
void expand_glob(const Spec& s, const YAML::Node& n, Param& p)
{
  std::string pattern = scalar(s, n["glob"], "glob");
  glob_t g{};
  std::string full = s.resolve(pattern).string();
  int rc = ::glob(full.c_str(), GLOB_MARK, nullptr, &g);
  std::vector<std::string> found;
  for (std::size_t i = 0; rc == 0 && i < g.gl_pathc; ++i)
    found.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  if (found.empty())
    fail(s, n["glob"], fmt::format("'{}' matches no file (looked for {})", pattern, full));
  std::sort(found.begin(), found.end(), natural_less);
  for (auto const& f : found) {
    // Keep the paths relative to the sweep file, as the user wrote the pattern.
    auto rel = fs::path(pattern).is_absolute() ? f : fs::path(f).lexically_relative(s.dir).string();
    if (f.back() == '/' && rel.back() != '/')
      rel += '/';
    p.values.push_back(rel);
    p.value_lines.push_back(line_of(n["glob"]));
  }
}

Param read_param(const Spec& s, const YAML::Node& key, const YAML::Node& values)
{
  Param p;
  p.key = scalar(s, key, "a vary key");
  p.line = line_of(key);
  if (p.key.rfind("cfg:", 0) == 0) {
    p.kind = ParamKind::cfg;
    p.cfg_name = p.key.substr(4);
    if (p.cfg_name.empty())
      fail(s, key, "'cfg:' needs a parameter name, e.g. cfg:smpi/os");
  } else if (p.key == "traces") {
    p.kind = ParamKind::traces;
  } else if (p.key == "platform") {
    p.kind = ParamKind::platform;
  } else if (p.key == "hostfile") {
    p.kind = ParamKind::hostfile;
  } else if (p.key == "deployment") {
    p.kind = ParamKind::deployment;
  } else if (is_selector(p.key)) {
    p.kind = ParamKind::attribute;
    try {
      p.selector = parse_selector(p.key);
    } catch (const std::invalid_argument& e) {
      fail(s, key, fmt::format("bad selector '{}': {}", p.key, e.what()));
    }
  } else {
    fail(s, key, fmt::format("unknown vary key '{}' (accepted: ELEMENT[attr=value]@ATTRIBUTE, ID@ATTRIBUTE, cfg:NAME, "
                             "traces, platform, hostfile, deployment)",
                             p.key));
  }
  bool files = p.kind == ParamKind::traces || p.kind == ParamKind::platform || p.kind == ParamKind::hostfile ||
               p.kind == ParamKind::deployment;
  if (values.IsSequence()) {
    if (values.size() == 0)
      fail(s, values, fmt::format("'{}' has an empty list of values", p.key));
    for (auto const& v : values) {
      p.values.push_back(scalar(s, v, "each value"));
      p.value_lines.push_back(line_of(v));
      if (files)
        require_file(s, v, p.values.back(), p.key);
    }
  } else if (values.IsMap() && values["glob"]) {
    if (not files)
      fail(s, values, fmt::format("'{}' is no file parameter: a glob only names traces, platforms, hostfiles or "
                                  "deployments", p.key));
    expand_glob(s, values, p);
  } else if (values.IsMap()) {
    if (files)
      fail(s, values, fmt::format("'{}' takes a list of files or {{glob: PATTERN}}", p.key));
    expand_range(s, values, p);
  } else {
    fail(s, values, fmt::format("'{}' needs a list [a, b, ...], a range {{from: A, to: B, steps: N}} or "
                                "{{glob: PATTERN}}", p.key));
  }
  return p;
}

void read_base(Spec& s, const YAML::Node& root)
{
  static const std::vector<std::string> accepted{"platform", "hostfile", "deployment", "traces", "cfg",
                                                 "args",     "vary",     "zip",        "sample"};
  for (auto const& kv : root) {
    auto k = kv.first.Scalar();
    if (std::find(accepted.begin(), accepted.end(), k) == accepted.end())
      fail(s, kv.first, fmt::format("unknown key '{}' (accepted: {})", k, fmt::join(accepted, ", ")));
  }
  for (auto [name, field] : {std::pair{"platform", &s.platform}, std::pair{"hostfile", &s.hostfile},
                             std::pair{"deployment", &s.deployment}, std::pair{"traces", &s.traces}})
    if (root[name]) {
      *field = scalar(s, root[name], name);
      require_file(s, root[name], *field, name);
    }
  if (root["cfg"]) {
    if (not root["cfg"].IsMap())
      fail(s, root["cfg"], "'cfg' must be a map {name: value, ...}");
    for (auto const& kv : root["cfg"])
      s.cfg.emplace_back(scalar(s, kv.first, "a cfg name"), scalar(s, kv.second, "a cfg value"));
  }
  if (root["args"]) {
    if (not root["args"].IsSequence())
      fail(s, root["args"], "'args' must be a list of tit-replay options");
    for (auto const& a : root["args"])
      s.args.push_back(scalar(s, a, "each of 'args'"));
  }
}

void read_zip_and_sample(Spec& s, const YAML::Node& root)
{
  if (auto zip = root["zip"]) {
    if (not zip.IsSequence())
      fail(s, zip, "'zip' must be a list of lists of vary keys");
    std::vector<bool> used(s.params.size(), false);
    for (auto const& group : zip) {
      if (not group.IsSequence() || group.size() < 2)
        fail(s, group, "each zip group must be a list of at least two vary keys");
      std::vector<std::size_t> g;
      for (auto const& k : group) {
        auto key = scalar(s, k, "a zip key");
        auto it = std::find_if(s.params.begin(), s.params.end(), [&](const Param& p) { return p.key == key; });
        if (it == s.params.end())
          fail(s, k, fmt::format("zip names '{}', which is not a key of 'vary'", key));
        auto i = static_cast<std::size_t>(it - s.params.begin());
        if (used[i])
          fail(s, k, fmt::format("'{}' is in two zip groups", key));
        used[i] = true;
        if (not g.empty() && s.params[i].values.size() != s.params[g.front()].values.size())
          fail(s, k, fmt::format("zipped keys need as many values: '{}' has {}, '{}' has {}", key,
                                 s.params[i].values.size(), s.params[g.front()].key, s.params[g.front()].values.size()));
        g.push_back(i);
      }
      s.zip.push_back(g);
    }
  }
  if (auto sample = root["sample"]) {
    s.sample_line = line_of(sample);
    if (not sample.IsMap() || not sample["points"])
      fail(s, sample, "'sample' must be {points: N, seed: S}");
    auto n = split_quantity(scalar(s, sample["points"], "points"));
    if (not n || not n->unit.empty() || n->number < 1 || n->number != std::floor(n->number))
      fail(s, sample["points"], "'points' must be a whole number of at least 1");
    s.sample_points = static_cast<std::size_t>(n->number);
    if (sample["seed"]) {
      auto seed = split_quantity(scalar(s, sample["seed"], "seed"));
      if (not seed || not seed->unit.empty() || seed->number < 0 || seed->number != std::floor(seed->number))
        fail(s, sample["seed"], "'seed' must be a whole number");
      s.sample_seed = static_cast<unsigned long long>(seed->number);
    }
  }
}

} // namespace

Spec load_spec(const fs::path& file)
{
  Spec s;
  s.file = file;
  s.dir = fs::absolute(file).parent_path();
  YAML::Node root;
  try {
    root = YAML::LoadFile(file.string());
  } catch (const YAML::BadFile&) {
    throw InputError(fmt::format("{}: error: cannot read the sweep file", file.string()));
  } catch (const YAML::ParserException& e) {
    throw InputError(fmt::format("{}: error: not valid YAML: {}", s.where(e.mark.line + 1), e.msg));
  }
  try {
    if (not root.IsMap())
      throw InputError(fmt::format("{}: error: a sweep file is a map (platform:, traces:, vary:, ...)", s.where(1)));
    read_base(s, root);
    if (auto vary = root["vary"]) {
      if (not vary.IsMap())
        fail(s, vary, "'vary' must be a map {KEY: values, ...}");
      for (auto const& kv : vary)
        s.params.push_back(read_param(s, kv.first, kv.second));
    }
    auto varies = [&](ParamKind k) {
      return std::any_of(s.params.begin(), s.params.end(), [&](const Param& p) { return p.kind == k; });
    };
    if (s.platform.empty() && not varies(ParamKind::platform))
      fail(s, root, "no 'platform' (the SimGrid platform file, relative to the sweep file)");
    if (s.traces.empty() && not varies(ParamKind::traces))
      fail(s, root, "no 'traces' (a trace directory, list or merged file)");
    bool hosts = not s.hostfile.empty() || varies(ParamKind::hostfile);
    bool deploy = not s.deployment.empty() || varies(ParamKind::deployment);
    if (hosts == deploy)
      fail(s, root, "give either 'hostfile' or 'deployment' (one of the two)");
    read_zip_and_sample(s, root);
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: error: {}", s.where(e.mark.line + 1), e.msg));
  }
  check_against_platforms(s);
  return s;
}

} // namespace tit::sweep

#include "plan.hpp"

#include <algorithm>

#include "result.hpp"

#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace tit::sweep {

namespace {

constexpr const char* kManifestSchema = "tit-sweep manifest v1";

std::string value_of(const Spec& spec, const Point& p, ParamKind kind, const std::string& base)
{
  for (std::size_t i = 0; i < spec.params.size(); ++i)
    if (spec.params[i].kind == kind)
      return p.values[i];
  return base;
}

std::string absolute(const Spec& spec, const std::string& path)
{
  if (path.empty())
    return path;
  auto abs = fs::absolute(spec.resolve(path)).lexically_normal().string();
  if (path.back() == '/' && abs.back() != '/')
    abs += '/';
  return abs;
}

// The platform of a point: the base (or varied) file with its attributes set, written into the point's
// folder when any attribute varies.
std::string point_platform(const Spec& spec, const Point& p, const fs::path& dir, bool write)
{
  std::string base = absolute(spec, value_of(spec, p, ParamKind::platform, spec.platform));
  bool edits = false;
  for (auto const& param : spec.params)
    edits = edits || param.kind == ParamKind::attribute;
  if (not edits)
    return base;
  auto variant = (dir / "platform.xml").string();
  if (not write)
    return variant;
  pugi::xml_document doc;
  if (not doc.load_file(base.c_str(), pugi::parse_full))
    throw InputError(fmt::format("{}: error: cannot read this platform", base));
  for (std::size_t i = 0; i < spec.params.size(); ++i)
    if (spec.params[i].kind == ParamKind::attribute)
      for (auto e : select(doc, spec.params[i].selector)) {
        auto attr = e.attribute(spec.params[i].selector.attribute.c_str());
        if (not attr)
          attr = e.append_attribute(spec.params[i].selector.attribute.c_str());
        attr.set_value(p.values[i].c_str());
      }
  if (not doc.save_file(variant.c_str(), "  "))
    throw std::runtime_error(fmt::format("{}: cannot write the platform variant", variant));
  return variant;
}

std::vector<std::string> command(const Spec& spec, const Point& p, const fs::path& dir, const std::string& tit_replay,
                                 bool write)
{
  std::vector<std::string> argv{tit_replay};
  for (auto const& [name, value] : spec.cfg)
    argv.push_back(fmt::format("--cfg={}:{}", name, value));
  for (std::size_t i = 0; i < spec.params.size(); ++i)
    if (spec.params[i].kind == ParamKind::cfg)
      argv.push_back(fmt::format("--cfg={}:{}", spec.params[i].cfg_name, p.values[i]));
  argv.insert(argv.end(), spec.args.begin(), spec.args.end());
  std::string hostfile = absolute(spec, value_of(spec, p, ParamKind::hostfile, spec.hostfile));
  if (not hostfile.empty()) {
    argv.push_back("--hostfile");
    argv.push_back(hostfile);
  }
  // The prediction and the per-rank figures come from the analysis; a fast-forwarded prediction has no per-rank
  // figures and no analysis: its time is read from the summary (result.cpp).
  bool fast_forward = std::any_of(spec.args.begin(), spec.args.end(),
                                  [](std::string const& a) { return a.rfind("--fast-forward", 0) == 0; });
  if (not fast_forward) {
    argv.push_back("--analysis-json");
    argv.push_back((dir / "analysis.json").string());
  }
  argv.push_back(point_platform(spec, p, dir, write));
  std::string deployment = absolute(spec, value_of(spec, p, ParamKind::deployment, spec.deployment));
  if (not deployment.empty())
    argv.push_back(deployment);
  argv.push_back(absolute(spec, value_of(spec, p, ParamKind::traces, spec.traces)));
  return argv;
}

json to_json(const Plan& plan)
{
  json j;
  j["schema"] = kManifestSchema;
  j["sweep"] = plan.sweep_file;
  j["keys"] = plan.keys;
  json points = json::array();
  for (auto const& p : plan.points)
    points.push_back({{"index", p.index}, {"values", p.values}, {"dir", p.dir.string()}, {"argv", p.argv}});
  j["points"] = points;
  return j;
}

Plan from_json(const json& j, const fs::path& out)
{
  Plan plan;
  plan.out = out;
  plan.sweep_file = j.at("sweep").get<std::string>();
  plan.keys = j.at("keys").get<std::vector<std::string>>();
  for (auto const& e : j.at("points"))
    plan.points.push_back({e.at("index").get<std::size_t>(), e.at("values").get<std::vector<std::string>>(),
                           e.at("dir").get<std::string>(), e.at("argv").get<std::vector<std::string>>()});
  return plan;
}

} // namespace

Plan read_plan(const fs::path& out_dir)
{
  auto out = fs::absolute(out_dir).lexically_normal();
  auto file = out / "manifest.json";
  std::ifstream in(file);
  if (not in)
    throw InputError(fmt::format("{}: error: no sweep here (run 'tit-sweep run SWEEP.yaml --out {}' first)",
                                 file.string(), out_dir.string()));
  try {
    json j = json::parse(in);
    if (j.value("schema", "") != kManifestSchema)
      throw InputError(fmt::format("{}: error: not a tit-sweep manifest (expected \"schema\": \"{}\")", file.string(),
                                   kManifestSchema));
    return from_json(j, out);
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: error: unreadable manifest: {}", file.string(), e.what()));
  }
}

Plan write_plan(const Spec& spec, const std::vector<Point>& points, const fs::path& out_dir,
                const std::string& tit_replay)
{
  Plan plan;
  plan.out = fs::absolute(out_dir).lexically_normal();
  plan.sweep_file = fs::absolute(spec.file).lexically_normal().string();
  for (auto const& p : spec.params)
    plan.keys.push_back(p.key);
  auto manifest = plan.out / "manifest.json";
  if (fs::exists(manifest)) {
    Plan old = read_plan(plan.out);
    bool same = old.keys == plan.keys && old.points.size() == points.size();
    for (std::size_t i = 0; same && i < points.size(); ++i)
      same = old.points[i].values == points[i].values;
    if (not same)
      throw InputError(fmt::format("{}: error: {} holds another sweep (other keys or points); choose another --out",
                                   manifest.string(), out_dir.string()));
  }
  fs::create_directories(plan.out / "points");
  for (auto const& p : points) {
    auto dir = plan.out / "points" / fmt::format("{:06}", p.index);
    fs::create_directories(dir);
    bool pending = not read_result(dir).present;
    plan.points.push_back({p.index, p.values, dir, command(spec, p, dir, tit_replay, pending)});
  }
  auto tmp = manifest.string() + ".tmp";
  {
    std::ofstream o(tmp);
    o << to_json(plan).dump(1) << '\n';
    if (not o)
      throw std::runtime_error(fmt::format("{}: cannot write the manifest", tmp));
  }
  fs::rename(tmp, manifest);
  return plan;
}

} // namespace tit::sweep

// Checks the attribute parameters of a sweep against its platform file(s), before anything runs: the
// selector must match, the attribute must exist on the elements matched, every value must carry a
// unit SimGrid accepts for that attribute.
#include "spec.hpp"
#include "units.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <pugixml.hpp>

namespace tit::sweep {

namespace {

std::vector<std::string> platform_files(const Spec& s)
{
  for (auto const& p : s.params)
    if (p.kind == ParamKind::platform)
      return p.values;
  return {s.platform};
}

void check_attribute(const Spec& s, const Param& p, const std::string& platform_name, const pugi::xml_document& doc)
{
  auto elements = select(doc, p.selector);
  if (elements.empty())
    throw InputError(fmt::format("{}: error: selector '{}' matches no element of {}", s.where(p.line), p.key,
                                 platform_name));
  for (auto const& e : elements) {
    auto const& known = known_attributes(e.name());
    bool ok = known.empty() ? static_cast<bool>(e.attribute(p.selector.attribute.c_str()))
                            : std::find(known.begin(), known.end(), p.selector.attribute) != known.end();
    if (not ok) {
      std::string accepted;
      if (known.empty())
        for (auto a : e.attributes())
          accepted += (accepted.empty() ? "" : ", ") + std::string(a.name());
      else
        accepted = fmt::format("{}", fmt::join(known, ", "));
      throw InputError(fmt::format("{}: error: '{}': a <{}> has no attribute '{}' (its attributes: {}) in {}",
                                   s.where(p.line), p.key, e.name(), p.selector.attribute, accepted, platform_name));
    }
  }
  UnitKind kind = unit_kind_of_attribute(p.selector.attribute);
  for (std::size_t i = 0; i < p.values.size(); ++i) {
    auto err = check_value(kind, p.values[i]);
    if (not err.empty())
      throw InputError(fmt::format("{}: error: '{}': {}", s.where(p.value_lines[i]), p.key, err));
  }
}

} // namespace

void check_against_platforms(const Spec& s)
{
  bool any = std::any_of(s.params.begin(), s.params.end(), [](const Param& p) { return p.kind == ParamKind::attribute; });
  if (not any)
    return;
  for (auto const& name : platform_files(s)) {
    pugi::xml_document doc;
    auto path = s.resolve(name);
    auto res = doc.load_file(path.c_str());
    if (not res)
      throw InputError(fmt::format("{}: error: platform {} is not valid XML: {} (at byte {})", s.where(1), path.string(),
                                   res.description(), res.offset));
    for (auto const& p : s.params)
      if (p.kind == ParamKind::attribute)
        check_attribute(s, p, name, doc);
  }
}

} // namespace tit::sweep

#pragma once
// Selectors of platform elements and one of their attributes, as written in a sweep file's `vary`:
//   link[id=backbone]@bandwidth   elements of a type whose attributes match
//   host@speed                    every element of a type
//   l1@bandwidth                  an element id (a bare name that is no element type of the
//                                 platform; `backbone@bandwidth` names <backbone> elements if the
//                                 platform has some, else the element whose id is backbone)
#include <pugixml.hpp>
#include <string>
#include <utility>
#include <vector>

namespace tit::sweep {

struct Selector {
  std::string element;                                     // element type; empty: any type, matched by id
  std::vector<std::pair<std::string, std::string>> where;  // [attr=value] conditions
  std::string attribute;                                   // the attribute set
  std::string bare;  // the name when written without [..]: an element type, or else an id
};

// Whether a `vary` key is an element selector (it names an attribute after '@').
bool is_selector(const std::string& key);
// Parses a selector; throws std::invalid_argument with what is wrong.
Selector parse_selector(const std::string& key);

// The elements of a platform the selector names (document order).
std::vector<pugi::xml_node> select(const pugi::xml_document& platform, const Selector& s);

// Attributes SimGrid's platform DTD (4.1) accepts on an element type; empty for unknown types.
const std::vector<std::string>& known_attributes(const std::string& element);

} // namespace tit::sweep

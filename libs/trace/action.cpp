// The datatype the writer uses for a size (the tables are constexpr, in action.hpp).
#include "trace/action.hpp"

#include <array>
#include <cstddef>

namespace tit::trace {

std::optional<int> datatype_id_of_size(int size)
{
  if (size == 0)
    return -1;
  if (size == 1)
    return kByteDatatype;
  for (std::size_t id = 0; id < detail::kDatatypeSizes.size(); ++id)
    if (detail::kDatatypeSizes[id] == size)
      return static_cast<int>(id);
  return std::nullopt;
}

} // namespace tit::trace

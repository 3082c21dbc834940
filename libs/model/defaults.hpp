// SimGrid 3.32's defaults of the model parameters that SimGrid-free code needs too (tit-trace proxy's deadlock
// check). The simulator's parameters (simulator/model/params.hpp) start from them.
#pragma once

namespace tit::model {

/// SimGrid 3.32's default of smpi/send-is-detached-thresh (bytes), the model's eager/rendez-vous boundary.
inline constexpr double kDefaultDetachedThresh = 65536;

} // namespace tit::model

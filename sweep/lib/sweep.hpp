#pragma once
// tit-sweep's library: the sweep file (spec), its points, the plan in the output folder, the runners
// (local processes, Slurm job arrays) and the results CSV. See sweep/README.md.
#include "collect.hpp"
#include "local.hpp"
#include "plan.hpp"
#include "points.hpp"
#include "result.hpp"
#include "slurm.hpp"
#include "spec.hpp"

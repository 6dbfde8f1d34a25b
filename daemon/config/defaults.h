// The defaults of every key, as CONFIG.md shows them (paths still relative).
#pragma once

#include "config/config.h"

namespace mnemo::config {

Config default_config();

}  // namespace mnemo::config

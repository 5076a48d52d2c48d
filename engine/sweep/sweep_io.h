// Sweep results as CSV and JSON (the JSON opens in the app's Bench view), and loading them back.
#pragma once

#include <ostream>
#include <string>

#include "sweep/transfer_sweep.h"
#include "trace/load_progress.h"

namespace ds {

void write_sweep_csv(const SweepResult& result, std::ostream& out);
void write_sweep_json(const SweepResult& result, std::ostream& out);
// Raises ValueError "<path>: not a DeviceScope bench file: ..." for anything else, truncated, corrupt
// or holding impossible values (negative bytes or timings), RuntimeError "cannot read <path>: ..."
// when the path is not a readable regular file. `progress` (optional): see trace/load_progress.h.
SweepResult load_sweep_json(const std::string& path, LoadProgress* progress = nullptr);

}  // namespace ds

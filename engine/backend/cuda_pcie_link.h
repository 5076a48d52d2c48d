// What bus a real GPU sits on (PCIe generation/width from Linux sysfs, or NVLink-C2C on Grace
// Hopper) and which link profile draws its nominal line. Only compiled with the CUDA toolkit.
#pragma once

#include <string>

namespace ds {

struct NominalLink {
  std::string bus;      // "PCIe Gen5 x16", "NVLink-C2C", "PCIe (generation unknown)"
  std::string profile;  // link profile name: "pcie4-x16", "pcie5-x16", "nvlink-c2c"
};

NominalLink nominal_link(int device, const std::string& device_name);

// Pure part, for tests: sysfs speed text ("32.0 GT/s PCIe") -> PCIe generation (0 when unknown).
int pcie_generation(const std::string& speed_text);

}  // namespace ds

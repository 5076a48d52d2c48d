// Finds a real GPU's bus: cudaDeviceGetPCIBusId, then the link speed/width Linux reports in sysfs.
#include "backend/cuda_pcie_link.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace ds {

namespace {

std::string read_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return s;
}

}  // namespace

int pcie_generation(const std::string& speed_text) {
  const double gts = std::atof(speed_text.c_str());
  if (gts >= 60) return 6;
  if (gts >= 30) return 5;
  if (gts >= 15) return 4;
  if (gts >= 7.5) return 3;
  if (gts >= 4.5) return 2;
  if (gts >= 2) return 1;
  return 0;
}

NominalLink nominal_link(int device, const std::string& device_name) {
  // Grace Hopper: the GPU's host link is NVLink-C2C, whatever PCIe enumeration says.
  if (device_name.find("GH200") != std::string::npos) return {"NVLink-C2C", "nvlink-c2c"};

  int gen = 0, width = 0;
  char bus_id[64] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) == cudaSuccess) {
    std::string id(bus_id);
    std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::error_code ec;
    const auto dev = std::filesystem::canonical("/sys/bus/pci/devices/" + id, ec);
    if (!ec) {
      // Idle GPUs train their link down, so use the maximum speed the GPU and its upstream port
      // both support, i.e. what a copy gets under load.
      gen = pcie_generation(read_line(dev / "max_link_speed"));
      const int up = pcie_generation(read_line(dev.parent_path() / "max_link_speed"));
      if (up > 0 && (gen == 0 || up < gen)) gen = up;
      width = std::atoi(read_line(dev / "current_link_width").c_str());
      if (width == 0) width = std::atoi(read_line(dev / "max_link_width").c_str());
    }
  } else {
    cudaGetLastError();
  }
  const bool hopper_class = device_name.find("H100") != std::string::npos ||
                            device_name.find("H200") != std::string::npos ||
                            device_name.find("H800") != std::string::npos;
  NominalLink l;
  l.bus = gen > 0 ? "PCIe Gen" + std::to_string(gen) + (width > 0 ? " x" + std::to_string(width) : "")
                  : "PCIe (generation unknown)";
  l.profile = gen >= 5 || (gen == 0 && hopper_class) ? "pcie5-x16" : "pcie4-x16";
  return l;
}

}  // namespace ds

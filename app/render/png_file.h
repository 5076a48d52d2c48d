// Writing RGBA pixels as a PNG (stb_image_write from Debian's libstb), atomically: temp file + rename.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ds::render {

// Raises ds::Error (RuntimeError "cannot write <path>: ...") when the file cannot be written.
void write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace ds::render

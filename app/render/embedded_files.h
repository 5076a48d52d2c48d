// Text files compiled into the binary (GLSL from shaders/, assets/starter.py); see embed_files.cmake.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ds::render {

struct EmbeddedFile {
  const char* name;     // file name without folder: "memory_blocks.vert"
  const char* content;
};

const std::vector<EmbeddedFile>& embedded_files();

// The content of an embedded file, or "" when there is none by that name.
inline std::string_view embedded_file(std::string_view name) {
  for (const EmbeddedFile& f : embedded_files())
    if (name == f.name) return f.content;
  return {};
}

}  // namespace ds::render

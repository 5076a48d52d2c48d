// PNG encoding into memory, then one atomic write.
#include "render/png_file.h"

#include <stb_image_write.h>

#include "core/errors.h"
#include "trace/atomic_file.h"

namespace ds::render {

void write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba) {
  std::string bytes;
  auto sink = [](void* ctx, void* data, int size) { static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), size_t(size)); };
  if (!stbi_write_png_to_func(sink, &bytes, width, height, 4, rgba.data(), width * 4))
    raise(ErrorKind::RuntimeError, "cannot encode the screenshot as PNG");
  write_file_atomically(path, [&](std::ostream& out) { out.write(bytes.data(), std::streamsize(bytes.size())); });
}

}  // namespace ds::render

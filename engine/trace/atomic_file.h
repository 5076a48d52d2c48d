// Writing a file so that readers see either the old content or the complete new one, never half.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace ds {

// Calls `write` with a stream onto a temporary file in the same directory as `path`, then fsyncs
// it and renames it over `path` (the directory is fsynced too). On an I/O failure the temporary
// file is removed, `path` is left as it was, and RuntimeError "cannot write <path>: <strerror>"
// is raised; an exception thrown by `write` itself also removes the temporary and is rethrown.
// A new file gets the usual 0666 & ~umask permissions; an existing file keeps its mode.
// A symlink is followed and a file with other hard links kept whole: the complete export is then copied
// over the file's own content (the same inode, as editors write), not renamed over it. A FIFO or
// character device (/dev/null, a pipe) is written through, not replaced, and so is this process's own
// descriptor named as /dev/stdout, /dev/stderr, /dev/fd/N (`--csv /dev/stdout > out.txt` appends to what
// was printed); other kinds of file are refused (trace/export_target.h). The temporary never outlives the process: SIGINT/SIGTERM/SIGHUP remove
// it, and temporaries of killed processes are swept by the next write (trace/temporary_files.h).
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace ds

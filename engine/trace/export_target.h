// Where an export really goes. `--csv PATH` may name a plain file (replaced atomically), a symlink
// (followed: its target is rewritten in place, as editors do, so it stays the same file), a file with
// other hard links (also rewritten in place: a rename would split it from its other names), or a FIFO or
// character device such as /dev/null, /dev/stdout on a terminal, or bash's `>(gzip > r.csv.gz)`
// (written through like a shell's `>` would: renaming a file over them would replace the device node
// itself, and as root `--csv /dev/null` would turn /dev/null into a regular file). /dev/stdout,
// /dev/stderr, /dev/fd/N and /proc/self/fd/N are this process's own descriptor, whatever it leads to
// (`--csv /dev/stdout > out.txt`): written through that descriptor, after what was printed, never by
// replacing out.txt. Anything else (a directory, a socket, a block device) is refused.
#pragma once

#include <string>

namespace ds {

struct ExportTarget {
  enum class How { ReplaceFile, WriteInPlace, WriteThrough, OwnDescriptor };
  How how = How::ReplaceFile;
  std::string file;  // ReplaceFile / WriteInPlace: the regular file (the symlink's target), may not exist yet
  int fd = -1;       // OwnDescriptor: the descriptor the path names
};

// Raises RuntimeError "cannot write <path>: <why>" for what cannot be written.
ExportTarget resolve_export_target(const std::string& path);

// `path` made absolute against the current directory (a script's os.chdir must not move the exports).
std::string absolute_export_path(const std::string& path);

}  // namespace ds

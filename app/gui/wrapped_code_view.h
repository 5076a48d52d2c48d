// The presenter's editor while the code is not being edited (issue 24: at 1280x720 the editor cut long lines
// off while the lesson's code box wrapped them). ImGui's multi-line input cannot wrap, so presenter mode
// shows the script read-only and soft-wrapped to the pane, as the lesson's code box does (view_state/
// code_wrap.h), with the editor's gutter: line numbers, the next statement's arrow and band, the failing
// line. A click on it hands over to the editable text.
#pragma once

#include <string>

namespace ds::gui {

struct WrappedCodeMarks {
  int next_first = 0, next_last = 0;  // the statement Step runs next (lines, 0: none)
  int error_line = 0;                 // the failing line (0: none)
};

// Draws `script` into a child of `width` x `height` at the cursor (monospaced font pushed by the caller).
// Returns the number of continuation rows drawn; *clicked is set when the user clicked the text.
int draw_wrapped_script(const std::string& script, const WrappedCodeMarks& marks, float width, float height, bool* clicked);

}  // namespace ds::gui

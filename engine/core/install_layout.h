// Where an installed DeviceScope finds its data: beside the executable, as <prefix>/bin/devicescope and
// <prefix>/share/devicescope/{engine/python, engine/recorder, assets/lessons} (the .deb puts them under /usr;
// the same folders as in the source tree, so paths relative to a package's own files hold in both). A binary
// run from its build tree has no such folder and uses the source tree's, compiled in.
#pragma once

#include <string>

namespace ds {

// "<prefix>/share/devicescope" when it holds `relative` (e.g. "engine/python/_ds_session.py") for the running
// executable (/proc/self/exe, symlinks resolved); "" otherwise.
std::string installed_data_dir(const std::string& relative);

}  // namespace ds

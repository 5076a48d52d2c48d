// RankFolderSession: a folder of per-rank recordings (`devicescope record` under torchrun writes
// RUN.rank0.json, RUN.rank1.json, ...) opened together: every rank's places are its own (Place::rank:
// "rank 1 cuda:0"), so the memory panes come grouped by rank and the Transfers lanes name the rank. Each
// rank's clock starts at its own recorder's start; the ranks are drawn from a common zero.
#pragma once

#include <memory>
#include <string>

#include "session/file_session.h"

namespace ds::gui {

class RankFolderSession : public FileSession {
 public:
  explicit RankFolderSession(std::string folder, bool held = false);
  ~RankFolderSession() override;
  const char* kind() const override { return "folder of ranks"; }

 protected:
  std::shared_ptr<const Snapshot> read(LoadProgress& progress) override;
};

// The rank files of one run in `folder`, by rank: "NAME.rankN.json" (or .csv). Raises when there are none,
// or several runs (it names them).
std::vector<std::pair<int, std::string>> rank_files(const std::string& folder);

}  // namespace ds::gui

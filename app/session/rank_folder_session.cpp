// RankFolderSession: each rank's recording read in turn; places, storages and copies tagged with the rank.
#include "session/rank_folder_session.h"

#include "session/owner_names.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "core/errors.h"
#include "session/owner_names.h"
#include "session/recording_session.h"
#include "trace/load_trace.h"

namespace ds::gui {
namespace {

// Storage and transfer ids restart at 1 in every rank's file: a rank's ids move to a range of their own.
uint64_t rank_id(int rank, uint64_t id) { return id ? (uint64_t(rank) << 40) | id : 0; }

void tag(Place& p, int rank) { p.rank = rank; }

}  // namespace

std::vector<std::pair<int, std::string>> rank_files(const std::string& folder) {
  static const std::regex kRankFile(R"((.+)\.rank([0-9]{1,5})\.(json|csv))");
  std::map<std::string, std::vector<std::pair<int, std::string>>> runs;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    std::smatch m;
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file(ec) && std::regex_match(name, m, kRankFile))
      runs[m[1].str()].push_back({std::stoi(m[2].str()), entry.path().string()});
  }
  if (ec) raise(ErrorKind::RuntimeError, "cannot read the folder " + folder + ": " + ec.message());
  if (runs.empty())
    raise(ErrorKind::ValueError, folder + ": no per-rank recordings (RUN.rank0.json, RUN.rank1.json, ... as "
                                          "`devicescope record` writes under torchrun)");
  if (runs.size() > 1) {
    std::string names;
    for (const auto& [name, files] : runs) names += (names.empty() ? "" : ", ") + name;
    raise(ErrorKind::ValueError, folder + ": recordings of several runs (" + names + "): open a folder that holds one");
  }
  std::vector<std::pair<int, std::string>> files = runs.begin()->second;
  std::sort(files.begin(), files.end());
  return files;
}

RankFolderSession::RankFolderSession(std::string folder, bool held) : FileSession(std::move(folder), held) { open(); }

RankFolderSession::~RankFolderSession() { stop(); }

std::shared_ptr<const Snapshot> RankFolderSession::read(LoadProgress& progress) {
  const std::vector<std::pair<int, std::string>> files = rank_files(path());
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& [rank, file] : files) total += std::filesystem::file_size(file, ec);
  progress.bytes_total = total;
  std::deque<TransferRecord> transfers;
  std::deque<Event> events;
  std::unordered_map<uint64_t, Role> roles;  // the recorder's storage_roles, ids made rank-wide
  TraceMeta meta;
  uint64_t done = 0;
  for (const auto& [rank, file] : files) {
    LoadProgress one;  // per file; the folder's bar moves file by file
    if (progress.cancel) throw LoadCancelled(path());
    LoadedTrace t = load_trace(file, &one);
    for (const auto& [id, role] : recorded_storage_roles(t.recorder_json)) roles[rank_id(rank, id)] = role;
    if (transfers.empty() && events.empty()) meta = t.meta;
    meta.simulated = meta.simulated || t.meta.simulated;
    for (TransferRecord& r : t.transfers) {
      tag(r.src, rank);
      tag(r.dst, rank);
      r.id = rank_id(rank, r.id);
      r.src_storage = rank_id(rank, r.src_storage);
      r.dst_storage = rank_id(rank, r.dst_storage);
      transfers.push_back(std::move(r));
    }
    for (Event& e : t.events) {
      tag(e.place, rank);
      e.storage_id = rank_id(rank, e.storage_id);
      e.transfer_id = rank_id(rank, e.transfer_id);
      events.push_back(std::move(e));
    }
    done += std::filesystem::file_size(file, ec);
    progress.bytes_read = progress.bytes_done = done;
  }
  std::sort(transfers.begin(), transfers.end(),
            [](const TransferRecord& a, const TransferRecord& b) { return a.start_ns < b.start_ns; });
  std::shared_ptr<Snapshot> pic = recording_snapshot(path(), meta, transfers);
  add_live_storages(*pic, events, roles);  // rank by rank: each storage's alloc precedes its free within its rank
  publish_owner_names(*pic);  // before the "#id" stand-ins below: those are not names
  for (StorageInfo& st : pic->storages)  // an unnamed storage goes by its id in its own rank's file
    if (st.owner.empty()) st.owner = "#" + std::to_string(st.id & ((uint64_t(1) << 40) - 1));
  return pic;
}

}  // namespace ds::gui

// Names in exports (Note [Names in exports]): one name per storage, in each of its events and copies.
#include <gtest/gtest.h>

#include "trace/export_names.h"

namespace {

using ds::Event;
using ds::EventKind;
using ds::TransferRecord;

Event event(EventKind kind, uint64_t storage, std::string label = "", uint64_t transfer = 0) {
  Event e;
  e.kind = kind;
  e.storage_id = storage;
  e.label = std::move(label);
  e.transfer_id = transfer;
  return e;
}

TransferRecord copy(uint64_t id, uint64_t src, uint64_t dst, std::string owner) {
  TransferRecord t;
  t.id = id;
  t.src_storage = src;
  t.dst_storage = dst;
  t.owner = std::move(owner);
  return t;
}

}  // namespace

TEST(ExportNames, PickOwnerNameIsTheSnapshotRule) {
  EXPECT_EQ(ds::pick_owner_name("weight", {"w", "model.fc.weight"}), "model.fc.weight");
  EXPECT_EQ(ds::pick_owner_name("conv1.weight", {"model.conv1.weight"}), "model.conv1.weight");
  EXPECT_EQ(ds::pick_owner_name("fc.weight", {"model.xfc.weight"}), "fc.weight");  // a whole component only
  EXPECT_EQ(ds::pick_owner_name("Adam.state[0].exp_avg", {"opt.state"}), "Adam.state[0].exp_avg");
  EXPECT_EQ(ds::pick_owner_name("", {"x", "batch[0]"}), "x");
  EXPECT_EQ(ds::pick_owner_name("", {}), "");
}

// `model = Net().to("cuda")`: the CPU parameter (tag "conv1.weight") is copied to the GPU under the hint
// "conv1.weight" and freed; the GPU one stays, named model.conv1.weight by the script's names. Its
// gradient was freed by zero_grad(set_to_none=True) and tagged "conv1.weight.grad".
TEST(ExportNames, EveryEventOfAStorageCarriesItsOneName) {
  std::deque<Event> events = {event(EventKind::Alloc, 1), event(EventKind::Alloc, 2),
                              event(EventKind::Copy, 2, "conv1.weight", 10), event(EventKind::Free, 1, "conv1.weight"),
                              event(EventKind::Alloc, 3), event(EventKind::Free, 3, "conv1.weight.grad"),
                              event(EventKind::Alloc, 4), event(EventKind::Free, 4),
                              event(EventKind::Alloc, 5, "Adam.state[0].exp_avg")};
  std::deque<TransferRecord> transfers = {copy(10, 1, 2, "conv1.weight")};
  const std::vector<ds::LiveStorageName> live = {{2, "conv1.weight", {"model.conv1.weight", "w"}},
                                                 {5, "Adam.state[0].exp_avg", {"opt.state[p]['exp_avg']"}}};
  const auto names = ds::export_storage_names(live, events, transfers);
  EXPECT_EQ(names.at(1), "model.conv1.weight");  // freed, named through its copy's owner
  EXPECT_EQ(names.at(2), "model.conv1.weight");
  EXPECT_EQ(names.at(3), "model.conv1.weight.grad");  // freed, its tag qualified through "conv1.weight"
  EXPECT_EQ(names.count(4), 0u);  // nothing ever named it
  EXPECT_EQ(names.at(5), "Adam.state[0].exp_avg");

  ds::apply_export_names(names, events, transfers);
  EXPECT_EQ(events[0].label, "model.conv1.weight");  // its alloc, named before it had a tag
  EXPECT_EQ(events[1].label, "model.conv1.weight");
  EXPECT_EQ(events[2].label, "model.conv1.weight");  // the copy event
  EXPECT_EQ(events[3].label, "model.conv1.weight");
  EXPECT_EQ(events[4].label, "model.conv1.weight.grad");
  EXPECT_EQ(events[6].label, "");
  EXPECT_EQ(transfers[0].owner, "model.conv1.weight");
}

TEST(ExportNames, AnAmbiguousTagStaysAsItIs) {
  // Two live storages tagged "weight" named differently: a freed "weight" cannot be told apart.
  std::deque<Event> events = {event(EventKind::Alloc, 1), event(EventKind::Alloc, 2), event(EventKind::Alloc, 3),
                              event(EventKind::Free, 3, "weight")};
  std::deque<TransferRecord> transfers;
  const std::vector<ds::LiveStorageName> live = {{1, "weight", {"model.fc1.weight"}},
                                                 {2, "weight", {"model.fc2.weight"}}};
  const auto names = ds::export_storage_names(live, events, transfers);
  EXPECT_EQ(names.at(1), "model.fc1.weight");
  EXPECT_EQ(names.at(2), "model.fc2.weight");
  EXPECT_EQ(names.at(3), "weight");
}

TEST(ExportNames, ACopyNamesWhatItWroteAndIsNamedAfterWhatItCarried) {
  // x = batch.to("cuda") in a loop: the device copies of earlier steps are freed unnamed; the copy that wrote
  // one carries its source's name, and a copy with no owner is named after its destination.
  std::deque<Event> events = {event(EventKind::Alloc, 1), event(EventKind::Alloc, 2), event(EventKind::Free, 2),
                              event(EventKind::Alloc, 3)};
  std::deque<TransferRecord> transfers = {copy(7, 1, 2, "DataLoader batch"), copy(8, 1, 3, "")};
  const std::vector<ds::LiveStorageName> live = {{1, "DataLoader batch", {"batch"}}, {3, "", {"x"}}};
  const auto names = ds::export_storage_names(live, events, transfers);
  EXPECT_EQ(names.at(1), "DataLoader batch");
  EXPECT_EQ(names.at(2), "DataLoader batch");
  EXPECT_EQ(names.at(3), "x");
  ds::apply_export_names(names, events, transfers);
  EXPECT_EQ(transfers[0].owner, "DataLoader batch");
  EXPECT_EQ(transfers[1].owner, "x");
  EXPECT_EQ(events[1].label, "DataLoader batch");
}

TEST(ExportNames, AFreedGradientIsNamedAfterItsParameter) {
  // zero_grad(set_to_none=True): each step's gradient of model.fc.weight (storage 1) is freed by the next.
  std::deque<Event> events = {event(EventKind::Alloc, 1), event(EventKind::Alloc, 2), event(EventKind::Free, 2),
                              event(EventKind::Alloc, 3), event(EventKind::Alloc, 4), event(EventKind::Free, 4)};
  std::deque<TransferRecord> transfers;
  const std::vector<ds::LiveStorageName> live = {{1, "weight", {"model.fc.weight"}},
                                                 {3, "", {"model.fc.weight.grad"}}};
  const auto names = ds::export_storage_names(live, events, transfers, {{2, 1}, {3, 1}});
  EXPECT_EQ(names.at(2), "model.fc.weight.grad");
  EXPECT_EQ(names.at(3), "model.fc.weight.grad");
  EXPECT_EQ(names.count(4), 0u);  // not a gradient: a temporary
}

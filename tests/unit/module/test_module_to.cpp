// Module conversion rules (SEMANTICS §3): _apply order, parameter identity, buffer rebinding, grads, tied
// weights, old aliases, dtype-only-floats, recursion, partial moves on OOM, owner names in transfer records.
#include <gtest/gtest.h>

#include "module_test_util.h"

using namespace ds;
using ds::testing::cpu_param;
using ds::testing::cpu_zeros;
using ds::testing::error_of;
using ds::testing::read_floats;
using ds::testing::sim_runtime;
using ds::testing::transfers_with_owner;

namespace {
const Device kCpu(DeviceType::CPU);
const Device kCuda0(DeviceType::CUDA, 0);

int count_events(const Runtime& rt, EventKind kind, const std::string& label) {
  int n = 0;
  for (const Event& e : rt.log().events()) n += e.kind == kind && e.label == label;
  return n;
}
}  // namespace

TEST(ModuleTo, ReturnsSelfAndKeepsParameterIdentity) {
  auto rt = sim_runtime();
  ModulePtr lin = make_linear(*rt, 3, 2);
  TensorPtr w = lin->param("weight");
  const std::vector<float> before = read_floats(*rt, w);
  const StoragePtr old_storage = w->storage();
  EXPECT_EQ(lin->to(*rt, "cuda"), lin);
  EXPECT_EQ(lin->param("weight"), w);  // same TensorImpl: `w = model.weight` sees the move
  EXPECT_EQ(w->device(), kCuda0);
  EXPECT_NE(w->storage(), old_storage);
  EXPECT_TRUE(w->is_parameter);
  EXPECT_TRUE(w->requires_grad);
  EXPECT_EQ(read_floats(*rt, w), before);
  EXPECT_EQ(w->storage()->role(), Role::Parameter);
  EXPECT_EQ(w->storage()->moved_from(), old_storage->id());
  // Moving again is a no-op: nothing copied, same storage.
  const size_t transfers = rt->log().transfers().size();
  const StoragePtr on_gpu = w->storage();
  lin->cuda(*rt);
  EXPECT_EQ(w->storage(), on_gpu);
  EXPECT_EQ(rt->log().transfers().size(), transfers);
  lin->cpu(*rt);
  EXPECT_EQ(w->device(), kCpu);
  EXPECT_EQ(read_floats(*rt, w), before);
}

TEST(ModuleTo, BuffersAreRebound) {
  auto rt = sim_runtime();
  ModulePtr bn = make_batchnorm1d(*rt, 4);
  TensorPtr rm = bn->buffer("running_mean");  // rm = bn.running_mean
  bn->cuda(*rt);
  EXPECT_NE(bn->buffer("running_mean"), rm);
  EXPECT_EQ(rm->device(), kCpu);  // the old reference still points at the CPU tensor
  EXPECT_EQ(bn->buffer("running_mean")->device(), kCuda0);
  EXPECT_EQ(bn->buffer("num_batches_tracked")->device(), kCuda0);  // a device move moves every dtype
  EXPECT_EQ(bn->buffer("num_batches_tracked")->dtype(), DType::Int64);
  EXPECT_EQ(bn->buffer("running_mean")->storage()->role(), Role::Buffer);
}

TEST(ModuleTo, GradIsConvertedAndKeepsIdentity) {
  auto rt = sim_runtime();
  ModulePtr lin = make_linear(*rt, 2, 2);
  TensorPtr w = lin->param("weight");
  w->grad = ds::testing::cpu_floats(*rt, {1, 2, 3, 4});
  TensorPtr g = w->grad;
  lin->to(*rt, "cuda:1", "lin");
  EXPECT_EQ(w->grad, g);
  EXPECT_EQ(g->device(), Device(DeviceType::CUDA, 1));
  EXPECT_EQ(read_floats(*rt, g), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(g->storage()->role(), Role::Gradient);
  EXPECT_EQ(g->storage()->owner(), "lin.weight.grad");
  EXPECT_EQ(transfers_with_owner(*rt, "lin.weight.grad"), 1);
}

TEST(ModuleTo, TiedWeightsAreConvertedOnceAndStayTied) {
  auto rt = sim_runtime();
  ModulePtr a = make_linear(*rt, 4, 4), b = make_linear(*rt, 4, 4);
  b->set_attr("weight", Value(a->param("weight")));  // tie
  ModulePtr model = make_sequential({a, b});
  TensorPtr w = a->param("weight");
  const uint64_t old_id = w->storage()->id();
  model->to(*rt, "cuda", "model");
  EXPECT_EQ(a->param("weight"), w);
  EXPECT_EQ(b->param("weight"), w);
  EXPECT_EQ(w->device(), kCuda0);
  int from_old = 0;
  for (const auto& t : rt->log().transfers()) from_old += t.src_storage == old_id;
  EXPECT_EQ(from_old, 1);
  EXPECT_EQ(transfers_with_owner(*rt, "model.0.weight"), 1);
  EXPECT_EQ(transfers_with_owner(*rt, "model.1.weight"), 0);
  EXPECT_EQ(rt->log().transfers().size(), 3u);  // 0.weight, 0.bias, 1.bias
}

TEST(ModuleTo, SharedBufferIsUntiedLikePyTorch) {
  // `_buffers[k] = fn(buf)` per module: one tensor registered in two modules becomes two copies.
  auto rt = sim_runtime();
  ModulePtr a = Module::create(), b = Module::create();
  TensorPtr s = cpu_zeros(*rt, {3});
  a->register_buffer("s", Value(s));
  b->register_buffer("s", Value(s));
  ModulePtr model = make_sequential({a, b});
  EXPECT_EQ(model->named_buffers().size(), 1u);
  model->cuda(*rt);
  EXPECT_NE(a->buffer("s"), b->buffer("s"));
  EXPECT_EQ(a->buffer("s")->device(), kCuda0);
  EXPECT_EQ(b->buffer("s")->device(), kCuda0);
  EXPECT_EQ(rt->log().transfers().size(), 2u);
  EXPECT_EQ(model->named_buffers().size(), 2u);
}

TEST(ModuleTo, AliasesTakenBeforeKeepOldStorage) {
  auto rt = sim_runtime();
  ModulePtr lin = make_linear(*rt, 2, 2);
  TensorPtr w = lin->param("weight");
  const StoragePtr old_storage = w->storage();
  TensorPtr data = detach(w);                                // p.data / p.detach()
  TensorPtr view = as_strided(w, {2}, {1}, 2);               // p[1]
  lin->to(*rt, DType::Float64);
  EXPECT_EQ(w->dtype(), DType::Float64);
  EXPECT_EQ(data->storage(), old_storage);
  EXPECT_EQ(data->dtype(), DType::Float32);
  EXPECT_EQ(view->storage(), old_storage);
  lin->cuda(*rt);
  EXPECT_EQ(data->device(), kCpu);
  EXPECT_EQ(view->device(), kCpu);
  EXPECT_EQ(w->device(), kCuda0);
}

TEST(ModuleTo, PlainTensorAttributeDoesNotMove) {
  auto rt = sim_runtime();
  ModulePtr m = Module::create("Model", "__main__");
  m->set_attr("fc", Value(make_linear(*rt, 2, 2)));
  TensorPtr t = cpu_zeros(*rt, {2});
  m->set_attr("t", Value(t));  // self.t = torch.zeros(2): not a buffer
  m->to(*rt, "cuda");
  EXPECT_EQ(m->child("fc")->param("weight")->device(), kCuda0);
  EXPECT_EQ(m->attributes().find("t")->tensor(), t);
  EXPECT_EQ(t->device(), kCpu);
}

TEST(ModuleTo, DtypeConversionsOnlyTouchFloatingPoint) {
  auto rt = sim_runtime();
  ModulePtr bn = make_batchnorm1d(*rt, 3);
  bn->register_buffer("flag", Value(cpu_zeros(*rt, {2}, DType::Bool)));
  TensorPtr w = bn->param("weight");
  bn->half(*rt);
  EXPECT_EQ(bn->param("weight"), w);
  EXPECT_EQ(w->dtype(), DType::Float16);
  EXPECT_EQ(bn->buffer("running_mean")->dtype(), DType::Float16);
  EXPECT_EQ(bn->buffer("num_batches_tracked")->dtype(), DType::Int64);
  EXPECT_EQ(bn->buffer("flag")->dtype(), DType::Bool);
  EXPECT_EQ(read_floats(*rt, bn->buffer("running_var")), (std::vector<float>{1, 1, 1}));
  bn->to(*rt, DType::BFloat16);
  EXPECT_EQ(w->dtype(), DType::BFloat16);
  EXPECT_EQ(bn->buffer("num_batches_tracked")->dtype(), DType::Int64);
  bn->double_(*rt);
  EXPECT_EQ(w->dtype(), DType::Float64);
  bn->float_(*rt);
  EXPECT_EQ(w->dtype(), DType::Float32);
  EXPECT_EQ(error_of([&] { bn->to(*rt, DType::Int64); }),
            "TypeError: nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch.int64");
  EXPECT_EQ(error_of([&] { bn->to(*rt, ModuleToOptions{kCuda0, DType::Bool, false}); }),
            "TypeError: nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch.bool");
  EXPECT_EQ(w->device(), kCpu);  // the check runs before anything moves
  // Module.type(dtype) converts every tensor, integers included.
  bn->type(*rt, DType::Float64);
  EXPECT_EQ(bn->buffer("num_batches_tracked")->dtype(), DType::Float64);
  EXPECT_EQ(bn->buffer("flag")->dtype(), DType::Float64);
}

TEST(ModuleTo, RecursesIntoContainersAtDepthThree) {
  auto rt = sim_runtime();
  ModulePtr model = make_sequential(
      {make_sequential({make_module_list({make_linear(*rt, 2, 2), make_batchnorm1d(*rt, 2)})}),
       make_linear(*rt, 2, 1)});
  model->to(*rt, "cuda:1");
  std::vector<std::string> names;
  for (const auto& [name, t] : model->named_parameters()) {
    names.push_back(name);
    EXPECT_EQ(t->device(), Device(DeviceType::CUDA, 1)) << name;
  }
  for (const auto& [name, t] : model->named_buffers()) EXPECT_EQ(t->device(), Device(DeviceType::CUDA, 1)) << name;
  EXPECT_EQ(names, (std::vector<std::string>{"0.0.0.weight", "0.0.0.bias", "0.0.1.weight", "0.0.1.bias",
                                             "1.weight", "1.bias"}));
}

TEST(ModuleTo, IndexlessCudaUsesCurrentDevice) {
  auto rt = sim_runtime();
  ModulePtr lin = make_linear(*rt, 2, 2);
  rt->set_current_device(1);
  lin->cuda(*rt);
  EXPECT_EQ(lin->param("weight")->device(), Device(DeviceType::CUDA, 1));
  lin->cuda(*rt, 0);
  EXPECT_EQ(lin->param("weight")->device(), kCuda0);
  lin->to(*rt, zeros(*rt, {1}, DType::Float16, Device(DeviceType::CUDA, 1)));  // to(tensor)
  EXPECT_EQ(lin->param("weight")->device(), Device(DeviceType::CUDA, 1));
  EXPECT_EQ(lin->param("weight")->dtype(), DType::Float16);
}

TEST(ModuleTo, OwnerNamesOnTransferRecordsAndMoveEvents) {
  auto rt = sim_runtime();
  ModulePtr model = make_sequential({make_linear(*rt, 2, 2), make_batchnorm1d(*rt, 2)});
  rt->set_owner_hint("before");
  model->to(*rt, "cuda", "model");
  std::vector<std::string> owners;
  for (const auto& t : rt->log().transfers()) owners.push_back(t.owner);
  EXPECT_EQ(owners, (std::vector<std::string>{"model.0.weight", "model.0.bias", "model.1.weight", "model.1.bias",
                                              "model.1.running_mean", "model.1.running_var",
                                              "model.1.num_batches_tracked"}));
  EXPECT_EQ(model->child("1")->buffer("running_var")->storage()->owner(), "model.1.running_var");
  EXPECT_EQ(count_events(*rt, EventKind::ModuleMoveBegin, "model -> cuda"), 1);
  EXPECT_EQ(count_events(*rt, EventKind::ModuleMoveEnd, "model -> cuda"), 1);
  EXPECT_EQ(rt->owner_hint(), "before");  // restored
  // Without a root name the owners are relative and the events name the class.
  ModulePtr lin = make_linear(*rt, 1, 1);
  lin->half(*rt);
  EXPECT_EQ(lin->param("weight")->storage()->owner(), "weight");
  EXPECT_EQ(count_events(*rt, EventKind::ModuleMoveBegin, "Linear -> float16"), 1);
}

TEST(ModuleTo, PartialMoveOnOutOfMemory) {
  // One simulated device with room for exactly one 2 MiB small-pool segment: three Linear(1024, 128) fit
  // (512 KiB weight + 512 B bias each); the fourth weight needs a second segment and fails.
  auto rt = sim_runtime(1, 2ull << 20);
  ModulePtr model = make_sequential({make_linear(*rt, 1024, 128), make_linear(*rt, 1024, 128),
                                     make_linear(*rt, 1024, 128), make_linear(*rt, 1024, 128)});
  const std::string err = error_of([&] { model->to(*rt, "cuda", "model"); });
  EXPECT_EQ(err.rfind("OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB.", 0), 0u) << err;
  std::vector<std::string> where;
  for (const auto& [name, t] : model->named_parameters()) where.push_back(name + "@" + t->device().str());
  EXPECT_EQ(where, (std::vector<std::string>{"0.weight@cuda:0", "0.bias@cuda:0", "1.weight@cuda:0",
                                             "1.bias@cuda:0", "2.weight@cuda:0", "2.bias@cuda:0",
                                             "3.weight@cpu", "3.bias@cpu"}));
  EXPECT_EQ(count_events(*rt, EventKind::ModuleMoveEnd, "model -> cuda"), 1);  // closed despite the throw
  EXPECT_EQ(rt->owner_hint(), "");
}

TEST(ModuleToEmpty, AllocatesWithoutCopying) {
  auto rt = sim_runtime();
  ModulePtr bn = make_batchnorm1d(*rt, 4);
  TensorPtr w = bn->param("weight");
  const uint64_t old_id = w->storage()->id();
  bn->to_empty(*rt, kCuda0);
  EXPECT_EQ(bn->param("weight"), w);
  EXPECT_EQ(w->device(), kCuda0);
  EXPECT_EQ(w->sizes(), (Shape{4}));
  EXPECT_EQ(w->storage()->moved_from(), old_id);
  EXPECT_EQ(bn->buffer("num_batches_tracked")->dtype(), DType::Int64);
  EXPECT_EQ(bn->buffer("num_batches_tracked")->device(), kCuda0);
  EXPECT_TRUE(rt->log().transfers().empty());
  // recurse=false leaves children where they are.
  ModulePtr outer = make_sequential({make_linear(*rt, 1, 1)});
  outer->register_buffer("own", Value(cpu_zeros(*rt, {1})));
  outer->to_empty(*rt, kCuda0, false);
  EXPECT_EQ(outer->buffer("own")->device(), kCuda0);
  EXPECT_EQ(outer->child("0")->param("weight")->device(), kCpu);
}

TEST(ModuleTo, VirtualModelsMoveWithoutBytes) {
  auto rt = sim_runtime();
  BuildOptions options;
  options.virtual_bytes = true;
  ModulePtr big = make_linear(*rt, 8192, 8192, true, options);  // 256 MiB, never materialised
  big->to(*rt, "cuda", "big");
  EXPECT_EQ(big->param("weight")->device(), kCuda0);
  EXPECT_TRUE(big->param("weight")->is_virtual());
  EXPECT_EQ(transfers_with_owner(*rt, "big.weight"), 1);
}

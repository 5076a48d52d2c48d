// Module registration and attribute rules against torch/nn/modules/module.py (SEMANTICS §4): order, every
// error's type and wording (checked against real PyTorch), and the __setattr__ branches.
#include <gtest/gtest.h>

#include "module_test_util.h"

using namespace ds;
using ds::testing::cpu_param;
using ds::testing::cpu_zeros;
using ds::testing::error_of;
using ds::testing::sim_runtime;

namespace {
std::vector<std::string> names(const std::vector<NamedTensor>& v) {
  std::vector<std::string> out;
  for (const auto& [n, t] : v) out.push_back(n);
  return out;
}
std::vector<std::string> names(const std::vector<NamedModule>& v) {
  std::vector<std::string> out;
  for (const auto& [n, m] : v) out.push_back(n);
  return out;
}
using Names = std::vector<std::string>;
}  // namespace

TEST(ModuleRegistration, KeepsInsertionOrder) {
  auto rt = sim_runtime();
  ModulePtr m = Module::create("Model", "__main__");
  m->set_attr("b", Value(cpu_param(*rt, {1})));
  m->set_attr("a", Value(cpu_param(*rt, {1})));
  m->register_parameter("c", Value());
  m->register_buffer("z", Value(cpu_zeros(*rt, {1})));
  m->register_buffer("y", Value(cpu_zeros(*rt, {1})));
  EXPECT_EQ(names(m->named_parameters()), (Names{"b", "a"}));  // None is skipped
  EXPECT_EQ(names(m->named_buffers()), (Names{"z", "y"}));
  // Re-assigning keeps the position; deleting and re-adding moves the name to the end (OrderedDict).
  m->set_attr("b", Value(cpu_param(*rt, {2})));
  EXPECT_EQ(names(m->named_parameters()), (Names{"b", "a"}));
  m->del_attr("b");
  m->set_attr("b", Value(cpu_param(*rt, {2})));
  EXPECT_EQ(names(m->named_parameters()), (Names{"a", "b"}));
  EXPECT_EQ(m->parameters_dict().size(), 3u);  // a, c (None), b
}

TEST(ModuleRegistration, RegisterBufferErrors) {
  auto rt = sim_runtime();
  ModulePtr m = make_linear(*rt, 2, 2);
  TensorPtr t = cpu_zeros(*rt, {1});
  EXPECT_EQ(error_of([&] { m->register_buffer(NonStringName{"int"}, Value(t)); }),
            "TypeError: buffer name should be a string. Got int");
  EXPECT_EQ(error_of([&] { m->register_buffer(NonStringName{"NoneType"}, Value(t)); }),
            "TypeError: buffer name should be a string. Got NoneType");
  // KeyError texts are what PyTorch passes to KeyError(...); Python's str(KeyError) adds quotes around them.
  EXPECT_EQ(error_of([&] { m->register_buffer("a.b", Value(t)); }), "KeyError: buffer name can't contain \".\"");
  EXPECT_EQ(error_of([&] { m->register_buffer("", Value(t)); }), "KeyError: buffer name can't be empty string \"\"");
  EXPECT_EQ(error_of([&] { m->register_buffer("weight", Value(t)); }), "KeyError: attribute 'weight' already exists");
  EXPECT_EQ(error_of([&] { m->register_buffer("in_features", Value(t)); }),
            "KeyError: attribute 'in_features' already exists");  // a plain attribute
  EXPECT_EQ(error_of([&] { m->register_buffer("forward", Value(t)); }),
            "KeyError: attribute 'forward' already exists");  // a method
  EXPECT_EQ(error_of([&] { m->register_buffer("training", Value(t)); }),
            "KeyError: attribute 'training' already exists");
  EXPECT_EQ(error_of([&] { m->register_buffer("x", Value::other("list")); }),
            "TypeError: cannot assign 'list' object to buffer 'x' (torch Tensor or None required)");
  EXPECT_EQ(error_of([&] { m->register_buffer("x", Value(make_linear(*rt, 1, 1))); }),
            "TypeError: cannot assign 'torch.nn.modules.linear.Linear' object to buffer 'x' (torch Tensor or None "
            "required)");
  // A Parameter is a Tensor: it may be registered as a buffer; None is allowed; re-registering a buffer is fine.
  EXPECT_EQ(error_of([&] { m->register_buffer("p", Value(cpu_param(*rt, {1}))); }), "<no error>");
  EXPECT_EQ(error_of([&] { m->register_buffer("n", Value()); }), "<no error>");
  EXPECT_EQ(error_of([&] { m->register_buffer("n", Value(t), false); }), "<no error>");
  EXPECT_TRUE(m->non_persistent_buffers().count("n"));
  m->register_buffer("n", Value(t));  // persistent again
  EXPECT_FALSE(m->non_persistent_buffers().count("n"));
}

TEST(ModuleRegistration, RegisterParameterErrors) {
  auto rt = sim_runtime();
  ModulePtr m = make_linear(*rt, 2, 2);
  m->register_buffer("b", Value(cpu_zeros(*rt, {1})));
  EXPECT_EQ(error_of([&] { m->register_parameter(NonStringName{"int"}, Value()); }),
            "TypeError: parameter name should be a string. Got int");
  EXPECT_EQ(error_of([&] { m->register_parameter("a.b", Value()); }), "KeyError: parameter name can't contain \".\"");
  EXPECT_EQ(error_of([&] { m->register_parameter("", Value()); }),
            "KeyError: parameter name can't be empty string \"\"");
  EXPECT_EQ(error_of([&] { m->register_parameter("b", Value()); }), "KeyError: attribute 'b' already exists");
  EXPECT_EQ(error_of([&] { m->register_parameter("y", Value(cpu_zeros(*rt, {1}))); }),
            "TypeError: cannot assign 'torch.FloatTensor' object to parameter 'y' (torch.nn.Parameter or None "
            "required)");
  EXPECT_EQ(error_of([&] { m->register_parameter("y", Value(make_linear(*rt, 1, 1))); }),
            "TypeError: cannot assign 'torch.nn.modules.linear.Linear' object to parameter 'y' (torch.nn.Parameter "
            "or None required)");
  EXPECT_EQ(error_of([&] { m->register_parameter("y", Value::other("int")); }),
            "TypeError: cannot assign 'int' object to parameter 'y' (torch.nn.Parameter or None required)");
  // Replacing an existing parameter is allowed.
  EXPECT_EQ(error_of([&] { m->register_parameter("weight", Value(cpu_param(*rt, {3}))); }), "<no error>");
  EXPECT_EQ(m->param("weight")->sizes(), (Shape{3}));
}

TEST(ModuleRegistration, AddModuleErrors) {
  auto rt = sim_runtime();
  ModulePtr m = make_linear(*rt, 2, 2);
  ModulePtr sub = make_linear(*rt, 1, 1);
  EXPECT_EQ(error_of([&] { m->add_module("z", Value::other("int")); }), "TypeError: int is not a Module subclass");
  EXPECT_EQ(error_of([&] { m->add_module("z", Value(cpu_zeros(*rt, {1}))); }),
            "TypeError: torch.FloatTensor is not a Module subclass");
  EXPECT_EQ(error_of([&] { m->add_module(NonStringName{"int"}, Value(sub)); }),
            "TypeError: module name should be a string. Got int");
  EXPECT_EQ(error_of([&] { m->add_module("weight", Value(sub)); }), "KeyError: attribute 'weight' already exists");
  EXPECT_EQ(error_of([&] { m->add_module("a.b", Value(sub)); }), "KeyError: module name can't contain \".\", got: a.b");
  EXPECT_EQ(error_of([&] { m->add_module("", Value(sub)); }), "KeyError: module name can't be empty string \"\"");
  EXPECT_EQ(error_of([&] { m->add_module("sub", Value(sub)); }), "<no error>");
  EXPECT_EQ(error_of([&] { m->add_module("sub", Value()); }), "<no error>");  // re-registering as None
  EXPECT_EQ(m->child("sub"), nullptr);
  EXPECT_TRUE(m->modules_dict().contains("sub"));
}

TEST(ModuleSetattr, TypedSlotsRejectOtherValues) {
  auto rt = sim_runtime();
  ModulePtr m = make_linear(*rt, 2, 2);
  m->add_module("sub", Value(make_linear(*rt, 1, 1)));
  m->register_buffer("b", Value(cpu_zeros(*rt, {1})));
  EXPECT_EQ(error_of([&] { m->set_attr("weight", Value(cpu_zeros(*rt, {2}))); }),
            "TypeError: cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None expected)");
  TensorPtr cuda_half = zeros(*rt, {2}, DType::Float16, Device(DeviceType::CUDA));
  EXPECT_EQ(error_of([&] { m->set_attr("weight", Value(cuda_half)); }),
            "TypeError: cannot assign 'torch.cuda.HalfTensor' as parameter 'weight' (torch.nn.Parameter or None "
            "expected)");
  EXPECT_EQ(error_of([&] { m->set_attr("weight", Value::other("int")); }),
            "TypeError: cannot assign 'int' as parameter 'weight' (torch.nn.Parameter or None expected)");
  EXPECT_EQ(error_of([&] { m->set_attr("weight", Value(make_linear(*rt, 1, 1))); }),
            "TypeError: cannot assign 'torch.nn.modules.linear.Linear' as parameter 'weight' (torch.nn.Parameter or "
            "None expected)");
  TensorPtr cuda_float = zeros(*rt, {2}, DType::Float32, Device(DeviceType::CUDA, 1));
  EXPECT_EQ(error_of([&] { m->set_attr("sub", Value(cuda_float)); }),
            "TypeError: cannot assign 'torch.cuda.FloatTensor' as child module 'sub' (torch.nn.Module or None "
            "expected)");
  EXPECT_EQ(error_of([&] { m->set_attr("sub", Value::other("list")); }),
            "TypeError: cannot assign 'list' as child module 'sub' (torch.nn.Module or None expected)");
  EXPECT_EQ(error_of([&] { m->set_attr("b", Value::other("int")); }),
            "TypeError: cannot assign 'int' as buffer 'b' (torch.Tensor or None expected)");
  // None is accepted by every slot and keeps the name registered.
  m->set_attr("weight", Value());
  m->set_attr("sub", Value());
  m->set_attr("b", Value());
  EXPECT_TRUE(m->parameters_dict().contains("weight"));
  EXPECT_TRUE(m->modules_dict().contains("sub"));
  EXPECT_TRUE(m->buffers_dict().contains("b"));
  EXPECT_TRUE(m->get_attr("weight").is_none());
}

TEST(ModuleSetattr, ParameterOrModuleTakesOverAnyName) {
  auto rt = sim_runtime();
  ModulePtr m = Module::create("Model", "__main__");
  // A Parameter assigned to a (non-persistent) buffer name becomes a parameter; the buffer is gone.
  m->register_buffer("x", Value(cpu_zeros(*rt, {1})), false);
  TensorPtr p = cpu_param(*rt, {1});
  m->set_attr("x", Value(p));
  EXPECT_EQ(m->param("x"), p);
  EXPECT_FALSE(m->buffers_dict().contains("x"));
  EXPECT_FALSE(m->non_persistent_buffers().count("x"));
  // ... and a plain attribute of that name is dropped too.
  m->set_attr("plain", Value::other("int"));
  m->set_attr("plain", Value(cpu_param(*rt, {1})));
  EXPECT_FALSE(m->attributes().contains("plain"));
  EXPECT_TRUE(m->parameters_dict().contains("plain"));
  // A Module replaces a buffer or plain attribute of the same name; an existing parameter name is checked
  // first (branch 2) and rejects it.
  ModulePtr sub = make_linear(*rt, 1, 1);
  m->register_buffer("buf", Value(cpu_zeros(*rt, {1})), false);
  m->set_attr("buf", Value(sub));
  EXPECT_FALSE(m->buffers_dict().contains("buf"));
  EXPECT_FALSE(m->non_persistent_buffers().count("buf"));
  EXPECT_EQ(m->child("buf"), sub);
  m->set_attr("attr", Value::other("int"));
  m->set_attr("attr", Value(sub));
  EXPECT_FALSE(m->attributes().contains("attr"));
  EXPECT_EQ(error_of([&] { m->set_attr("x", Value(sub)); }),
            "TypeError: cannot assign 'torch.nn.modules.linear.Linear' as parameter 'x' (torch.nn.Parameter or None "
            "expected)");
  // A tensor assigned to an existing buffer re-registers it and keeps its persistence.
  m->register_buffer("y", Value(cpu_zeros(*rt, {1})), false);
  TensorPtr y2 = cpu_zeros(*rt, {2});
  m->set_attr("y", Value(y2));
  EXPECT_EQ(m->buffer("y"), y2);
  EXPECT_TRUE(m->non_persistent_buffers().count("y"));
  // A brand-new tensor is only a plain attribute: not a buffer, not a parameter.
  TensorPtr plain = cpu_zeros(*rt, {3});
  m->set_attr("t", Value(plain));
  EXPECT_EQ(m->attributes().find("t")->tensor(), plain);
  EXPECT_EQ(names(m->named_buffers()), Names{"y"});
  EXPECT_EQ(plain->storage()->role(), Role::PlainAttribute);
}

TEST(ModuleSetattr, BeforeInitRaisesLikeSeed004) {
  auto rt = sim_runtime();
  // class SimpleModel(nn.Module): def __init__(self): self.fc = nn.Linear(...)   # no super().__init__()
  ModulePtr m = Module::create_uninitialized("SimpleModel");
  EXPECT_EQ(error_of([&] { m->set_attr("w", Value(cpu_param(*rt, {1}))); }),
            "AttributeError: cannot assign parameters before Module.__init__() call");
  EXPECT_EQ(error_of([&] { m->set_attr("fc", Value(make_linear(*rt, 1, 1))); }),
            "AttributeError: cannot assign module before Module.__init__() call");
  EXPECT_EQ(error_of([&] { m->register_buffer("b", Value(cpu_zeros(*rt, {1}))); }),
            "AttributeError: cannot assign buffer before Module.__init__() call");
  EXPECT_EQ(error_of([&] { m->register_parameter("b", Value()); }),
            "AttributeError: cannot assign parameter before Module.__init__() call");
  EXPECT_EQ(error_of([&] { m->add_module("b", Value()); }),
            "AttributeError: 'SimpleModel' object has no attribute '_modules'");
  // Plain attributes (tensors included) are fine before __init__.
  EXPECT_EQ(error_of([&] { m->set_attr("t", Value(cpu_zeros(*rt, {1}))); }), "<no error>");
  EXPECT_EQ(error_of([&] { m->to(*rt, "cuda"); }), "AttributeError: 'SimpleModel' object has no attribute '_modules'");
  m->init();  // super().__init__() after all
  EXPECT_EQ(error_of([&] { m->set_attr("fc", Value(make_linear(*rt, 1, 1))); }), "<no error>");
  EXPECT_TRUE(m->attributes().contains("t"));
}

TEST(ModuleGetattr, LooksUpRegistriesAndRaises) {
  auto rt = sim_runtime();
  ModulePtr m = make_batchnorm1d(*rt, 3);
  EXPECT_TRUE(m->get_attr("weight").is_parameter());
  EXPECT_TRUE(m->get_attr("running_mean").is_tensor());
  EXPECT_FALSE(m->get_attr("running_mean").is_parameter());
  EXPECT_EQ(m->get_attr("eps").other_type(), "float");
  EXPECT_EQ(error_of([&] { m->get_attr("foo"); }), "AttributeError: 'BatchNorm1d' object has no attribute 'foo'");
  EXPECT_TRUE(m->has_attr("reset_running_stats"));
  EXPECT_FALSE(m->has_attr("foo"));
  m->del_attr("running_mean");
  EXPECT_FALSE(m->has_attr("running_mean"));
  EXPECT_EQ(error_of([&] { m->del_attr("nothere"); }),
            "AttributeError: 'BatchNorm1d' object has no attribute 'nothere'");
}

TEST(ModuleIteration, NamedModulesDeduplicatesByIdentity) {
  auto rt = sim_runtime();
  ModulePtr l = make_linear(*rt, 2, 2);
  ModulePtr s = make_sequential({l, l});
  EXPECT_EQ(names(s->named_modules()), (Names{"", "0"}));
  EXPECT_EQ(names(s->named_modules("", false)), (Names{"", "0", "1"}));
  EXPECT_EQ(names(s->named_children()), (Names{"0"}));
  EXPECT_EQ(names(s->named_parameters()), (Names{"0.weight", "0.bias"}));
  EXPECT_EQ(names(s->named_parameters("model", true, false)),
            (Names{"model.0.weight", "model.0.bias", "model.1.weight", "model.1.bias"}));
  EXPECT_EQ(names(s->named_parameters("", false)), Names{});
  // state_dict does not de-duplicate modules.
  EXPECT_EQ(s->state_dict_keys(), (Names{"0.weight", "0.bias", "1.weight", "1.bias"}));
}

TEST(ModuleIteration, StateDictOrderSkipsNonPersistentAndNone) {
  auto rt = sim_runtime();
  ModulePtr bn = make_batchnorm1d(*rt, 3);
  bn->register_buffer("flag", Value(cpu_zeros(*rt, {2}, DType::Bool)));
  bn->register_buffer("scratch", Value(cpu_zeros(*rt, {1})), false);
  bn->register_buffer("nothing", Value());
  ModulePtr model = make_sequential({make_linear(*rt, 1, 2, false), bn});
  model->register_buffer("step", Value(cpu_zeros(*rt, {1})));
  EXPECT_EQ(model->state_dict_keys(),
            (Names{"step", "0.weight", "1.weight", "1.bias", "1.running_mean", "1.running_var",
                   "1.num_batches_tracked", "1.flag"}));
  EXPECT_EQ(names(model->named_buffers()), (Names{"step", "1.running_mean", "1.running_var",
                                                  "1.num_batches_tracked", "1.flag", "1.scratch"}));
  // Entries are detached aliases: same storage, not the Parameter object itself.
  auto sd = model->state_dict();
  TensorPtr w = model->child("0")->param("weight");
  EXPECT_NE(sd[1].second, w);
  EXPECT_EQ(sd[1].second->storage(), w->storage());
  EXPECT_FALSE(sd[1].second->is_parameter);
  EXPECT_EQ(model->state_dict("", true)[1].second, w);  // keep_vars
}

TEST(ModuleRepr, MatchesPyTorch) {
  auto rt = sim_runtime();
  ModulePtr m = make_sequential({make_sequential({make_linear(*rt, 1, 2)}), make_batchnorm1d(*rt, 2),
                                 make_module_list({make_linear(*rt, 2, 2, false)})});
  EXPECT_EQ(m->repr(),
            "Sequential(\n"
            "  (0): Sequential(\n"
            "    (0): Linear(in_features=1, out_features=2, bias=True)\n"
            "  )\n"
            "  (1): BatchNorm1d(2, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)\n"
            "  (2): ModuleList(\n"
            "    (0): Linear(in_features=2, out_features=2, bias=False)\n"
            "  )\n"
            ")");
  EXPECT_EQ(Module::create()->repr(), "Module()");
}

TEST(ModuleLookup, GetSubmoduleParameterBuffer) {
  auto rt = sim_runtime();
  ModulePtr m = make_sequential({make_sequential({make_batchnorm1d(*rt, 2)})});
  EXPECT_EQ(m->get_submodule("0.0")->type_name(), "BatchNorm1d");
  EXPECT_EQ(m->get_parameter("0.0.weight"), m->child("0")->child("0")->param("weight"));
  EXPECT_EQ(m->get_buffer("0.0.running_var"), m->child("0")->child("0")->buffer("running_var"));
  EXPECT_EQ(error_of([&] { m->get_submodule("0.x"); }), "AttributeError: Sequential has no attribute `x`");
  EXPECT_EQ(error_of([&] { m->get_submodule("0.0.weight"); }), "AttributeError: `weight` is not an nn.Module");
  EXPECT_EQ(error_of([&] { m->get_parameter("0.0.running_var"); }),
            "AttributeError: `running_var` is not an nn.Parameter");
  EXPECT_EQ(error_of([&] { m->get_buffer("0.0.weight"); }), "AttributeError: `weight` is not a buffer");
}

TEST(ModuleTrain, RecursesAndApplyVisitsChildrenFirst) {
  auto rt = sim_runtime();
  ModulePtr m = make_sequential({make_linear(*rt, 1, 1), make_sequential({make_batchnorm1d(*rt, 1)})});
  m->eval();
  for (auto& sub : m->modules()) EXPECT_FALSE(sub->training());
  std::vector<std::string> order;
  m->apply([&](Module& x) { order.push_back(x.type_name()); });
  EXPECT_EQ(order, (Names{"Linear", "BatchNorm1d", "Sequential", "Sequential"}));
}

# torch.nn.Module for DeviceScope: registries, attribute rules, _apply/to and state_dict as in
# PyTorch's torch/nn/modules/module.py, plus calls into the engine so moves and names are recorded.
import functools
import warnings
from collections import OrderedDict

import torch
from ... import _devicescope_hooks as _hooks
from ..parameter import Buffer, Parameter
from ...utils import hooks
from . import _state_dict
from ._state_dict import _IncompatibleKeys  # noqa: F401 (PyTorch exposes it here)
from ._conversion import _apply_params, _compatible_types, _conv, _overwrite_on_conversion

_forward_depth = 0  # Module.__call__ nesting (see _call_impl)

__all__ = ["register_module_forward_pre_hook", "register_module_forward_hook", "Module"]

_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()


def _addindent(s_, num_spaces):
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(num_spaces * " ") + line for line in s]
    return first + "\n" + "\n".join(s)


def register_module_forward_pre_hook(hook):
    """Registers a forward pre-hook common to all modules."""
    handle = hooks.RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(hook, *, always_call=False):
    """Registers a forward hook common to all modules."""
    handle = hooks.RemovableHandle(_global_forward_hooks)
    _global_forward_hooks[handle.id] = hook
    return handle


def _forward_unimplemented(self, *input):
    r"""Defines the computation performed at every call. Should be overridden by all subclasses."""
    raise NotImplementedError(f"Module [{type(self).__name__}] is missing the required \"forward\" function")


class Module:
    r"""Base class for all neural network modules.

    Your models should also subclass this class. Modules can contain other Modules, allowing
    to nest them in a tree structure; submodules assigned as attributes are registered and
    have their parameters converted too when you call :meth:`to`, etc.
    """

    dump_patches = False
    _version = 1
    training: bool
    call_super_init = False

    def __init__(self, *args, **kwargs):
        if self.call_super_init is False and bool(kwargs):
            raise TypeError("{}.__init__() got an unexpected keyword argument '{}'"
                            "".format(type(self).__name__, next(iter(kwargs))))
        if self.call_super_init is False and bool(args):
            raise TypeError("{}.__init__() takes 1 positional argument but {} were"
                            " given".format(type(self).__name__, len(args) + 1))
        # object.__setattr__ skips Module.__setattr__'s registration logic.
        sa = object.__setattr__
        sa(self, "training", True)
        sa(self, "_parameters", OrderedDict())
        sa(self, "_buffers", OrderedDict())
        sa(self, "_non_persistent_buffers_set", set())
        sa(self, "_backward_pre_hooks", OrderedDict())
        sa(self, "_backward_hooks", OrderedDict())
        sa(self, "_is_full_backward_hook", None)
        sa(self, "_forward_hooks", OrderedDict())
        sa(self, "_forward_hooks_with_kwargs", OrderedDict())
        sa(self, "_forward_pre_hooks", OrderedDict())
        sa(self, "_forward_pre_hooks_with_kwargs", OrderedDict())
        sa(self, "_state_dict_hooks", OrderedDict())
        sa(self, "_state_dict_pre_hooks", OrderedDict())
        sa(self, "_load_state_dict_pre_hooks", OrderedDict())
        sa(self, "_load_state_dict_post_hooks", OrderedDict())
        sa(self, "_modules", OrderedDict())
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    forward = _forward_unimplemented

    # ----------------------------------------------------------------- registration
    def register_buffer(self, name, tensor, persistent=True):
        r"""Adds a buffer to the module (moved by ``to()``; in ``state_dict()`` unless non-persistent)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError("buffer name should be a string. Got {}".format(torch.typename(name)))
        elif "." in name:
            raise KeyError("buffer name can't contain \".\"")
        elif name == "":
            raise KeyError("buffer name can't be empty string \"\"")
        elif hasattr(self, name) and name not in self._buffers:
            raise KeyError("attribute '{}' already exists".format(name))
        elif tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError("cannot assign '{}' object to buffer '{}' "
                            "(torch Tensor or None required)".format(torch.typename(tensor), name))
        else:
            self._buffers[name] = tensor
            if persistent:
                self._non_persistent_buffers_set.discard(name)
            else:
                self._non_persistent_buffers_set.add(name)
            _hooks.tag(tensor, "buffer", name)

    def register_parameter(self, name, param):
        r"""Adds a parameter to the module. The parameter can be accessed as an attribute."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError("parameter name should be a string. Got {}".format(torch.typename(name)))
        elif "." in name:
            raise KeyError("parameter name can't contain \".\"")
        elif name == "":
            raise KeyError("parameter name can't be empty string \"\"")
        elif hasattr(self, name) and name not in self._parameters:
            raise KeyError("attribute '{}' already exists".format(name))

        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError("cannot assign '{}' object to parameter '{}' "
                            "(torch.nn.Parameter or None required)".format(torch.typename(param), name))
        elif param.grad_fn:
            raise ValueError(
                "Cannot assign non-leaf Tensor to parameter '{0}'. Model "
                "parameters must be created explicitly. To express '{0}' "
                "as a function of another Tensor, compute the value in "
                "the forward() method.".format(name))
        else:
            self._parameters[name] = param
            _hooks.tag(param, "parameter", name)

    def add_module(self, name, module):
        r"""Adds a child module to the current module, accessible as an attribute."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError("{} is not a Module subclass".format(torch.typename(module)))
        elif not isinstance(name, str):
            raise TypeError("module name should be a string. Got {}".format(torch.typename(name)))
        elif hasattr(self, name) and name not in self._modules:
            raise KeyError("attribute '{}' already exists".format(name))
        elif "." in name:
            raise KeyError("module name can't contain \".\", got: {}".format(name))
        elif name == "":
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = module

    def register_module(self, name, module):
        r"""Alias for :func:`add_module`."""
        self.add_module(name, module)

    def get_submodule(self, target):
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        module_path, _, buffer_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        buffer = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buffer

    # Defined in _state_dict.py, which tells an override from these defaults without importing Module.
    get_extra_state = _state_dict.get_extra_state
    set_extra_state = _state_dict.set_extra_state

    # ----------------------------------------------------------------- conversion
    def _apply(self, fn, recurse=True):
        # Children first (deduplicated like children()), then own parameters, their .grad, buffers.
        conv = _conv
        prefix = conv.prefix
        if recurse and self._modules:
            memo = set()
            try:
                for name, module in self._modules.items():
                    if module is None or module in memo:
                        continue
                    memo.add(module)
                    conv.prefix = prefix + name + "."
                    module._apply(fn)
            finally:
                conv.prefix = prefix

        if conv.depth:
            hint, compat, overwrite = conv.hint, conv.compat, conv.overwrite
        else:
            hint, compat, overwrite = _hooks.set_owner_hint, _compatible_types(), _overwrite_on_conversion()
        params = self._parameters
        if params:
            # fn(param) and fn(grad) must not record autograd history (PyTorch: torch.no_grad()).
            if conv.no_grad:
                _apply_params(self, fn, params, prefix, hint, compat, overwrite)
            else:
                with torch.no_grad():
                    _apply_params(self, fn, params, prefix, hint, compat, overwrite)

        buffers = self._buffers
        if buffers:
            # Buffers are rebound: a reference taken before the move keeps the old tensor.
            for key, buf in buffers.items():
                if buf is not None:
                    hint(prefix + key)
                    if conv.no_grad and buf.requires_grad:
                        # PyTorch converts buffers outside no_grad; keep that for the rare grad buffer.
                        with torch.enable_grad():
                            buffers[key] = fn(buf)
                    else:
                        buffers[key] = fn(buf)
        return self

    def _convert(self, fn, target):
        """Runs _apply for a public conversion method, telling the engine where the move begins/ends.

        The whole conversion runs in one no_grad scope with its settings looked up once: a model with
        10,000 parameters must convert at least as fast as PyTorch does.
        """
        conv = _conv
        if conv.depth:
            return self._apply(fn)
        name = _hooks.caller_name_of(self, 2)
        conv.depth = 1
        conv.prefix = name + "." if name else ""
        conv.hint = _hooks.set_owner_hint
        conv.compat = _compatible_types()
        conv.overwrite = _overwrite_on_conversion()
        _hooks.note_module_move(True, name, target)
        try:
            with torch.no_grad():
                conv.no_grad = True
                return self._apply(fn)
        finally:
            conv.depth = 0
            conv.prefix = ""
            conv.hint = None
            conv.compat = None
            conv.no_grad = False
            _hooks.set_owner_hint("")
            _hooks.note_module_move(False, name, target)

    def apply(self, fn):
        r"""Applies ``fn`` recursively to every submodule (as returned by ``.children()``) and self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def cuda(self, device=None):
        r"""Moves all model parameters and buffers to the GPU. Modifies the module in place; returns self."""
        if device is None:
            target = "cuda"
        elif isinstance(device, int):
            target = "cuda:%d" % device
        else:
            target = str(device)

        def convert(t):
            return t.cuda(device)
        # Parameters may take the engine's direct path when the target is plainly a CUDA device
        # (anything else goes through Tensor.cuda, which raises PyTorch's errors).
        try:
            if device is None:
                dev = torch.device("cuda")
            elif isinstance(device, int) and not isinstance(device, bool):
                dev = torch.device("cuda", device)
            else:
                dev = torch.device(device) if isinstance(device, str) else device
            if isinstance(dev, torch.device) and dev.type == "cuda":
                convert._ds_impl = _hooks.impl_converter(dev, False)
        except Exception:
            pass
        return self._convert(convert, target)

    def ipu(self, device=None):
        return self._convert(lambda t: t.ipu(device), "ipu")

    def xpu(self, device=None):
        return self._convert(lambda t: t.xpu(device), "xpu")

    def cpu(self):
        r"""Moves all model parameters and buffers to the CPU. Modifies the module in place; returns self."""
        def convert(t):
            return t.cpu()
        convert._ds_impl = _hooks.impl_converter(torch.device("cpu"), False)
        return self._convert(convert, "cpu")

    def type(self, dst_type):
        r"""Casts all parameters and buffers to :attr:`dst_type`."""
        return self._convert(lambda t: t.type(dst_type), str(dst_type))

    def float(self):
        r"""Casts all floating point parameters and buffers to ``float`` datatype."""
        return self._convert(lambda t: t.float() if t.is_floating_point() else t, "torch.float32")

    def double(self):
        r"""Casts all floating point parameters and buffers to ``double`` datatype."""
        return self._convert(lambda t: t.double() if t.is_floating_point() else t, "torch.float64")

    def half(self):
        r"""Casts all floating point parameters and buffers to ``half`` datatype."""
        return self._convert(lambda t: t.half() if t.is_floating_point() else t, "torch.float16")

    def bfloat16(self):
        r"""Casts all floating point parameters and buffers to ``bfloat16`` datatype."""
        return self._convert(lambda t: t.bfloat16() if t.is_floating_point() else t, "torch.bfloat16")

    def to_empty(self, *, device, recurse=True):
        r"""Moves the parameters and buffers to the specified device without copying storage."""
        return self._convert(lambda t: torch.empty_like(t, device=device), str(device))

    def to(self, *args, **kwargs):
        r"""Moves and/or casts the parameters and buffers (in place; returns self).

        to(device=None, dtype=None, non_blocking=False), to(dtype, non_blocking=False),
        to(tensor, non_blocking=False), to(memory_format=torch.channels_last).
        Only floating point / complex tensors are cast to ``dtype``; a device move moves everything.
        """
        device, dtype, non_blocking, convert_to_format = torch._C._nn._parse_to(*args, **kwargs)

        if dtype is not None:
            if not (dtype.is_floating_point or dtype.is_complex):
                raise TypeError("nn.Module.to only accepts floating point or complex "
                                "dtypes, but got desired dtype={}".format(dtype))
            if dtype.is_complex:
                warnings.warn(
                    "Complex modules are a new feature under active development whose design may change, "
                    "and some modules might not work as expected when using complex tensors as parameters or buffers. "
                    "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
                    "if a complex module does not work as expected.")

        if convert_to_format is None and dtype is None:
            def convert(t):
                return t.to(device, None, non_blocking)
            convert._ds_impl = _hooks.impl_converter(device, non_blocking)
        else:
            def convert(t):
                if convert_to_format is not None and t.dim() in (4, 5):
                    return t.to(device, dtype if t.is_floating_point() or t.is_complex() else None,
                                non_blocking, memory_format=convert_to_format)
                return t.to(device, dtype if t.is_floating_point() or t.is_complex() else None, non_blocking)

        if device is not None:
            target = str(device)
        elif dtype is not None:
            target = str(dtype)
        else:
            target = str(convert_to_format) if convert_to_format is not None else ""
        return self._convert(convert, target)

    # ----------------------------------------------------------------- hooks and call
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        r"""Registers a forward pre-hook: ``hook(module, args) -> None or modified input``."""
        handle = hooks.RemovableHandle(self._forward_pre_hooks,
                                       extra_dict=self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        r"""Registers a forward hook: ``hook(module, args, output) -> None or modified output``."""
        handle = hooks.RemovableHandle(self._forward_hooks,
                                       extra_dict=self._forward_hooks_with_kwargs)
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook):
        raise NotImplementedError("DeviceScope: module backward hooks are not supported; "
                                  "use Tensor.register_hook on the output instead")

    register_full_backward_hook = register_backward_hook
    register_full_backward_pre_hook = register_backward_hook

    def _call_impl(self, *args, **kwargs):
        # DeviceScope: storages made while the outermost forward runs (its outputs, the intermediates
        # autograd keeps) are coloured as activations; done inline, so tracebacks keep PyTorch's frames.
        global _forward_depth
        outermost = _forward_depth == 0
        if outermost:
            previous_role = _hooks.set_new_storage_role("activation")
        _forward_depth += 1
        try:
            forward_call = self.forward
            if not (self._forward_hooks or self._forward_pre_hooks
                    or _global_forward_hooks or _global_forward_pre_hooks):
                return forward_call(*args, **kwargs)

            for hook_id, hook in (*_global_forward_pre_hooks.items(), *self._forward_pre_hooks.items()):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    args_kwargs_result = hook(self, args, kwargs)
                    if args_kwargs_result is not None:
                        if isinstance(args_kwargs_result, tuple) and len(args_kwargs_result) == 2:
                            args, kwargs = args_kwargs_result
                        else:
                            raise RuntimeError(
                                "forward pre-hook must return None or a tuple "
                                f"of (new_args, new_kwargs), but got {args_kwargs_result}.")
                else:
                    args_result = hook(self, args)
                    if args_result is not None:
                        if not isinstance(args_result, tuple):
                            args_result = (args_result,)
                        args = args_result

            result = forward_call(*args, **kwargs)
            for hook_id, hook in (*_global_forward_hooks.items(), *self._forward_hooks.items()):
                if hook_id in self._forward_hooks_with_kwargs:
                    hook_result = hook(self, args, kwargs, result)
                else:
                    hook_result = hook(self, args, result)
                if hook_result is not None:
                    result = hook_result
            return result
        finally:
            _forward_depth -= 1
            if outermost:
                _hooks.set_new_storage_role(previous_role)

    __call__ = _call_impl

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state):
        self.__dict__.update(state)
        for attr in ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks",
                     "_forward_hooks_with_kwargs", "_state_dict_hooks", "_state_dict_pre_hooks",
                     "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks", "_backward_pre_hooks"):
            if attr not in self.__dict__:
                self.__dict__[attr] = OrderedDict()
        if "_non_persistent_buffers_set" not in self.__dict__:
            self._non_persistent_buffers_set = set()
        if "_is_full_backward_hook" not in self.__dict__:
            self._is_full_backward_hook = None

    # ----------------------------------------------------------------- attributes
    def __getattr__(self, name):
        d = self.__dict__
        if "_parameters" in d:
            _parameters = d["_parameters"]
            if name in _parameters:
                return _parameters[name]
        if "_buffers" in d:
            _buffers = d["_buffers"]
            if name in _buffers:
                return _buffers[name]
        if "_modules" in d:
            modules = d["_modules"]
            if name in modules:
                return modules[name]
        raise AttributeError("'{}' object has no attribute '{}'".format(type(self).__name__, name))

    def __setattr__(self, name, value):
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError("cannot assign '{}' as parameter '{}' "
                                "(torch.nn.Parameter or None expected)".format(torch.typename(value), name))
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError("cannot assign '{}' as child module '{}' "
                                    "(torch.nn.Module or None expected)".format(torch.typename(value), name))
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if isinstance(value, Buffer) or buffers is not None and name in buffers:
                    # PyTorch 2.5+: a Buffer, or any tensor assigned to a buffer name, is (re)registered.
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError("cannot assign '{}' as buffer '{}' (torch.nn.Buffer, torch.Tensor "
                                        "or None expected)".format(torch.typename(value), name))
                    if isinstance(value, Buffer):
                        persistent = value.persistent
                    else:
                        persistent = name not in self._non_persistent_buffers_set
                    self.register_buffer(name, value, persistent)
                else:
                    object.__setattr__(self, name, value)
                    if isinstance(value, torch.Tensor) and modules is not None:
                        # An unregistered tensor attribute: Module.to() will not move it.
                        _hooks.tag(value, "plain_attribute", name)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    # ----------------------------------------------------------------- state dict
    def _register_state_dict_hook(self, hook):
        handle = hooks.RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        # hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs), run
        # before this module loads its own entries; with_module=True passes the module first (PyTorch's
        # _WrappedHook)
        handle = hooks.RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = functools.partial(hook, self) if with_module else hook
        return handle

    def register_load_state_dict_post_hook(self, hook):
        handle = hooks.RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    _save_to_state_dict = _state_dict.save_to_state_dict
    state_dict = _state_dict.state_dict
    _load_from_state_dict = _state_dict.load_from_state_dict
    load_state_dict = _state_dict.load_state_dict

    # ----------------------------------------------------------------- traversal
    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or v in memo:
                    continue
                if remove_duplicate:
                    memo.add(v)
                name = module_prefix + ("." if module_prefix else "") + k
                yield name, v

    def parameters(self, recurse=True):
        r"""Returns an iterator over module parameters (each shared Parameter once)."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda module: module._parameters.items(),
                                       prefix=prefix, recurse=recurse, remove_duplicate=remove_duplicate)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda module: module._buffers.items(),
                                       prefix=prefix, recurse=recurse, remove_duplicate=remove_duplicate)

    def children(self):
        for _, module in self.named_children():
            yield module

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if self not in memo:
            if remove_duplicate:
                memo.add(self)
            yield prefix, self
            for name, module in self._modules.items():
                if module is None:
                    continue
                submodule_prefix = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    # ----------------------------------------------------------------- modes and misc
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        r"""Resets gradients of all parameters (to None by default, as in PyTorch 2.x)."""
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def _replicate_for_data_parallel(self):
        """A shallow copy for nn.parallel.replicate: same attributes, own (empty) parameter dict and own
        buffer/child dicts, which replicate() then fills with the copies on the replica's device."""
        replica = self.__new__(type(self))
        replica.__dict__ = self.__dict__.copy()
        replica._parameters = {}
        replica._buffers = replica._buffers.copy()
        replica._modules = replica._modules.copy()
        replica._is_replica = True
        return replica

    def share_memory(self):
        return self

    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        r"""Extra information printed inside the module's repr (override in subclasses)."""
        return ""

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = _addindent(repr(module), 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str

    def __dir__(self):
        module_attrs = dir(self.__class__)
        attrs = list(self.__dict__.keys())
        parameters = list(self._parameters.keys())
        modules = list(self._modules.keys())
        buffers = list(self._buffers.keys())
        keys = module_attrs + attrs + parameters + modules + buffers
        keys = [key for key in keys if not key[0].isdigit()]
        return sorted(keys)

# torch.amp.GradScaler: dynamic loss scaling for float16 training. scale() multiplies the loss by the scale (a
# float32 tensor on the loss's device), unscale_() divides the gradients in place and records whether any is
# inf/NaN (a device tensor, read once by step() with .item(): the small device-to-host copy PyTorch makes),
# step() skips optimizer.step() when one was, update() backs off (x0.5) or grows (x2 every growth_interval
# clean steps) the scale.
import enum
import warnings



def _found(found_inf):
    """found_inf's value; a virtual step (no values) takes the no-inf/NaN path, the usual one: the optimizer
    steps and the scale's growth tracker counts (growing the scale allocates nothing)."""
    return 0.0 if found_inf.is_virtual else found_inf.item()

class OptState(enum.Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state():
    return {"stage": OptState.READY, "found_inf_per_device": {}}


class GradScaler:
    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        import torch
        self._device = device
        self._enabled = enabled
        if self._device == "cuda" and enabled and not torch.cuda.is_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.")
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
        self._init_scale = init_scale
        self._scale = None
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._init_growth_tracker = 0
        self._growth_tracker = None
        self._per_optimizer_states = {}

    def _lazy_init_scale_growth_tracker(self, dev):
        import torch
        self._scale = torch.full((), self._init_scale, dtype=torch.float32, device=dev)
        self._growth_tracker = torch.full((), self._init_growth_tracker, dtype=torch.int32, device=dev)

    def _check_scale_growth_tracker(self, funcname):
        fix = "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + fix)
        if self._growth_tracker is None:
            raise AssertionError(f"Attempted {funcname} but _growth_tracker is None.  " + fix)
        return self._scale, self._growth_tracker

    def _state(self, optimizer):
        return self._per_optimizer_states.setdefault(id(optimizer), _refresh_per_optimizer_state())

    def scale(self, outputs):
        import torch
        if not self._enabled:
            return outputs
        if isinstance(outputs, torch.Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            return outputs * self._scale.to(device=outputs.device, non_blocking=True)
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        if hasattr(outputs, "__iter__"):
            return map(self.scale, outputs)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16):
        """Divides each gradient by the scale in place; found_inf[device] becomes 1.0 where any is inf/NaN."""
        import torch
        per_device = {}
        with torch.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    if not allow_fp16 and param.grad.dtype == torch.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    grad = param.grad
                    dev = grad.device
                    if dev not in per_device:
                        per_device[dev] = torch.zeros((), dtype=torch.float32, device=dev)
                    bad = (~torch.isfinite(grad)).any().to(torch.float32)
                    per_device[dev] = torch.maximum(per_device[dev], bad)
                    grad.mul_(inv_scale.to(dev))
        return per_device

    def unscale_(self, optimizer):
        import torch
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._state(optimizer)
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = torch.full((), 0.0, dtype=torch.float32, device=self._scale.device)
        state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        state["stage"] = OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        state = self._state(optimizer)
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if not state["found_inf_per_device"] and not any(
                p.grad is not None for g in optimizer.param_groups for p in g["params"]):
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = None
        if not sum(_found(v) for v in state["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale=None):
        import torch
        if not self._enabled:
            return
        scale, tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                if not (isinstance(new_scale, torch.Tensor) and new_scale.numel() == 1 and
                        new_scale.dtype == torch.float32 and not new_scale.requires_grad):
                    raise AssertionError("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                                         "torch.FloatTensor with requires_grad=False.")
                self._scale.copy_(new_scale)
        else:
            found_infs = [f.to(device=scale.device, non_blocking=True)
                          for state in self._per_optimizer_states.values()
                          for f in state["found_inf_per_device"].values()]
            if not found_infs:
                raise AssertionError("No inf checks were recorded prior to update.")
            found_inf = found_infs[0]
            for f in found_infs[1:]:
                found_inf = found_inf + f
            # _amp_update_scale_: back off on inf/NaN, grow after growth_interval clean steps.
            if _found(found_inf) > 0:
                scale.mul_(self._backoff_factor)
                tracker.fill_(0)
            else:
                tracker.add_(1)
                if not tracker.is_virtual and int(tracker.item()) == self._growth_interval:
                    scale.mul_(self._growth_factor)
                    tracker.fill_(0)
        self._per_optimizer_states = {}

    def _get_scale_async(self):
        return self._scale

    def get_scale(self):
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _get_growth_tracker(self):
        if not self._enabled:
            return 0
        return self._init_growth_tracker if self._growth_tracker is None else int(self._growth_tracker.item())

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self):
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError("A GradScaler instance may only be pickled at the beginning of an iteration, "
                                     "or at the end after scaler.update().")
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

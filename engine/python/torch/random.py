# torch.random: the seeding functions (also at torch.*) and fork_rng, as in PyTorch's torch/random.py.
import contextlib
import warnings

from ._random import Generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state  # noqa: F401

__all__ = ["set_rng_state", "get_rng_state", "manual_seed", "seed", "initial_seed", "fork_rng"]

_fork_rng_warned_already = False


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """Forks the RNG: on exit the CPU generator (and the listed CUDA devices') are back where they were."""
    import torch
    global _fork_rng_warned_already
    if not enabled:
        yield
        return
    if devices is None:
        num_devices = torch.cuda.device_count()
        if num_devices > 1 and not _fork_rng_warned_already:
            warnings.warn(f"CUDA reports that you have {num_devices} available devices, and you have used "
                          f"{_caller} without explicitly specifying which devices are being used. For safety, we "
                          f"initialize *every* CUDA device by default, which can be quite slow if you have a lot "
                          f"of CUDAs. If you know that you are only making use of a few CUDA devices, set the "
                          f"environment variable CUDA_VISIBLE_DEVICES or the '{_devices_kw}' keyword argument of "
                          f"{_caller} with the set of devices you are actually using. For example, if you are "
                          f"using CPU only, set device.upper()_VISIBLE_DEVICES= or devices=[]; if you are using "
                          f"device 0 only, set CUDA_VISIBLE_DEVICES=0 or devices=[0].  To initialize all devices "
                          f"and suppress this warning, set the '{_devices_kw}' keyword argument to "
                          f"`range(torch.cuda.device_count())`.")
            _fork_rng_warned_already = True
        devices = list(range(num_devices))
    else:
        devices = list(devices)
    cpu_state = get_rng_state()
    device_states = [torch.cuda.get_rng_state(d) for d in devices]
    try:
        yield
    finally:
        set_rng_state(cpu_state)
        for d, state in zip(devices, device_states):
            torch.cuda.set_rng_state(state, d)

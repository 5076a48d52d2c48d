# Random numbers: torch.Generator, the default generator, torch.manual_seed/seed/initial_seed.
# DeviceScope draws from numpy's PCG64, so values do not match PyTorch's generators bit for bit; seeding
# makes runs (and the app's Step back replays) deterministic, which is what matters here.
import numpy as np

DEFAULT_SEED = 67280421310721  # PyTorch's documented default seed value
STATE_BYTES = 48  # see Generator.get_state


class Generator:
    __module__ = "torch"

    def __init__(self, device="cpu"):
        from ._device import device as _dev
        self.device = _dev(device)
        self._seed = DEFAULT_SEED
        self._rng = np.random.Generator(np.random.PCG64(self._seed))

    def manual_seed(self, seed):
        seed = int(seed)
        if seed < 0:
            seed &= 0xFFFFFFFFFFFFFFFF
        self._seed = seed
        self._rng = np.random.Generator(np.random.PCG64(seed))
        return self

    def seed(self):
        s = int(np.random.SeedSequence().entropy) & 0xFFFFFFFFFFFFFFFF
        self.manual_seed(s)
        return s

    def initial_seed(self):
        return self._seed

    def get_state(self):
        """The generator's state as a ByteTensor: PCG64's 128-bit state and increment, then its buffered
        32-bit half (flag, value), little-endian. A fixed layout, never a pickle: set_state must not run code."""
        from . import _factories
        from . import _dtype as D
        st = self._rng.bit_generator.state
        raw = (st["state"]["state"].to_bytes(16, "little") + st["state"]["inc"].to_bytes(16, "little")
               + int(st["has_uint32"]).to_bytes(8, "little") + int(st["uinteger"]).to_bytes(8, "little"))
        return _factories.tensor(np.frombuffer(raw, dtype=np.uint8).copy(), dtype=D.uint8)

    def set_state(self, state):
        from ._ops import _core as C
        from ._tensor import Tensor
        from . import _dtype as D
        if not isinstance(state, Tensor):
            raise TypeError(f"set_state(): argument 'new_state' (position 1) must be Tensor, not "
                            f"{type(state).__name__}")
        if state.dtype is not D.uint8:
            raise RuntimeError(f"expected a torch.ByteTensor, but got {state.type()}")
        raw = C.read(state.cpu()).tobytes()
        if len(raw) != STATE_BYTES:
            raise RuntimeError(f"Expected a DeviceScope generator state of size {STATE_BYTES} but found the "
                               f"input RNG state size to be {len(raw)}")
        self._rng.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": int.from_bytes(raw[0:16], "little"), "inc": int.from_bytes(raw[16:32], "little")},
            "has_uint32": int.from_bytes(raw[32:40], "little") & 1,
            "uinteger": int.from_bytes(raw[40:48], "little") & 0xFFFFFFFF}
        return self

    @property
    def rng(self):
        return self._rng


default_generator = Generator()


def rng(generator=None):
    return (generator or default_generator)._rng


def manual_seed(seed):
    return default_generator.manual_seed(seed)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state):
    default_generator.set_state(state)


def reset():
    default_generator.manual_seed(DEFAULT_SEED)

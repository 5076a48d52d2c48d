# Random numbers: torch.Generator, the default generator, torch.manual_seed/seed/initial_seed.
# A generator is PyTorch's CPU one: the mt19937 engine (torch/_mt19937.py) and the normal samples Box-Muller
# keeps for the next draw; torch/_cpu_sampling.py turns its draws into values as ATen's kernels do, so a seed
# gives PyTorch's numbers. Its state is PyTorch's 5056-byte CPUGeneratorImplState.
import math
import struct

import numpy as np

from . import _cpu_sampling
from ._mt19937 import MT19937, STATE_N

DEFAULT_SEED = 67280421310721  # PyTorch's documented default seed value
# CPUGeneratorImplStateLegacy: the_initial_seed u64, left i32, seeded i32, next u64, state[624] u64,
# normal_x/normal_y/normal_rho f64, normal_is_valid i32 (+4 padding); then CPUGeneratorImplState adds
# next_float_normal_sample f32 and its valid flag (+3 padding)
_HEAD = struct.Struct("<QiiQ")
_TAIL = struct.Struct("<dddi4x")
_FLOAT_TAIL = struct.Struct("<f?3x")
LEGACY_STATE_BYTES = _HEAD.size + 8 * STATE_N + _TAIL.size  # 5048
STATE_BYTES = LEGACY_STATE_BYTES + _FLOAT_TAIL.size  # 5056


class Generator:
    __module__ = "torch"

    def __init__(self, device="cpu"):
        from ._device import device as _dev
        self.device = _dev(device)
        self._seed = DEFAULT_SEED
        self.engine = MT19937(self._seed)
        self._next_double_normal = None
        self._next_float_normal = None
        self._numpy = None

    def manual_seed(self, seed):
        seed = int(seed)
        if seed < 0:
            seed &= 0xFFFFFFFFFFFFFFFF
        self._seed = seed
        self.engine.seed(seed)
        self._next_double_normal = self._next_float_normal = None
        return self

    def seed(self):
        s = int(np.random.SeedSequence().entropy) & 0xFFFFFFFFFFFFFFFF
        self.manual_seed(s)
        return s

    def initial_seed(self):
        return self._seed

    def normal_double(self, mean, std):
        """One at::normal_distribution<double>(mean, std) draw: the cached second value of the last pair, or
        a fresh pair whose second value is kept."""
        if self._next_double_normal is not None:
            value, self._next_double_normal = self._next_double_normal, None
        else:
            value, self._next_double_normal = _cpu_sampling.box_muller_pair(self.engine)
        return _cpu_sampling.scale_normal(value, mean, std)

    def get_state(self):
        """PyTorch's CPUGeneratorImplState bytes (a fixed layout, never a pickle: set_state runs no code)."""
        from . import _factories
        from . import _dtype as D
        left, nxt, key = self.engine.get()
        cached = self._next_double_normal
        raw = (_HEAD.pack(self._seed & 0xFFFFFFFFFFFFFFFF, left, 1, nxt) + key.astype("<u8").tobytes()
               + _TAIL.pack(0.0, cached or 0.0, 0.0, cached is not None)
               + _FLOAT_TAIL.pack(self._next_float_normal or 0.0, self._next_float_normal is not None))
        return _factories.tensor(np.frombuffer(raw, dtype=np.uint8).copy(), dtype=D.uint8)

    def set_state(self, state):
        from ._ops import _core as C
        from ._tensor import Tensor
        from . import _dtype as D
        if not isinstance(state, Tensor) or state.dtype is not D.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        raw = C.read(state.cpu()).tobytes()
        if len(raw) not in (LEGACY_STATE_BYTES, STATE_BYTES):
            raise RuntimeError(f"Expected either a CPUGeneratorImplStateLegacy of size {LEGACY_STATE_BYTES} or a "
                               f"CPUGeneratorImplState of size {STATE_BYTES} but found the input RNG state size "
                               f"to be {len(raw)}")
        seed, left, seeded, nxt = _HEAD.unpack_from(raw, 0)
        key = np.frombuffer(raw, dtype="<u8", count=STATE_N, offset=_HEAD.size)
        normal_x, normal_y, normal_rho, normal_valid = _TAIL.unpack_from(raw, _HEAD.size + 8 * STATE_N)
        if not (seeded and 0 < left <= STATE_N and nxt <= STATE_N):
            raise RuntimeError("Invalid mt19937 state")
        float_normal = None
        if len(raw) == STATE_BYTES:
            value, valid = _FLOAT_TAIL.unpack_from(raw, LEGACY_STATE_BYTES)
            float_normal = value if valid else None
            double_normal = normal_y if normal_valid else None
        else:  # the legacy form kept Box-Muller's inputs: the cached sample is the sine one
            double_normal = normal_rho * math.sin(2.0 * math.pi * normal_x) if normal_valid else None
        self.engine.set(left, key.astype(np.uint32))
        self._seed = seed
        self._next_double_normal, self._next_float_normal = double_normal, float_normal
        return self

    @property
    def rng(self):
        """numpy's Generator over this engine's stream, for the distributions drawn with numpy's algorithms
        (exponential, log-normal, geometric, multinomial): seeded and deterministic, not PyTorch's values."""
        if self._numpy is None:
            self._numpy = np.random.Generator(self.engine.numpy_bits)
        self.engine.numpy_bits  # a draw follows: the state is no longer the freshly seeded one
        return self._numpy


default_generator = Generator()


# Each CUDA device has its own default generator, as in PyTorch: draws on a cuda tensor never advance the CPU
# generator, so CPU values after them stay PyTorch's. Made on first use, seeded with the last seed given to all
# (torch.manual_seed / torch.cuda.manual_seed_all). Their values are not PyTorch's (CUDA draws with Philox).
_cuda_generators = {}
_cuda_seed_all = [DEFAULT_SEED]


def cuda_generator(index=None):
    if index is None:
        import _devicescope_C as _E
        index = _E.current_device()
    g = _cuda_generators.get(index)
    if g is None:
        g = _cuda_generators[index] = Generator(f"cuda:{index}").manual_seed(_cuda_seed_all[0])
    return g


def seed_cuda_all(seed):
    _cuda_seed_all[0] = seed
    for g in _cuda_generators.values():
        g.manual_seed(seed)


def rng(generator=None, t=None):
    return gen(generator, t).rng


def gen(generator=None, t=None):
    """The generator a draw into tensor t uses: the one passed (checked against t's device type), else t's
    device's default generator."""
    device = None if t is None else t.device
    if generator is not None:
        if device is not None and generator.device.type != device.type:
            raise RuntimeError(f"Expected a '{device.type}' device type for generator but found "
                               f"'{generator.device.type}'")
        return generator
    if device is not None and device.type == "cuda":
        return cuda_generator(device.index)
    return default_generator


def manual_seed(seed):
    """torch.manual_seed: the CPU generator and every CUDA device's."""
    seed_cuda_all(_check_seed(seed))
    return default_generator.manual_seed(seed)


def _check_seed(seed):
    seed = int(seed)
    return seed & 0xFFFFFFFFFFFFFFFF if seed < 0 else seed


# Values for a random fill of tensor t, shaped like t, as ATen's CPU kernels make them (torch/_cpu_sampling.py)

def _values_for(t, draw):
    """draw(n, contiguous) gives the n values in the order the kernel writes them: t's memory order."""
    impl = t._impl
    shape = tuple(impl.sizes)
    order = _cpu_sampling.fill_order(shape, impl.strides)
    flat = np.asarray(draw(impl.numel, order is None))
    if order is None:
        return flat.reshape(shape)
    out = np.empty(flat.size, dtype=flat.dtype)
    out[order] = flat
    return out.reshape(shape)


def uniform_values(t, low, high, generator=None):
    engine = gen(generator, t).engine
    return _values_for(t, lambda n, _: _cpu_sampling.uniform_real(engine, n, t.dtype, low, high))


def normal_values(t, mean, std, generator=None):
    g = gen(generator, t)
    return _values_for(t, lambda n, contiguous: _cpu_sampling.normal(g, n, t.dtype, mean, std, contiguous))


def randint_values(t, low, high, generator=None):
    engine = gen(generator, t).engine
    return _values_for(t, lambda n, _: _cpu_sampling.random_from_to(engine, n, low, high))


def random_values(t, generator=None):
    engine = gen(generator, t).engine
    return _values_for(t, lambda n, _: _cpu_sampling.random_default(engine, n, t.dtype))


def bernoulli_values(t, p, p_dtype="float64", generator=None):
    """t's shape of bernoulli(p) draws; p a number or an array broadcast to t (values in t's memory order)."""
    engine = gen(generator, t).engine
    probs = np.broadcast_to(np.asarray(p, dtype=np.float64), tuple(t._impl.sizes))

    def draw(n, contiguous):
        order = None if contiguous else _cpu_sampling.fill_order(tuple(t._impl.sizes), t._impl.strides)
        flat = probs.reshape(-1) if order is None else probs.reshape(-1)[order]
        return _cpu_sampling.bernoulli(engine, flat, p_dtype)
    return _values_for(t, draw)


def exponential_values(t, lambd, generator=None):
    engine = gen(generator, t).engine
    return _values_for(t, lambda n, _: _cpu_sampling.exponential(engine, n, lambd))


def log_normal_values(t, mean, std, generator=None):
    """lognormal_distribution<double>: exp of one normal_distribution<double> draw per element (cached pairs;
    glibc's exp, as numpy's vectorised one differs in the last bit)."""
    g = gen(generator, t)
    return _values_for(t, lambda n, _: np.array([math.exp(g.normal_double(mean, std)) for _ in range(n)]))


def geometric_values(t, p, generator=None):
    engine = gen(generator, t).engine
    return _values_for(t, lambda n, _: _cpu_sampling.geometric(engine, n, p))


def cauchy_values(t, median, sigma, generator=None):
    engine = gen(generator, t).engine
    return _values_for(t, lambda n, _: _cpu_sampling.cauchy(engine, n, median, sigma))


def randperm_values(t, generator=None):
    return _cpu_sampling.randperm(gen(generator, t).engine, t._impl.numel)


def seed():
    s = default_generator.seed()
    seed_cuda_all(s)
    return s


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state):
    default_generator.set_state(state)


def reset():
    _cuda_generators.clear()
    _cuda_seed_all[0] = DEFAULT_SEED
    default_generator.manual_seed(DEFAULT_SEED)

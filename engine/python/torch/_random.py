# Random numbers: torch.Generator, the default generator, torch.manual_seed/seed/initial_seed.
# DeviceScope draws from numpy's PCG64, so values do not match PyTorch's generators bit for bit; seeding
# makes runs (and the app's Step back replays) deterministic, which is what matters here.
import numpy as np

DEFAULT_SEED = 67280421310721  # PyTorch's documented default seed value


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
        import pickle
        from . import _factories
        from . import _dtype as D
        data = np.frombuffer(pickle.dumps(self._rng.bit_generator.state), dtype=np.uint8)
        return _factories.tensor(data.copy(), dtype=D.uint8)

    def set_state(self, state):
        import pickle
        from ._ops import _core as C
        self._rng.bit_generator.state = pickle.loads(C.read(state).tobytes())
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

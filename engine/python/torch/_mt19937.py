# PyTorch's CPU random engine (ATen's at::mt19937, c10's CPUGeneratorImpl): a 32-bit Mersenne Twister seeded
# with init_genrand(seed & 0xffffffff), random64() made of two draws (the first one the high half). numpy's
# MT19937 is the same generator (its legacy seeding is init_genrand); this class keeps PyTorch's view of the
# state (`left`, `next`) so that torch.get_rng_state() has PyTorch's bytes and set_state() takes them.
import os

import numpy as np

import _devicescope_C as _E

STATE_N = 624
# Draws this many or more go through the C++ stepper (bindings_sampling.cpp's mt19937_unit); fewer stay with numpy
# (reading and putting back numpy's state costs ~70-90 us, random_raw ~4 ns a draw). DEVICESCOPE_NO_FAST_OPS=1
# keeps numpy for all.
_FAST_MIN = 1 << 16 if os.environ.get("DEVICESCOPE_NO_FAST_OPS") != "1" else None


class MT19937:
    __slots__ = ("_bits", "_fresh")

    def __init__(self, seed):
        self._bits = np.random.MT19937(0)
        self.seed(seed)

    def seed(self, seed):
        self._bits._legacy_seeding(int(seed) & 0xFFFFFFFF)
        # Seeded and not drawn from: PyTorch says left=1, next=0 (numpy's position is 624 either way)
        self._fresh = True

    def random(self, n):
        """n 32-bit draws (generator->random()), as uint64."""
        self._fresh = False
        # (random_raw's result is a fresh uint64 array already: no copy; the callers may write into it)
        return self._bits.random_raw(int(n)).astype(np.uint64, copy=False)

    def random64(self, n):
        """n 64-bit draws (generator->random64()): two 32-bit draws each, the first one high. (The or is taken
        in place: one n-element temporary fewer; a 12.5M-element torch.rand of doubles makes several.)"""
        r = self.random(2 * int(n))
        out = np.left_shift(r[0::2], np.uint64(32))
        np.bitwise_or(out, r[1::2], out=out)
        return out

    def unit(self, n, digits):
        """n values (draw & (2^digits - 1)) * 2^-digits as float64: one 32-bit draw each, a random64() for 53
        digits (uniform_real_distribution's val)."""
        n = int(n)
        if _FAST_MIN is not None and n >= _FAST_MIN:
            st = self._bits.state["state"]
            x, pos, key = _E.mt19937_unit(np.ascontiguousarray(st["key"], dtype=np.uint32), int(st["pos"]), n,
                                          int(digits))
            self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
            self._fresh = False
            return x
        v = self.random64(n) if digits == 53 else self.random(n)
        np.bitwise_and(v, np.uint64((1 << digits) - 1), out=v)
        return np.multiply(v, 2.0 ** -digits, dtype=np.float64)  # (exact: below 2^53, times a power of two)

    @property
    def numpy_bits(self):
        """The bit generator, for the draws DeviceScope does not reproduce bit for bit (numpy's algorithms on
        PyTorch's stream)."""
        self._fresh = False
        return self._bits

    def get(self):
        """(left, next, key[624] as uint32) as at::mt19937_data_pod holds them."""
        st = self._bits.state["state"]
        pos = int(st["pos"])
        if self._fresh:
            return 1, 0, np.array(st["key"], dtype=np.uint32)
        return STATE_N + 1 - pos, pos, np.array(st["key"], dtype=np.uint32)

    def set(self, left, key):
        # PyTorch draws state[next] after `--left`; numpy draws key[pos] and regenerates at pos == 624
        pos = STATE_N + 1 - int(left)
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": np.asarray(key, dtype=np.uint32), "pos": pos}}
        self._fresh = False

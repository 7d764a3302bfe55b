"""HammerDB's random values (modules/tpcccommon-1.0.tm of TPC-Council/HammerDB at
5725747c03e7b44545b27b32988d9a4e5a56705d), with the same distributions: the schema build's
strings, names, zip codes and phone numbers, and the driver's NURand and customer names.
"""
import random

# tpcccommon's alphanumArray: MakeAlphaString draws each character uniformly from these 62.
ALPHANUM = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# Lastname's and randname's syllables.
SYLLABLES = ["BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"]

# Random bytes below 248 (= 4 * 62) map to ALPHANUM[b % 62] uniformly; the rest are dropped.
_KEEP = 4 * len(ALPHANUM)
_TO_ALPHANUM = bytes(ALPHANUM[b % len(ALPHANUM)] for b in range(_KEEP)) + bytes(256 - _KEEP)
_DROP = bytes(range(_KEEP, 256))
_POOL_BYTES = 1 << 20


class TclRandom:
    """tpcccommon's procedures on one generator (one per virtual user or loader)."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)
        self.pool = ""
        self.used = 0

    def random_number(self, low, high):
        """RandomNumber m M: int(m + rand() * (M + 1 - m)), uniform in [m, M]."""
        return int(low + self.rng.random() * (high + 1 - low))

    def nurand(self, a, x, y, c):
        """NURand iConst x y C."""
        return (((self.random_number(0, a) | self.random_number(x, y)) + c) % (y - x + 1)) + x

    def alpha_string(self, shortest, longest):
        """MakeAlphaString x y: a length uniform in [x, y], each character uniform over
        ALPHANUM. Drawn from a pool of such characters, refilled a MiB at a time, because
        the build needs some 50 million of them per warehouse."""
        length = self.random_number(shortest, longest)
        if self.used + length > len(self.pool):
            self.pool = self.rng.randbytes(_POOL_BYTES).translate(_TO_ALPHANUM, _DROP).decode()
            self.used = 0
        self.used += length
        return self.pool[self.used - length:self.used]

    def zip_code(self):
        """Makezip: RandomNumber 0 9999 written over the start of 000011111."""
        number = str(self.random_number(0, 9999))
        return number + "000011111"[len(number):]

    def address(self):
        """MakeAddress: street 1, street 2, city, state, zip."""
        return [self.alpha_string(10, 20), self.alpha_string(10, 20), self.alpha_string(10, 20),
                self.alpha_string(2, 2), self.zip_code()]

    def number_string(self):
        """MakeNumberString: two RandomNumber 0 99999999, each written over 00000000."""
        return "".join(str(self.random_number(0, 99999999)).ljust(8, "0") for _ in range(2))


def last_name(number):
    """Lastname / randname: the syllables of number's three decimal digits."""
    return SYLLABLES[number // 100 % 10] + SYLLABLES[number // 10 % 10] + SYLLABLES[number % 10]

"""Client-side ids: UUIDv7 strings, time ordered like the daemon's own.

The client names every event (and every session it creates) before the
first attempt, so a request retried after a lost answer carries the same ids
and the daemon answers it as a retry instead of storing it twice.
"""

from __future__ import annotations

import os
import time
import uuid


def uuid7() -> str:
    """A new UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits."""
    millis = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (millis & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76  # version
    value |= ((rand >> 62) & 0xFFF) << 64  # 12 bits of rand_a
    value |= 0b10 << 62  # variant
    value |= rand & ((1 << 62) - 1)  # 62 bits of rand_b
    return str(uuid.UUID(int=value))

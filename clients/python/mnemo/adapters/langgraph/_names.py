"""Any string as a mnemod name, exactly as the TypeScript adapters do it (clients/typescript/src/langgraph/names.ts).

A name is 1..128 bytes of ``[A-Za-z0-9._:@-]``: a string that already is one
is kept; any other is escaped reversibly (``_xx`` for each UTF-8 byte of a
character outside ``[A-Za-z0-9.:@-]``), and hashed (``_h`` and its SHA-256)
when the escaped form is too long. Distinct strings give distinct names, and
a thread or namespace written from either language maps to the same name.
"""

from __future__ import annotations

import hashlib
import re

_SAFE = re.compile(r"[A-Za-z0-9.:@-]")


def escape_name(text: str, *, escape_dots: bool = False) -> str:
    out = []
    for ch in text:
        if _SAFE.fullmatch(ch) and not (escape_dots and ch == "."):
            out.append(ch)
        else:
            out.extend(f"_{byte:02x}" for byte in ch.encode("utf-8"))
    return "".join(out)


def name_of(text: str, max_bytes: int = 128) -> str:
    # "", "." and ".." are not names; escaping the dots of an all-dot string avoids the last two.
    escaped = "_h" if text == "" else escape_name(text, escape_dots=bool(re.fullmatch(r"\.+", text)))
    if len(escaped) <= max_bytes:
        return escaped
    return "_h" + hashlib.sha256(text.encode("utf-8")).hexdigest()

// Any string as a mnemod name (1..128 bytes of [A-Za-z0-9._:@-]): kept as it
// is when it already is one, else escaped reversibly, and hashed when the
// escaped form is too long. Distinct strings always give distinct names.
import { createHash } from 'node:crypto';

const SAFE = /^[A-Za-z0-9.:@-]$/;

/** `_` escapes: `_xx` is one UTF-8 byte in hex; `_h` starts a hash (never produced by escaping). */
export function escapeName(text: string, { escapeDots = false } = {}): string {
  let out = '';
  for (const ch of text) {
    if (SAFE.test(ch) && !(escapeDots && ch === '.')) {
      out += ch;
    } else {
      for (const byte of Buffer.from(ch, 'utf8')) out += `_${byte.toString(16).padStart(2, '0')}`;
    }
  }
  return out;
}

export function nameOf(text: string, maxBytes = 128): string {
  // "", "." and ".." are not names; escaping the dots of an all-dot string avoids the last two.
  const escaped = text === '' ? '_h' : escapeName(text, { escapeDots: /^\.+$/.test(text) });
  if (escaped.length <= maxBytes) return escaped;
  return `_h${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

// File and folder names that are safe on every file system (Windows, macOS, Linux, case-insensitive
// ones too), never escape their folder, and stay stable across syncs: a name that had to be changed,
// or that collides with another one ignoring case, gets a short hash of the original name appended.
import { createHash } from 'node:crypto';
import { trimTrailing } from '../trim';
import { redactSecretsSync } from '../store/sanitize/secrets';

// Escaped: one non-ASCII character in a bundle makes V8 hold its whole source as UTF-16 (twice the memory).
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;
const MAX_BASE = 80;

/** Short, stable hash of a name (hex). */
export function shortHash(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 8);
}

/**
 * Maps any string to a base name of `[A-Za-z0-9._-]` only: no separators, no `..`, no leading dot,
 * no trailing dot or space, no reserved device names, at most 80 characters. Lossless for tidy names.
 * A secret in the name (a server's tool name) is redacted first: the file name is on disk too.
 */
export function sanitizeName(name: string): string {
  let s = redactSecretsSync(name)
    .text.normalize('NFC')
    .replace(/[^A-Za-z0-9._-]/g, '_');
  if (s.startsWith('.')) s = '_' + s;
  const kept = trimTrailing(s, '. ');
  s = kept + '_'.repeat(s.length - kept.length);
  if (WINDOWS_RESERVED.test(s)) s = '_' + s;
  if (s.length > MAX_BASE) s = s.slice(0, MAX_BASE);
  return s === '' ? '_' : s;
}

/**
 * Assigns each name a unique safe base name. `reserved` are lower-case names already taken in the folder
 * (e.g. `index.md`). Deterministic for a given set of names, whatever their order.
 */
export function assignSafeNames(names: readonly string[], reserved: readonly string[] = []): Map<string, string> {
  const result = new Map<string, string>();
  const byKey = new Map<string, string[]>();
  for (const n of new Set(names)) {
    const base = sanitizeName(n);
    const key = base.toLowerCase();
    const group = byKey.get(key);
    if (group) group.push(n);
    else byKey.set(key, [n]);
  }
  const taken = new Set(reserved.map((r) => r.toLowerCase()));
  // Names that came through unchanged and alone keep their name; everything else gets a hash suffix.
  const needHash: string[] = [];
  for (const [key, group] of byKey) {
    const only = group.length === 1 ? group[0]! : undefined;
    if (only !== undefined && sanitizeName(only) === only && !taken.has(key)) {
      result.set(only, only);
      taken.add(key);
    } else {
      for (const n of group) needHash.push(n);
    }
  }
  for (const n of needHash.sort()) {
    const base = sanitizeName(n).slice(0, MAX_BASE - 9);
    let candidate = `${base}~${shortHash(n)}`;
    for (let k = 2; taken.has(candidate.toLowerCase()); k++) candidate = `${base}~${shortHash(n)}-${k}`;
    result.set(n, candidate);
    taken.add(candidate.toLowerCase());
  }
  return result;
}

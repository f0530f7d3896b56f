// File names safe on every file system (Windows, macOS, Linux; case-insensitive ones too).
import { createHash } from 'node:crypto';
import { trimTrailing } from '../trim';
import { redactSecretsSync } from './sanitize/secrets';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * Turns any label (a terminal name, a tool name, a session id) into one path segment that is safe on
 * every file system: only `[A-Za-z0-9._-]`, no leading dot or dash (never read as an option), no trailing dot or space, no Windows
 * device name, at most `maxLength` characters. When anything had to change, a short hash of the
 * original is appended so that two different labels never share a file (`a b` and `a_b` differ).
 * A secret in the label is redacted first: a file name is on disk like the text in it (a tool name an
 * MCP server chose, a terminal named after `mysql -p…`); the hash of the original keeps names apart.
 */
export function safeName(label: string, maxLength = 64): string {
  let s = redactSecretsSync(label)
    .text.normalize('NFC')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '');
  s = trimTrailing(s, '._ ');
  if (s === '') s = 'unnamed';
  if (WINDOWS_RESERVED.test(s.split('.')[0] ?? '')) s = `_${s}`;
  if (s === label && s.length <= maxLength) return s;
  const hash = createHash('sha256').update(label).digest('hex').slice(0, 8);
  return `${s.slice(0, Math.max(1, maxLength - hash.length - 1))}-${hash}`;
}

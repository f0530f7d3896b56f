// Private keys a stream may hold back: where one starts whose END has not arrived (PEM and OpenVPN's
// static keys), and whether one cut short has ended.
import {
  OPENVPN_KEY_BEGIN,
  OPENVPN_KEY_BLOCK,
  OPENVPN_KEY_CUT_SHORT,
  PRIVATE_KEY_BLOCK,
  PRIVATE_KEY_CUT_SHORT,
} from './rules/private-keys';
import { PRIVATE_KEY_BEGIN } from './secrets';

/**
 * Where a private key starts whose END may still come, or -1: the last BEGIN in `text`, unless a block
 * closes it. A block never spans another block's BEGIN, so an earlier one without its END never gets
 * it: it is cut short, and the rules redact it as such. PEM keys and OpenVPN's static keys alike.
 */
export function openKey(text: string): number {
  const pem = openBlock(text, 'PRIVATE KEY', PRIVATE_KEY_BEGIN, PRIVATE_KEY_BLOCK);
  const openvpn = openBlock(text, 'OpenVPN Static key', OPENVPN_KEY_BEGIN, OPENVPN_KEY_BLOCK);
  return pem === -1 ? openvpn : openvpn === -1 ? pem : Math.min(pem, openvpn);
}

function openBlock(text: string, word: string, begin: RegExp, block: RegExp): number {
  if (!text.includes(word)) return -1;
  let last = -1;
  for (const m of text.matchAll(begin)) last = m.index;
  if (last === -1) return -1;
  block.lastIndex = last;
  return block.test(text) ? -1 : last;
}

/** Whether a whole line follows the key lines of the block cut short at `begin` (more cannot join them). */
export function keyLinesEndBefore(text: string, begin: number): boolean {
  const cutShort = text.startsWith('-----BEGIN OpenVPN', begin) ? OPENVPN_KEY_CUT_SHORT : PRIVATE_KEY_CUT_SHORT;
  cutShort.lastIndex = begin;
  const m = cutShort.exec(text);
  if (!m) return false;
  const eol = text.indexOf('\n', begin + m[0].length);
  return eol !== -1 && text.indexOf('\n', eol + 1) !== -1;
}

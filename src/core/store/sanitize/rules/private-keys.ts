// Private key blocks: whole, cut short (`head` of a key file), only their end (`tail`), inside a
// quoted string, base64-encoded, OpenVPN's static keys.
import type { SecretRule } from './types';

// The text's own start and end (the rules run on whole texts; `^` and `$` would read as a line's).
const TEXT_START = '(?<![\\s\\S])';
const TEXT_END = '(?![\\s\\S])';
const BEGIN = String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`;
const END = String.raw`-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`;

/**
 * A private key block. It may span JSON records (a log that writes each line of output as a record of
 * its own), but never another block's BEGIN: a key cut short in one record (`head` of a key file) and a
 * whole one in a later record were read as one block, and the records between became one marker.
 */
export const PRIVATE_KEY_BLOCK = new RegExp(`${BEGIN}(?:(?!-----BEGIN )[\\s\\S])*?${END}`, 'y');

/** An OpenVPN static key (`tls-auth`, `tls-crypt`): 16 lines of 32 hex digits between its BEGIN and END. */
export const OPENVPN_KEY_BEGIN = /-----BEGIN OpenVPN Static key V\d-----/g;
export const OPENVPN_KEY_BLOCK =
  /-----BEGIN OpenVPN Static key V\d-----[\s\S]{0,8192}?-----END OpenVPN Static key V\d-----/y;
/** Its BEGIN and the hex lines after it, where no END follows (`head -5 ta.key`, a stream cut short). */
export const OPENVPN_KEY_CUT_SHORT =
  /-----BEGIN OpenVPN Static key V\d-----(?:\r?\n[ \t]*[0-9a-fA-F]{1,32}[ \t]*(?=\r?\n|$))*/y;
/**
 * Its hex lines and END without the BEGIN (`tail -5 ta.key`), from the first hex line of a run (a line
 * of 32 hex digits before it would start a longer match), at most 64 of them: linear in the text.
 */
const OPENVPN_KEY_TAIL =
  /(?<![^\n])(?<![0-9a-fA-F]{32}[ \t]*\r?\n)(?:[ \t]*[0-9a-fA-F]{1,32}[ \t]*\r?\n){1,64}-----END OpenVPN Static key V\d-----/g;

/**
 * A block cut short inside a JSON string (`head` of a key file in a tool's JSON result), or a list of
 * line strings as notebooks keep them: no END before the string closes, so up to its closing quote.
 */
export const PRIVATE_KEY_IN_STRING = new RegExp(
  String.raw`${BEGIN}(?:(?!-----END )(?:[^"{}\\\n]|\\[^\n]|"[ \t]*[,+]?\s*"))*(?="\s*[,}\]])`,
  'y',
);

// One line of a key's body, as a terminal, a log or a file shows it: up to 100 characters of whatever
// stands before it on its line (line numbers, grep's `file:3:`, a timestamp, `{"log":"` of a record per
// line, a quote in code), then a run of 40 or more base64 characters (PEM lines hold 64, OpenSSH 70).
const LEAD = String.raw`[^\n]{0,100}?(?<![A-Za-z0-9+/])`;
const RUN = String.raw`[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=])`;
// What may stand before a short line that is not padded: digits and marks only (after `exit 0` the `0`
// is no key).
const BARE_LEAD = String.raw`[^A-Za-z\n]{0,40}?(?<![A-Za-z0-9+/])`;
// What may follow a short line: marks, blanks, escaped line breaks and ` +` (`"…\n" +` in code, a table's
// border), or the end of its string in a record (`\n","stream":…}`).
const SHORT_END = String.raw`(?:(?:\\[nr]|[^A-Za-z0-9+/=\n]|(?<=\s)\+){0,100}|(?:\\[nr])*"\s*[,}\]][^\n]*)`;
// A word of output (`done`, `Finished`, `OK`, `42`) is no key's last line.
const NOT_A_WORD = String.raw`(?!(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)(?![A-Za-z0-9+/=]))`;
// The key's last lines after its full ones, each alone on its line (`<match type="…">` is no padded
// line): padded with `=` or PGP's checksum (`=AbCd`), a short line, or, where the text ends (cut by
// bytes), a short run or an END cut short.
const LAST = String.raw`(?:${LEAD}(?:[A-Za-z0-9+/]{1,39}={1,2}|=[A-Za-z0-9+/]{4})(?=${SHORT_END}(?:\n|${TEXT_END}))|${BARE_LEAD}${NOT_A_WORD}[A-Za-z0-9+/]{4,39}(?=${SHORT_END}\n)|${BARE_LEAD}(?:${NOT_A_WORD}[A-Za-z0-9+/]{1,39}|-{1,5}(?:E(?:N(?:D[A-Z0-9 ]*)?)?)?-{0,5})(?=\s*${TEXT_END}))`;
// Encrypted PEM and PGP armour: `Proc-Type:`, `DEK-Info:`, `Version:`, `Comment:` lines, then a blank one
// before the key lines.
const HEADERS = String.raw`(?:(?:[^\n]*\n[^\n]{0,100}?\b(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset):[^\n"\\]*)+(?:[^\n]*\n[^\n]{0,120}(?=\n${LEAD}${RUN}))?)?`;

/**
 * A block cut short (`head -5 id_rsa`, output cut by bytes): the BEGIN line (with what follows it there
 * as one line, spaces or `\n` escapes between its parts), its headers and every key line after it, up
 * to the end of the last one; what follows the key stays. A whole block is longer from the same BEGIN
 * and names the match.
 */
export const PRIVATE_KEY_CUT_SHORT = new RegExp(
  String.raw`${BEGIN}(?:(?:[ \t]|\\[nr])+[A-Za-z0-9+/=]+)*${HEADERS}(?:[^\n]*\n${LEAD}${RUN})*(?:[^\n]*\n${LAST}){0,2}`,
  'y',
);

/**
 * Only a block's end (`tail` of a key file, a log that starts mid-key): the key lines directly before
 * an END with no BEGIN, from the first of them (the last two may be short: an OpenSSH key's last line
 * has no padding). It starts only on a line that follows no key line (looked at behind, since that line
 * may end an earlier match; its test fails at once inside a line), so a long base64 blob is not searched
 * again from each of its lines.
 */
export const PRIVATE_KEY_TAIL = new RegExp(
  String.raw`(?<![^\n])(?<=${TEXT_START}|(?:${TEXT_START}|\n)(?!(?<![^\n])${LEAD}[A-Za-z0-9+/]{40})[^\n]*\n)${LEAD}(?<secret>${RUN}(?:[^\n]*\n${LEAD}${RUN})*[^\n]*(?:\n[^\n]{0,200}){0,2}?\n[^\n]{0,100}?${END})`,
  'y',
);

// A short line just before an END (a key's last line, PGP's checksum): `tail -2` of a key file shows no
// full key line. Padded, after anything a line may start with; unpadded, after digits and marks only.
const PADDED = String.raw`(?:[A-Za-z0-9+/]{4,39}={1,2}|=[A-Za-z0-9+/]{4})${SHORT_END}\n`;
const UNPADDED = String.raw`[A-Za-z0-9+/]{4,39}${SHORT_END}\n`;
const SHORT_LINE = String.raw`(?:${LEAD}${PADDED}|${BARE_LEAD}${UNPADDED})`;

/** Only a block's last line or two before its END: from the first of them. */
export const PRIVATE_KEY_TAIL_SHORT = new RegExp(
  String.raw`(?:${TEXT_START}|(?<=\n))(?:${LEAD}(?=${PADDED})|${BARE_LEAD}(?=${UNPADDED}))(?<secret>[^\n]*\n${SHORT_LINE}?[^\n]{0,100}?${END})`,
  'y',
);

/**
 * The base64 of a private key's DER, as its body's first line starts (`sed -n '2,27p' key.pem`, `grep -v
 * -- ----- key.pem`, `openssl pkey -outform DER | base64`): PKCS#1 RSA and DSA (`MIIEpAIBAAKCAQEA`:
 * a sequence, version 0, a long integer), PKCS#8 (`MIIEvQIBADANBgkqhkiG9w0BAQEFAASC`, `MIGHAgEAMBMG`),
 * encrypted PKCS#8 (PBES2's OID), SEC1 EC (`MHcCAQEE`, `MIGkAgEBBD`), Ed25519 and X25519 (`MC4CAQAwBQYDK2Vw`),
 * OpenSSH's (`openssh-key-v1`). Certificates (`MIIDdzCCAl+g`) and public keys (`MIIBIjANBgkq`,
 * `MIIBCgKCAQEA`) start otherwise and stay readable.
 */
const DER_KEY_START = String.raw`(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{2}[AQgw]IBA(?:AK[BC]|DA[A-Za-z]|DCC)|MI[GH][A-Za-z0-9+/]AgE(?:AMB|BB[DE])|MII[A-Za-z0-9+/]{5}BgkqhkiG9w0BBQ0w|MHcCAQEE|M[A-Za-z0-9+/]{2}CAQ[AE]wBQYDK2V|b3BlbnNzaC1rZXktdjE)`;

// A padded last line ends the key whatever follows it (`…YJQ=\tend` in a note): the run from the DER's
// start says it is a key's.
const PADDED_LAST = String.raw`${LEAD}[A-Za-z0-9+/]{4,63}={1,2}(?![A-Za-z0-9+/=])`;

/** A key's DER in base64 without its BEGIN: the run from its first characters, and the key lines after it. */
export const PRIVATE_KEY_DER = new RegExp(
  String.raw`${DER_KEY_START}[A-Za-z0-9+/]{16,}={0,2}(?:[^\n]*\n${LEAD}${RUN})*(?:[^\n]*\n(?:${PADDED_LAST}|${LAST})){0,2}`,
  'g',
);

/** A line that may be a key's (tested with its line break). */
const KEY_LINE = new RegExp(String.raw`(?:${LEAD}${RUN}|${SHORT_LINE})`, 'y');

/**
 * Where the lines that may be a key's last ones start in `text` before `end` (a line start), or `end`:
 * a stream holds them until it knows whether an END follows (`tail` of a key file, in any pieces).
 * Like PRIVATE_KEY_TAIL, the last one or two may be short lines of anything.
 */
export function keyLinesBefore(text: string, end: number, limit: number): number {
  const lineBefore = (at: number): { start: number; line: string } => {
    const start = text.lastIndexOf('\n', at - 2) + 1;
    return { start, line: text.slice(start, at) };
  };
  let first = end;
  for (let short = 0, at = end; short <= 2 && at > 0; short++) {
    let start = at;
    while (start > 0 && end - start <= limit) {
      const prev = lineBefore(start);
      KEY_LINE.lastIndex = 0;
      if (!KEY_LINE.test(prev.line)) break;
      start = prev.start;
    }
    if (start < at && end - start <= limit) first = Math.min(first, start);
    // Then with one more line of anything (up to 200 characters) taken as short.
    const skipped = lineBefore(at);
    if (skipped.line.length > 201) break;
    at = skipped.start;
  }
  return first;
}

const global = (re: RegExp): RegExp => new RegExp(re.source, 'g');
const BEGIN_ALONE = new RegExp(`^${BEGIN}$`);
/**
 * Whether a block holds base64 after its BEGIN line: code that only names the armour
 * (`_SK_START = b"-----BEGIN OPENSSH PRIVATE KEY-----"` and its `_SK_END` a line on) holds no key.
 */
const holdsKeyText = (block: string): boolean => /[A-Za-z0-9+/]{16}/.test(block.slice(block.indexOf('-----', 11) + 5));

export const PRIVATE_KEY_RULES: readonly SecretRule[] = [
  {
    // Kubernetes kubeconfig `client-key-data`, Secret `tls.key` and CI variables hold a PEM block
    // base64-encoded: it starts with the encoding of `-----BEGIN`.
    id: 'private-key-base64',
    title: 'Base64-encoded private key blocks (kubeconfig client-key-data, Kubernetes tls.key, …)',
    keywords: ['LS0tLS1CRUdJTi'],
    exactKeywords: true,
    pattern: /LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2}/g,
    accept: (s) => Buffer.from(s, 'base64').toString('latin1').includes('PRIVATE KEY'),
  },
  {
    id: 'private-key',
    title: 'Private key blocks: PEM (RSA, EC, DSA, PKCS#8, encrypted), OpenSSH, PGP',
    keywords: ['private key'],
    pattern: global(PRIVATE_KEY_BLOCK),
    multiline: true,
    accept: holdsKeyText,
  },
  {
    id: 'private-key',
    title: 'Private key blocks cut short inside a quoted string: up to its closing quote',
    keywords: ['private key'],
    pattern: global(PRIVATE_KEY_IN_STRING),
    multiline: true,
    accept: holdsKeyText,
  },
  {
    id: 'private-key',
    title: 'Private key blocks cut short (head of a key file): the BEGIN line and the key lines after it',
    keywords: ['private key'],
    pattern: global(PRIVATE_KEY_CUT_SHORT),
    multiline: true,
    // The BEGIN line alone holds nothing (`_SK_START = b"-----BEGIN OPENSSH PRIVATE KEY-----"` in code).
    accept: (s) => !BEGIN_ALONE.test(s),
  },
  {
    id: 'private-key',
    title: 'The end of a private key block without its BEGIN (tail of a key file): the key lines and the END line',
    keywords: ['private key'],
    pattern: global(PRIVATE_KEY_TAIL),
    multiline: true,
  },
  {
    id: 'private-key',
    title: 'The last line or two of a private key block and its END line (tail -2 of a key file)',
    keywords: ['private key'],
    pattern: global(PRIVATE_KEY_TAIL_SHORT),
    multiline: true,
  },
  {
    id: 'private-key',
    title:
      'Private key bodies without their BEGIN line (lines of a key file, DER in base64): from their first characters',
    keywords: [
      'IBAAK',
      'IBADA',
      'IBADCC',
      'AgEAMB',
      'AgEBB',
      'BgkqhkiG9w0BBQ0w',
      'MHcCAQEE',
      'wBQYDK2V',
      'b3BlbnNzaC1rZXktdjE',
    ],
    exactKeywords: true,
    pattern: PRIVATE_KEY_DER,
    multiline: true,
  },
  {
    id: 'private-key',
    title: 'OpenVPN static keys (tls-auth / tls-crypt key blocks)',
    keywords: ['openvpn static key'],
    pattern: global(OPENVPN_KEY_BLOCK),
    multiline: true,
  },
  {
    id: 'private-key',
    title: 'OpenVPN static keys cut short (head of ta.key): the BEGIN line and the hex lines after it',
    keywords: ['openvpn static key'],
    pattern: global(OPENVPN_KEY_CUT_SHORT),
    multiline: true,
    accept: (s) => s.includes('\n'),
  },
  {
    id: 'private-key',
    title: 'The end of an OpenVPN static key without its BEGIN (tail of ta.key): the hex lines and the END line',
    keywords: ['openvpn static key'],
    pattern: OPENVPN_KEY_TAIL,
    multiline: true,
  },
];

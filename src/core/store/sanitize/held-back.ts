// What a streamed output holds back before redacting, and where it cuts: a secret is found only with
// what names it (a private key's BEGIN and END, a state's `sensitive_attributes`, a Secret's `data:` key,
// a name a few lines above its value), so text that may still be followed by that is kept for the next
// batch, each kind up to a bound.
import { secretBlockStart } from './rules/kubernetes';
import { lastCommaOutsideStrings } from './rules/kubernetes-json';
import { openInstanceStart } from './rules/terraform-state-open';
import { keyLinesBefore } from './rules/private-keys';
import { cutOutside, findSecretSpans } from './secrets';

/** A private key whose END has not arrived is held back at most this long, then redacted as cut short. */
export const MAX_HELD_KEY = 64 * 1024;

/** A Kubernetes Secret's block that may go on is held back at most this long (a Secret holds up to 1 MiB). */
export const MAX_HELD_SECRET_BLOCK = 2 * 1024 * 1024;

/**
 * A Terraform state's instance (or resource, plan change) whose sensitive attributes are not named yet
 * is held back at most this long; past it, its attributes' strings are redacted whole.
 */
export const MAX_HELD_STATE = 4 * 1024 * 1024;

/** Whole lines held back with the unfinished one (see `holdBack`), up to this many characters. */
export const HELD_LINES = 8;
export const MAX_HELD_LINES_CHARS = 16 * 1024;
/**
 * A word that names a secret (the keywords of the rules that read a name and its value apart), or a line
 * a password follows: an expect script's `expect "*assword:*"`, a mail client's `USER name`, the server's
 * `334 UGFzc3dvcmQ6` ("Password:"), or an env list's value its name follows (`- value: …` / `name: DB_PASSWORD`).
 */
const NAMES_A_SECRET =
  /pass|assword|pwd|secret|token|key|credential|cookie|auth|private|^[^\w\n]{0,8}(?:(?:C:|send:|\*cmd\*)[^\w\n]{0,8})?(?:b?['"])?user[ \t]|GFzc3dvcmQ6|^[ \t]*-[ \t]+value:/im;
/** The line a PuTTY key's private lines follow (`Private-Lines: 14`), after any prefix a tool printed. */
const PUTTY_PRIVATE_LINES = /Private-Lines:[ \t]*\d+[ \t\r]*\n$/;
/** What stays held back when a long line is cut: longer than any token a rule matches (PEM aside). */
export const LONG_LINE_WINDOW = 16 * 1024;

/**
 * What cannot be redacted yet (`held`) and the rest (`out`): a private key whose END may still
 * come (`open`, up to MAX_HELD_KEY), else the unfinished last line, since a token cut there would be
 * matched in neither half, and `lines` whole lines before it (a secret named a few lines before its
 * value). A line past `longLineChars` (minified JSON from curl) is cut, but only where no secret
 * straddles the cut, and the last `LONG_LINE_WINDOW` characters stay held. `recent`: the lines sent
 * just before `text` (a state's instance may have opened there).
 */
export function holdBack(
  text: string,
  open: number,
  lines: number,
  recent: string,
  longLineChars: number,
): { out: string; held: string } {
  if (open !== -1 && text.length - open <= MAX_HELD_KEY) {
    return { out: text.slice(0, open), held: text.slice(open) };
  }
  // A Terraform state's instance whose `sensitive_attributes` may still come, with the attributes they name.
  const instance = openInstanceStart(recent, text);
  if (instance !== -1 && text.length - instance <= MAX_HELD_STATE) {
    return { out: text.slice(0, instance), held: text.slice(instance) };
  }
  // A Secret's `data:` whose entries may go on: they are found only with the block's key before them.
  const block = secretBlockStart(text, text.length);
  if (block !== -1 && text.length - block <= MAX_HELD_SECRET_BLOCK) {
    return { out: text.slice(0, block), held: text.slice(block) };
  }
  const lineStart = text.lastIndexOf('\n') + 1;
  if (text.length - lineStart <= longLineChars) {
    // A secret named on one line and given a few lines on (an env list's `- name: DB_PASSWORD` /
    // `value: …`) is found only with both in one batch.
    let keep = lineStart;
    for (let i = 0; i < lines && keep > 0; i++) {
      const prev = text.lastIndexOf('\n', keep - 2) + 1;
      if (text.length - prev > MAX_HELD_LINES_CHARS) break;
      keep = prev;
    }
    // Only when those lines name a secret: most output names none, and goes out whole.
    if (keep < lineStart && !NAMES_A_SECRET.test(text.slice(keep, lineStart))) keep = lineStart;
    // Nor is a name cut from its value, given up to `lines` lines on (`variable "db_password" {`, two
    // lines, `default = "…"`): the earliest line naming a secret among the `lines` lines just before
    // the cut is held too (one pass: at most twice `lines` lines are held).
    if (keep < lineStart)
      for (let i = 0, at = keep; i < lines && at > 0; i++) {
        const prev = text.lastIndexOf('\n', at - 2) + 1;
        if (text.length - prev > MAX_HELD_LINES_CHARS) break;
        if (NAMES_A_SECRET.test(text.slice(prev, at))) keep = prev;
        at = prev;
      }
    // Key lines just before the cut: held until a line shows whether an END follows (`tail` of a key
    // file), unless the stream is quiet after a whole line (a base64 blob is common output).
    if (lines > 0 || lineStart < text.length) keep = keyLinesBefore(text, keep, MAX_HELD_KEY);
    // PuTTY's key lines are found only after their `Private-Lines: N`: it is held with them.
    const header = text.lastIndexOf('\n', keep - 2) + 1;
    if (keep > 0 && PUTTY_PRIVATE_LINES.test(text.slice(header, keep))) keep = header;
    // Nor is a Secret's block cut by the lines held back.
    const block = keep < text.length ? secretBlockStart(text, keep) : -1;
    if (block !== -1 && block < keep && keep - block <= MAX_HELD_SECRET_BLOCK) keep = block;
    // Nor a state's instance, closed in `text`, from what marks its attributes.
    const cutInstance = keep < text.length ? openInstanceStart(recent, text.slice(0, keep)) : -1;
    if (cutInstance !== -1 && keep - cutInstance <= MAX_HELD_STATE) keep = cutInstance;
    return { out: text.slice(0, keep), held: text.slice(keep) };
  }
  const cut = longLineCut(text, lineStart);
  return { out: text.slice(0, cut), held: text.slice(cut) };
}

/**
 * Where to cut a line longer than `longLineChars` (minified JSON from curl), keeping the last
 * `LONG_LINE_WINDOW` characters: where no secret straddles the cut, after a comma outside any JSON
 * string (the next piece would read its quotes the wrong way round), and not inside a Secret's JSON map
 * (its entries would go without their key). A "secret" as long as the line itself is cut through
 * rather than held forever.
 */
function longLineCut(text: string, lineStart: number): number {
  const spans = findSecretSpans(text.slice(lineStart));
  const outside = (at: number): number => lineStart + cutOutside(spans, at - lineStart);
  let cut = outside(text.length - LONG_LINE_WINDOW);
  const comma = lastCommaOutsideStrings(text, lineStart, cut);
  if (comma > lineStart && cut - comma <= LONG_LINE_WINDOW) cut = outside(comma);
  const inside = secretBlockStart(text, cut);
  if (inside > lineStart && inside < cut && cut - inside <= MAX_HELD_SECRET_BLOCK) cut = outside(inside);
  return cut <= lineStart ? text.length - LONG_LINE_WINDOW : cut;
}

/**
 * The last `n` lines of `text` (from a line's start; the last may be unfinished), at most `max`
 * characters: else none.
 */
export function lastLines(text: string, n: number, max: number): string {
  let start = text.length;
  for (let i = 0; i < n && start > 0; i++) {
    const prev = text.lastIndexOf('\n', start - 2) + 1;
    if (text.length - prev > max) break;
    start = prev;
  }
  return start === text.length ? '' : text.slice(start);
}

// Full-screen programs (less, man, vim, htop) draw on the alternate screen, which leaves nothing in the
// normal screen or its scrollback once they exit. In xterm (6.0, InputHandler), `ESC[?1049h` saves the
// cursor (DECSC) and switches to the alternate screen; `ESC[?1049l` switches back and restores the
// cursor (DECRC). When everything between the two only touches the alternate screen or changes no text
// (NEUTRAL below), the pair and its content act on what follows exactly like `ESC 7 ESC 8`, so the
// renderer feeds those four bytes instead of emulating every cell (xterm draws such screens at about
// 3 MB/s). Anything else is fed whole, as before: content that may change the normal screen or global
// state (other modes, charsets, resets, another switch), a segment still open when the output ends (its
// screen is the last thing the person saw) and one longer than HOLD (memory stays bounded).
import { TEXT_NEUTRAL_MODES } from './line-emulator';

const OPEN = '\x1b[?1049h';
const CLOSE = '\x1b[?1049l';
const REPLACEMENT = '\x1b7\x1b8';
/** The longest segment held back to be replaced; a longer one is fed to the emulator as it comes. */
const HOLD = 1 << 20;
/** A private mode sequence (complete) or its beginning at the end of the text (incomplete). */
const PRIVATE_MODE = /\x1b\[\?([0-9;]*)([^0-9;]?)/y;
/** Modes that switch screens: a form other than OPEN leaves it unclear which screen is shown. */
const SCREEN_SWITCH = new Set(['47', '1047', '1049']);

const mode = `(?:${[...TEXT_NEUTRAL_MODES, 2026].join('|')})`;
/**
 * What may appear between OPEN and CLOSE: printable text and BEL, BS, HT, LF, VT, FF, CR; cursor
 * moves, erases, inserts, deletes, scrolls and the scroll region (all of the active screen only),
 * colours, reports and window-title operations; restoring the cursor; index, reverse index, next line;
 * keypad modes; text-neutral private modes; cursor style, mode requests and keyboard-protocol queries;
 * OSC and DCS strings (titles, colours, links, capability queries).
 * Not allowed (fed whole): saving the cursor (the alternate screen's slot outlives the session: xterm's
 * Buffer.clear keeps it, and a later session may restore it), SO/SI and charset designations,
 * insert/newline modes, tab stops, repeat, resets, other private modes, C1 controls.
 */
const NEUTRAL = new RegExp(
  [
    '[^\\x00-\\x1f\\x7f-\\x9f]+',
    '[\\x07-\\x0d]',
    '\\x1b\\[[0-9;:]*[@A-MPSTXZ`acdefmnrtu]',
    `\\x1b\\[\\?${mode}(?:;${mode})*[hl]`,
    '\\x1b\\[[<=>?][0-9;]*[cmqu]',
    '\\x1b\\[[0-9;]* q',
    '\\x1b\\[\\??[0-9;]*\\$p',
    '\\x1b[8DEM=>]',
    '\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)',
    '\\x1bP[^\\x07\\x1b]*\\x1b\\\\',
  ]
    .map((p) => `(?:${p})`)
    .join('|'),
  'y',
);

/** True when `s[from, to)` only touches the alternate screen or changes no text (see NEUTRAL). */
export function onlyTouchesAltScreen(s: string, from = 0, to = s.length): boolean {
  NEUTRAL.lastIndex = from;
  while (NEUTRAL.lastIndex < to) if (!NEUTRAL.test(s)) return false;
  return NEUTRAL.lastIndex === to;
}

/**
 * A streaming filter in front of the emulator: `filter` returns the text to feed it, with closed
 * alternate-screen segments replaced; `end` returns what is still held back.
 */
export class AltScreenSegments {
  /**
   * normal: the normal screen is shown; held: inside a segment kept in `held`; passing: inside one fed
   * as it comes; unsure: the screen was switched some other way, everything is fed as it comes.
   */
  private state: 'normal' | 'held' | 'passing' | 'unsure' = 'normal';
  /** The open segment from OPEN (state held), or an incomplete sequence at the end of the last text. */
  private held = '';
  /** Segments replaced so far (for tests). */
  replaced = 0;

  filter(text: string): string {
    if (this.state === 'unsure') return text;
    // Where CLOSE may start in s: what was searched before cannot contain it.
    const scanFrom = this.state === 'held' ? Math.max(OPEN.length, this.held.length - CLOSE.length + 1) : 0;
    const s = this.held + text;
    this.held = '';
    // Pieces joined into one new string: slices kept in the emulator's queue would each keep their
    // whole input text alive (measured: hundreds of MB for 20 MB of output).
    const out: string[] = [];
    let i = 0;
    while (i < s.length) {
      if (this.state === 'normal') {
        const k = s.indexOf('\x1b[?', i);
        if (k === -1) {
          const keep = incompleteTail(s, i);
          this.held = s.slice(s.length - keep);
          return join(out, s.slice(i, s.length - keep));
        }
        if (s.startsWith(OPEN, k)) {
          out.push(s.slice(i, k));
          const c = s.indexOf(CLOSE, k + OPEN.length);
          if (c === -1) return join(out, this.hold(s.slice(k)));
          out.push(this.closed(s, k, c));
          i = c + CLOSE.length;
          continue;
        }
        PRIVATE_MODE.lastIndex = k;
        const m = PRIVATE_MODE.exec(s)!;
        if (m[2] === '') {
          // The sequence goes on in the next text (unless it is too long to be one).
          if (s.length - k > 64) return join(out, s.slice(i));
          this.held = s.slice(k);
          return join(out, s.slice(i, k));
        }
        const end = k + m[0].length;
        if (m[2] === 'h' && m[1]!.split(';').some((p) => SCREEN_SWITCH.has(p))) {
          // Another way onto the alternate screen: from now on the screen shown is not tracked here.
          this.state = 'unsure';
          return join(out, s.slice(i));
        }
        out.push(s.slice(i, end));
        i = end;
      } else if (this.state === 'held') {
        // s starts with the held segment.
        const c = s.indexOf(CLOSE, scanFrom);
        if (c === -1) return this.hold(s);
        this.state = 'normal';
        out.push(this.closed(s, 0, c));
        i = c + CLOSE.length;
      } else {
        // passing: fed as it comes, until CLOSE (which may be split across texts).
        const c = s.indexOf(CLOSE, i);
        if (c === -1) {
          const keep = partialCloseTail(s);
          this.held = s.slice(s.length - keep);
          return join(out, s.slice(i, s.length - keep));
        }
        out.push(s.slice(i, c + CLOSE.length));
        this.state = 'normal';
        i = c + CLOSE.length;
      }
    }
    return join(out);
  }

  /** What is held back (an open segment or the start of a sequence): to feed before the output ends. */
  end(): string {
    const rest = this.held;
    this.held = '';
    this.state = 'normal'; // the emulator is disposed after this; a new one starts on the normal screen
    return rest;
  }

  /** Keeps an open segment, or gives it up (returned, to feed as it comes) when it grows beyond HOLD. */
  private hold(segment: string): string {
    if (segment.length > HOLD) {
      this.state = 'passing';
      return segment;
    }
    this.state = 'held';
    this.held = segment;
    return '';
  }

  /** The segment s[open, close + CLOSE) as fed: replaced, or whole when its content may show. */
  private closed(s: string, open: number, close: number): string {
    if (!onlyTouchesAltScreen(s, open + OPEN.length, close)) return s.slice(open, close + CLOSE.length);
    this.replaced++;
    return REPLACEMENT;
  }
}

/** The pieces and a last one as one flat string. */
function join(pieces: string[], last = ''): string {
  if (last !== '') pieces.push(last);
  return pieces.join('');
}

/** How many characters at the end of `s` (from `from`) may begin `ESC [ ?`. */
function incompleteTail(s: string, from: number): number {
  if (s.endsWith('\x1b[') && s.length - 2 >= from) return 2;
  return s.endsWith('\x1b') && s.length - 1 >= from ? 1 : 0;
}

/** How many characters at the end of `s` are a proper beginning of CLOSE. */
function partialCloseTail(s: string): number {
  for (let n = Math.min(CLOSE.length - 1, s.length); n > 0; n--) if (s.endsWith(CLOSE.slice(0, n))) return n;
  return 0;
}

/** A private mode set or reset, with its parameters. */
const MODE_SET_RESET = /\x1b\[\?([0-9;]*)([hl])/g;
/** Characters kept from one text for the next: the longest mode sequence split across texts. */
const SPLIT_KEEP = 16;

/**
 * Counts full-screen sessions that ended (the alternate screen left after it was entered), so the log
 * can say that something was drawn there: the person saw it, yet neither the terminal's scrollback nor
 * the rendered log keeps any of it, and `git log` through a pager would otherwise look like no output.
 */
export class FullScreenSessions {
  ended = 0;
  private shown = false;
  private tail = '';

  see(text: string): void {
    if (this.tail === '' && !text.includes('\x1b')) return; // no sequence here, none begun before
    const s = this.tail + text;
    MODE_SET_RESET.lastIndex = 0;
    for (let m = MODE_SET_RESET.exec(s); m; m = MODE_SET_RESET.exec(s)) {
      // A sequence wholly in the tail was seen with the previous text.
      if (m.index + m[0].length <= this.tail.length) continue;
      if (!m[1]!.split(';').some((p) => SCREEN_SWITCH.has(p))) continue;
      if (m[2] === 'h') this.shown = true;
      else if (this.shown) {
        this.shown = false;
        this.ended++;
      }
    }
    const tail = s.slice(-SPLIT_KEEP);
    this.tail = tail.includes('\x1b') ? tail : '';
  }
}

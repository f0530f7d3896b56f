// In rendered terminal output, later text can overwrite the start of a line: a token printed and then
// partly covered (`ghp_…\r⠋`, `DB_PASSWORD=…\x1b[1Gdone`) shows without the prefix or name its rule
// finds it by, while its body stays on the screen. Progress bars and spinners move the cursor back by a
// carriage return, a backspace, CSI n G (column), CSI n D (back), or a saved cursor restored (CSI s / u,
// ESC 7 / 8). The raw segments such a movement ends are read for secrets before rendering when enough of
// them is left visible, and what is left of those secrets in the rendered text is redacted under the
// same rule. A segment the cover erased (CSI K, CSI 2K, CSI J: a secret typed and erased) is not read:
// it is never shown, and remembering it would redact text that only looks like it.
import { stripControls } from '../../terminal-controls';
import { findSecretSpans, type RedactionCounts } from './secrets';

/** Secrets remembered at once (the oldest forgotten first). */
const MAX_REMEMBERED = 64;
/** Characters left of a secret that are redacted (fewer say nothing of it; the tail anchors the search). */
const MIN_REMAINS = 8;
/** An unfinished segment or line kept for the next chunk, at most (a progress line is far shorter). */
const MAX_SEGMENT = 64 * 1024;

/** What may move the cursor back on its line: a lone CR, a backspace, CSI n G / n ` / n D / u, ESC 8. */
const BACK = /\r(?!\n)|\x08|\x1b(?:\[[0-9;]*[GD`u]|8)/g;
const STRING = /\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)/y;
const OTHER_ESCAPE = /\x1b[ -/]*[0-~]/y;
/** A sequence not finished at the end of a chunk (the rest comes in the next). */
const UNFINISHED = /^\x1b(?:\[[0-?]*[ -/]*|[\]PX^_][^\x07\x1b]*|[ -/]+)?$/;
/** CSI finals that leave the cursor's line (or scroll it): what follows is on another line. */
const OTHER_LINE = new Set(['A', 'B', 'E', 'F', 'H', 'f', 'd', 'S', 'T', 'L', 'M', 'r']);

export class OverwrittenSecrets {
  /** An unfinished sequence, or a CR that may be a CRLF's, from the end of the last chunk. */
  private carry = '';
  /** Not following: the open line's raw text (its last MAX_SEGMENT characters at least). */
  private line = '';
  /** Characters dropped from the start of `line`. */
  private lineCut = 0;
  /** Following the open line, which moved the cursor back: the state below is kept. */
  private following = false;
  /** Cursor column (one cell a character). */
  private col = 0;
  /** Which line the cursor is on (a new number for each line it goes to). */
  private lineId = 0;
  private lines = 0;
  private savedCol = -1;
  private savedLine = -1;
  /** Raw text of the current segment before this chunk, and the column it started at. */
  private seg = '';
  private segFrom = 0;
  /** The segment a movement back ended, while later text covers it (`pendingRaw` '' when none). */
  private pendingRaw = '';
  private pendingFrom = 0;
  private pendingTo = 0;
  /** Where an erase to the end of the line cut what is left of it. */
  private pendingVisibleTo = 0;
  /** Raw segments enough of which is left visible, not read yet. */
  private over: string[] = [];
  /** Secret value -> its rule, oldest first. */
  private readonly values = new Map<string, string>();

  /** Reads raw decoded text, before it is rendered. */
  note(text: string): void {
    let s = this.carry + text;
    this.carry = '';
    const cut = unfinishedTail(s);
    if (cut < s.length) {
      this.carry = s.slice(cut);
      s = s.slice(0, cut);
    }
    let pos = 0;
    if (this.following) pos = this.run(s, 0);
    // Lines without a movement back are skipped: most output has none, and costs one search.
    while (!this.following) {
      BACK.lastIndex = pos;
      const m = BACK.exec(s);
      if (!m) break;
      const start = s.lastIndexOf('\n', m.index) + 1;
      // A line begun in an earlier chunk is followed from its start.
      const begun = start === 0;
      this.follow(begun ? this.lineCut : 0);
      if (begun) this.run(this.line, 0);
      [this.line, this.lineCut] = ['', 0];
      pos = this.run(s, start);
    }
    if (!this.following) {
      const nl = s.lastIndexOf('\n');
      if (nl >= pos) [this.line, this.lineCut] = [s.slice(nl + 1), 0];
      else if (pos > 0) [this.line, this.lineCut] = [s.slice(pos), 0];
      else this.line += s;
      if (this.line.length > 2 * MAX_SEGMENT) {
        this.lineCut += this.line.length - MAX_SEGMENT;
        this.line = this.line.slice(-MAX_SEGMENT);
      }
    }
    this.read();
  }

  /** Rendered text with what is left of each remembered secret (its last MIN_REMAINS or more) redacted. */
  scrub(text: string): { text: string; counts: RedactionCounts } {
    // What covers a segment so far is what was rendered: it is judged by that.
    if (this.pendingRaw !== '') {
      this.closeCover();
      this.read();
    }
    const counts: RedactionCounts = {};
    if (this.values.size === 0) return { text, counts };
    const ranges: [number, number, string][] = [];
    for (const [value, kind] of this.values) {
      const tail = value.slice(-MIN_REMAINS);
      for (let at = text.indexOf(tail); at !== -1; at = text.indexOf(tail, at + 1)) {
        let start = at;
        let k = value.length - tail.length;
        while (k > 0 && start > 0 && text[start - 1] === value[k - 1]) [start, k] = [start - 1, k - 1];
        ranges.push([start, at + tail.length, kind]);
      }
    }
    if (ranges.length === 0) return { text, counts };
    ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let out = '';
    let pos = 0;
    for (const [start, end, kind] of ranges) {
      if (end <= pos) continue;
      if (start >= pos) {
        out += text.slice(pos, start) + `[REDACTED:${kind}]`;
        counts[kind] = (counts[kind] ?? 0) + 1;
      }
      pos = end;
    }
    return { text: out + text.slice(pos), counts };
  }

  /** Starts following a line at column `col`. */
  private follow(col: number): void {
    this.following = true;
    this.col = col;
    this.segFrom = col;
    this.seg = '';
    this.pendingRaw = '';
    this.lineId = ++this.lines;
  }

  /**
   * Follows the cursor through `s` from `from` to the end of the line (returns the index after its
   * `\n`, and stops following) or of `s`. Text advances the cursor a cell a UTF-16 unit (controls other
   * than CR, LF, BS, tab and ESC included): an estimate, the rendered text decides what is redacted.
   */
  private run(s: string, from: number): number {
    let i = from;
    /** Where the current segment's raw text starts in `s`. */
    let segStart = from;
    // The next of each control that matters, found going forward only (a search per control read).
    let cr = -2;
    let lf = -2;
    let esc = -2;
    let bs = -2;
    let tab = -2;
    while (i < s.length) {
      if (cr !== -1 && cr < i) cr = s.indexOf('\r', i);
      if (lf !== -1 && lf < i) lf = s.indexOf('\n', i);
      if (esc !== -1 && esc < i) esc = s.indexOf('\x1b', i);
      if (bs !== -1 && bs < i) bs = s.indexOf('\b', i);
      if (tab !== -1 && tab < i) tab = s.indexOf('\t', i);
      let j = s.length;
      if (cr !== -1 && cr < j) j = cr;
      if (lf !== -1 && lf < j) j = lf;
      if (esc !== -1 && esc < j) j = esc;
      if (bs !== -1 && bs < j) j = bs;
      if (tab !== -1 && tab < j) j = tab;
      this.col += j - i;
      if (j === s.length) {
        i = j;
        break;
      }
      const c = s.charCodeAt(j);
      let next = j + 1;
      let to = -1; // a movement on the line, to this column
      let away = false; // a movement off the line
      let restoring = false;
      if (c === 10) {
        this.closeCover();
        this.following = false;
        this.seg = '';
        return next;
      } else if (c === 13) {
        if (s.charCodeAt(next) !== 10) to = 0;
      } else if (c === 8) {
        to = Math.max(0, this.col - 1);
      } else if (c === 9) {
        this.col = (Math.floor(this.col / 8) + 1) * 8;
      } else if (c === 27) {
        // CSI read in place (no copies on the common path): a private marker, the first parameter,
        // whether there are more, then intermediates and the final character.
        let k = j + 2;
        let mark = 0;
        let n = 0;
        let semi = -1;
        let f = s.charCodeAt(j + 1) === 0x5b ? s.charCodeAt(k) : -1;
        if (f >= 0x3c && f <= 0x3f) [mark, f] = [f, s.charCodeAt(++k)];
        for (; f >= 0x30 && f <= 0x3f; f = s.charCodeAt(++k)) {
          if (f === 0x3b && semi === -1) semi = k;
          else if (semi === -1 && f <= 0x39) n = n * 10 + f - 0x30;
        }
        while (f >= 0x20 && f <= 0x2f) f = s.charCodeAt(++k);
        if (f >= 0x40 && f <= 0x7e) {
          next = k + 1;
          if (mark !== 0 || f === 0x6d) {
            // modes, colours: nothing moves
          } else if (f === 0x47 || f === 0x60)
            to = Math.max(1, n) - 1; // G, `
          else if (f === 0x44)
            to = Math.max(0, this.col - Math.max(1, n)); // D
          else if (f === 0x43)
            to = this.col + Math.max(1, n); // C
          else if (f === 0x4b || f === 0x4a) {
            // K, J
            if (n === 0 && this.pendingRaw !== '') this.pendingVisibleTo = Math.min(this.pendingVisibleTo, this.col);
            if (n !== 0) {
              // Erased up to the cursor (1) or all of the line (2, 3): the segments on it go.
              if (n !== 1) this.pendingRaw = '';
              this.seg = '';
              segStart = next;
              this.segFrom = this.col;
            }
          } else if (f === 0x73)
            [this.savedCol, this.savedLine] = [this.col, this.lineId]; // s
          else if (f === 0x75)
            [to, away, restoring] = this.restore(); // u
          else if (OTHER_LINE.has(String.fromCharCode(f))) {
            away = true;
            if (f === 0x48 || f === 0x66)
              to = semi === -1 ? 0 : Math.max(1, parseInt(s.slice(semi + 1, k), 10) || 1) - 1;
            else if (f === 0x45 || f === 0x46 || f === 0x72) to = 0;
          }
        } else {
          STRING.lastIndex = j;
          OTHER_ESCAPE.lastIndex = j;
          const esc = STRING.exec(s) ?? OTHER_ESCAPE.exec(s);
          if (esc) {
            next = j + esc[0].length;
            const k = esc[0];
            if (k === '\x1b7') [this.savedCol, this.savedLine] = [this.col, this.lineId];
            else if (k === '\x1b8') [to, away, restoring] = this.restore();
            else if (k === '\x1bM' || k === '\x1bD' || k === '\x1bE' || k === '\x1bc') away = true;
          }
        }
      }
      if (to !== -1 || away) {
        const width = this.col - this.segFrom;
        // The cover of the pending segment ends where later text moves the cursor again.
        if (width > 0 || away) this.closeCover();
        if (!away && to < this.col && width >= MIN_REMAINS) {
          this.pendingRaw = this.seg + s.slice(segStart, j);
          this.pendingFrom = this.segFrom;
          this.pendingTo = this.col;
          this.pendingVisibleTo = this.col;
        }
        if (away) this.lineId = restoring ? this.savedLine : ++this.lines;
        if (to !== -1) this.col = to;
        this.seg = '';
        segStart = next;
        this.segFrom = this.col;
      }
      i = next;
    }
    this.seg += s.slice(segStart, i);
    if (this.seg.length > 2 * MAX_SEGMENT) this.seg = this.seg.slice(-MAX_SEGMENT);
    return i;
  }

  /**
   * Where a restored cursor goes: [column, false, true] on this line, [column, true, true] on another,
   * [-1, true, false] when nothing was saved.
   */
  private restore(): [number, boolean, boolean] {
    if (this.savedCol === -1) return [-1, true, false];
    return [this.savedCol, this.savedLine !== this.lineId, true];
  }

  /** The pending segment is judged: read when MIN_REMAINS or more of it is still left visible. */
  private closeCover(): void {
    if (this.pendingRaw === '') return;
    const visible = Math.min(this.pendingTo, this.pendingVisibleTo) - Math.max(this.pendingFrom, this.col);
    if (visible >= MIN_REMAINS) this.over.push(this.pendingRaw);
    this.pendingRaw = '';
  }

  private read(): void {
    if (this.over.length === 0) return;
    const plain = stripControls(this.over.join('\n'));
    this.over = [];
    for (const span of findSecretSpans(plain)) {
      const value = plain.slice(span.start, span.end);
      if (value.length < MIN_REMAINS) continue;
      this.values.delete(value);
      this.values.set(value, span.kind);
      if (this.values.size > MAX_REMEMBERED) this.values.delete(this.values.keys().next().value!);
    }
  }
}

/** Where an unfinished sequence, or a CR that may be a CRLF's, starts at the end of `s` (or its length). */
function unfinishedTail(s: string): number {
  let cut = s.charCodeAt(s.length - 1) === 13 ? s.length - 1 : s.length;
  const esc = s.lastIndexOf('\x1b');
  if (esc !== -1 && s.length - esc < 4096 && UNFINISHED.test(s.slice(esc, cut))) cut = Math.min(cut, esc);
  return cut;
}

// One reading of a shell command line into its simple commands, shared by everything that judges a line
// before it runs (program words, package scripts, folder changes, store writes). Quotes, escapes,
// comments, `$( )`, backticks and process substitution are followed as a POSIX shell does, so a
// separator or redirection inside quotes (`echo "a; cd evil"`, `echo 'x > .context-desk/h'`) is text,
// and one inside `$( )` or a backtick starts a command of its own. The code of `bash -c '…'` and
// `eval '…'` is read as commands too. It is a reading for warnings, not a shell: what only the shell can
// know (expansions, aliases) is left as written, and an unclosed quote runs to the end of the line.

/** A word of a command: `text` with quotes and escapes removed, `raw` as written. */
export interface ShellWord {
  text: string;
  raw: string;
}

/** A simple command: its words, its redirections' targets with their operator, where it starts. */
export interface SimpleCommand {
  words: ShellWord[];
  redirects: { op: string; target: ShellWord }[];
  start: number;
}

/** Shells whose `-c` code is read as commands of the line. */
const SHELLS = /^(?:sh|bash|zsh|dash|ksh|mksh|ash|fish)$/;
/** Words before the program that run it (`sudo`, `env X=1`) or open a compound command (`if`, `{`). */
export const PREFIXES = new Set(
  'if then else elif do while until ! { } time sudo doas env exec command builtin nohup nice timeout xargs npx bunx pnpx uvx'.split(
    ' ',
  ),
);
/** How deep `bash -c` in `bash -c` is followed. */
const MAX_DEPTH = 4;
/** How deep `$( )` and backticks in one another are followed. */
const MAX_NESTING = 64;

const REDIRECT = /&>>|&>|>>|>\||>&|<<<|<<-|<<|<&|<>|>|</y;

/** A variable assignment word (`A=1`, `PATH+=x`). */
export const isAssignment = (word: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word);

/**
 * Options of PREFIXES words that take the next word as their value (`sudo -u root`, `xargs -I {}`,
 * `env -C dir`, `timeout -s KILL 5`): that word is not the program.
 */
const VALUE_OPTIONS: Record<string, RegExp> = {
  sudo: /^-[ugCDhprtUTR]$|^--(?:user|group|chdir|chroot|host|prompt|role|type|other-user|command-timeout)$/,
  doas: /^-[uC]$/,
  env: /^-[uCS]$|^--(?:unset|chdir|split-string)$/,
  exec: /^-a$/,
  nice: /^-n$|^--adjustment$/,
  timeout: /^-[sk]$|^--(?:signal|kill-after)$/,
  time: /^-[fo]$|^--(?:format|output)$/,
  xargs: /^-[aEdILnPs]$|^--(?:arg-file|delimiter|max-lines|max-args|max-procs|max-chars|process-slot-var)$/,
  npx: /^-[pc]$|^--(?:package|call)$/,
};

/** The index of a command's program word: past assignments, PREFIXES words and options among them. */
export function programIndex(words: readonly ShellWord[]): number {
  let i = 0;
  let prefix = '';
  while (
    i < words.length &&
    (isAssignment(words[i]!.raw) || PREFIXES.has(words[i]!.raw) || /^(?:-|\d+$)/.test(words[i]!.raw))
  ) {
    const raw = words[i]!.raw;
    if (PREFIXES.has(raw)) prefix = raw;
    i += VALUE_OPTIONS[prefix]?.test(raw) ? 2 : 1;
  }
  return Math.min(i, words.length);
}

class Reader {
  /** The line's own commands (also those in its `$( )` and backticks). */
  readonly out: SimpleCommand[] = [];
  /** The commands of the code its `bash -c` and `eval` run. */
  readonly inner: SimpleCommand[] = [];
  private nesting = 0;
  constructor(
    private readonly line: string,
    private readonly depth: number,
  ) {}

  /** Reads from `i` until `stop` (outside quotes) or the end; returns the index after the stop. */
  read(i: number, stop: ')' | '`' | ''): number {
    const { line } = this;
    let cmd: SimpleCommand = { words: [], redirects: [], start: i };
    let raw = '';
    let text = '';
    let inWord = false;
    let redirect: string | undefined;
    const endWord = (): void => {
      if (!inWord) return;
      const word = { text, raw };
      if (redirect !== undefined) cmd.redirects.push({ op: redirect, target: word });
      else cmd.words.push(word);
      redirect = undefined;
      raw = text = '';
      inWord = false;
    };
    const endCommand = (next: number): void => {
      endWord();
      if (cmd.words.length > 0 || cmd.redirects.length > 0) this.finish(cmd);
      cmd = { words: [], redirects: [], start: next };
    };
    const add = (r: string, t = r): void => {
      if (!inWord && cmd.words.length === 0 && cmd.redirects.length === 0) cmd.start = i;
      raw += r;
      text += t;
      inWord = true;
    };
    while (i < line.length) {
      const c = line[i]!;
      if (c === stop) {
        endCommand(i + 1);
        return i + 1;
      }
      if (c === '\\') {
        // A backslash-newline joins lines; any other escaped character is itself.
        if (line[i + 1] !== '\n') add(line.slice(i, i + 2), line[i + 1] ?? '');
        i += 2;
      } else if (c === "'") {
        const end = line.indexOf("'", i + 1);
        const close = end === -1 ? line.length : end;
        add(line.slice(i, close + 1), line.slice(i + 1, close));
        i = close + 1;
      } else if (c === '"') {
        i = this.doubleQuoted(i, add);
      } else if ((c === '$' || c === '<' || c === '>') && line[i + 1] === '(' && (c === '$' || !inWord)) {
        // `$( )` and `<( )`, `>( )`: a command of its own; the word keeps it as written.
        const end = this.nested(i + 2, ')');
        add(line.slice(i, end));
        i = end;
      } else if (c === '`') {
        const end = this.nested(i + 1, '`');
        add(line.slice(i, end));
        i = end;
      } else if (c === '#' && !inWord) {
        const end = line.indexOf('\n', i);
        i = end === -1 ? line.length : end;
      } else if (/[;&|\n()]/.test(c) && !(c === '&' && line[i + 1] === '>')) {
        endCommand(i + 1);
        i++;
      } else if (c === '<' || c === '>' || c === '&') {
        // A redirection; a word of digits or `{fd}` right before it is its file descriptor.
        if (inWord && /^(?:\d+|\{\w+\})$/.test(raw)) {
          raw = text = '';
          inWord = false;
        }
        endWord();
        REDIRECT.lastIndex = i;
        const op = REDIRECT.exec(line)![0];
        redirect = op;
        i += op.length;
      } else if (/\s/.test(c)) {
        endWord();
        i++;
      } else {
        add(c);
        i++;
      }
    }
    endCommand(i);
    return i;
  }

  /** A double-quoted part from `i` (the quote): `\` escapes only `$ \` " newline`; `$( )` and backticks nest. */
  private doubleQuoted(i: number, add: (raw: string, text?: string) => void): number {
    const { line } = this;
    let j = i + 1;
    let text = '';
    while (j < line.length && line[j] !== '"') {
      const c = line[j]!;
      if (c === '\\' && /[$`"\\\n]/.test(line[j + 1] ?? '')) {
        if (line[j + 1] !== '\n') text += line[j + 1];
        j += 2;
      } else if (c === '$' && line[j + 1] === '(') {
        const end = this.nested(j + 2, ')');
        text += line.slice(j, end);
        j = end;
      } else if (c === '`') {
        const end = this.nested(j + 1, '`');
        text += line.slice(j, end);
        j = end;
      } else {
        text += c;
        j++;
      }
    }
    add(line.slice(i, j + 1), text);
    return j + 1;
  }

  /** Reads a nested command list from `i` up to `stop`, adding its commands; returns the index after it. */
  private nested(i: number, stop: ')' | '`'): number {
    // Deeper than MAX_NESTING (`$($($(…` 10,000 times would overflow the stack), the rest is read at
    // this level: its commands are still found, only where each substitution ends is not.
    if (this.nesting >= MAX_NESTING) return i;
    this.nesting++;
    const end = this.read(i, stop);
    this.nesting--;
    return end;
  }

  /** Keeps a finished command, and reads the code a shell's `-c` or `eval` runs as commands too. */
  private finish(cmd: SimpleCommand): void {
    this.out.push(cmd);
    if (this.depth >= MAX_DEPTH) return;
    const at = programIndex(cmd.words);
    const words = cmd.words.slice(at);
    const program = (words[0]?.text ?? '').split('/').pop()!;
    const codes: string[] = [];
    if (program === 'eval')
      codes.push(
        words
          .slice(1)
          .map((w) => w.text)
          .join(' '),
      );
    else if (SHELLS.test(program)) {
      const c = words.findIndex((w, k) => k > 0 && /^-[a-z]*c[a-z]*$/i.test(w.text) && !w.text.startsWith('--'));
      const code = c === -1 ? undefined : words.slice(c + 1).find((w) => !/^[-+]/.test(w.text))?.text;
      if (code !== undefined) codes.push(code);
      // Without -c, a shell runs what a here-string gives it (`bash <<< 'cd evil'`).
      else for (const r of cmd.redirects) if (r.op === '<<<') codes.push(r.target.text);
    } else if (program === 'alias')
      // `alias x='cd evil'; x`: what the alias runs where it is used.
      for (const w of words.slice(1)) {
        if (w.text.includes('=')) codes.push(w.text.slice(w.text.indexOf('=') + 1));
      }
    else if (program === 'trap') {
      // `trap 'code' DEBUG`: run before each command, or on exit.
      const code = words.slice(1).find((w) => !w.text.startsWith('-'))?.text;
      if (code !== undefined) codes.push(code);
    }
    // `env -S 'prog args'` splits its value into the program and its words.
    const env = cmd.words.findIndex((w, k) => k < at && w.raw === 'env');
    const split = cmd.words.findIndex((w, k) => k > env && k < at && /^(?:-S|--split-string)$/.test(w.text));
    if (env !== -1 && split !== -1)
      codes.push([cmd.words[split + 1]?.text ?? '', ...words.map((x) => x.text)].join(' '));
    // Loops, not push(...list): a hostile line's lists can exceed what a call's arguments may hold.
    for (const code of promptCode(cmd.words)) codes.push(code);
    for (const code of codes)
      if (code !== '') for (const c of simpleCommandsAt(code, this.depth + 1)) this.inner.push(c);
  }
}

/**
 * Code the shell runs later from the prompt variables a command sets: PROMPT_COMMAND's value before each
 * prompt; the `$( )` and backticks of PS0, PS1, PS2 and PS4 (PS4's with `set -x`, before each command).
 */
function promptCode(words: ShellWord[]): string[] {
  const at = programIndex(words);
  const setting = /^(?:export|declare|typeset|local|readonly)$/.test(words[at]?.text ?? '') ? words.slice(at + 1) : [];
  return [...words.slice(0, at), ...setting].flatMap((w) => {
    const m = /^(PROMPT_COMMAND|PS[0124])\+?=(.*)$/s.exec(w.text);
    if (!m) return [];
    // A prompt is read as a double-quoted word: only its substitutions are commands.
    return [m[1] === 'PROMPT_COMMAND' ? m[2]! : `: "${m[2]!.replace(/["\\]/g, '\\$&')}"`];
  });
}

function simpleCommandsAt(line: string, depth: number): SimpleCommand[] {
  const reader = new Reader(line, depth);
  reader.read(0, '');
  return [...reader.out.sort((a, b) => a.start - b.start), ...reader.inner];
}

/**
 * The simple commands of `line`, in the order they start (a command in `$( )` after the one it is an
 * argument of), followed by those of the code each `bash -c` or `eval` runs (`start` is then in that code).
 */
export function simpleCommands(line: string): SimpleCommand[] {
  return simpleCommandsAt(line, 0);
}

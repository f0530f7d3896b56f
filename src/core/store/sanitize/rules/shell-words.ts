// Pieces of shell syntax the command rules share: a word, the rest of one command, its options and its
// end, and what counts as a secret given to one.
import { isPlaceholder, unquote } from './types';

/** One shell word: quoted, or a run up to whitespace, a quote or a shell operator. */
export const WORD_CHAR = String.raw`[^\s'"|;&<>()]`;
export const WORD = `${WORD_CHAR}+`;
export const ARG = String.raw`(?:'[^'\n]*'|"(?:[^"\\\n]|\\.)*"|${WORD})`;

/**
 * The rest of a command up to what is looked for, within one command (not past a pipe, a list or the
 * line's end) and at most 1 KB of it: each search from a start stays short, so a long line stays linear.
 */
export const IN_COMMAND = String.raw`[^\n|;&]{0,1024}?`;

/**
 * Options before the arguments: `--profile dev`, `--global`, `-q`. Each is read one way (`--x` is not also
 * `-` and `-x`): two ways each made a line of them exponential.
 */
export const OPTIONS = String.raw`(?:[ \t]+-{1,2}\w[\w-]*(?:=\S+)?)*`;

/**
 * Where a command ends: the line, a pipe, a list, a redirection, a subshell's close, or the string that
 * holds it (`sh -c "…"`, a JSON string, a CSV cell), also with its line break or quote escaped.
 */
export const COMMAND_END = String.raw`(?=[ \t]*(?:$|[|;&<>)"\x60]|2>|\\[nrt"]))`;

/**
 * The secret itself, not a variable (`$PW`), a stand-in or a documentation name in capitals
 * (`ACCESS_KEY SECRET_KEY` in a usage line).
 */
export const literal = (s: string): boolean =>
  !isPlaceholder(s) && !/^\$/.test(unquote(s)) && !/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(unquote(s));

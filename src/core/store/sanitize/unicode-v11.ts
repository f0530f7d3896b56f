// Character widths of Unicode 11, as VS Code's terminal shows them (terminal.integrated.unicodeVersion,
// default "11", loads xterm's Unicode 11 addon): an emoji such as 🚀 or ✅ takes two cells there, one in
// @xterm/headless's default Unicode 6 widths, so text written after one and a cursor move landed one
// cell off in the rendered log. The provider is the addon's own, taken from its activation: the fast
// renderers (cell-width.ts) ask it for widths without a terminal.
import { Unicode11Addon } from '@xterm/addon-unicode11';
import type { IUnicodeVersionProvider } from '@xterm/headless';

function addonProvider(): IUnicodeVersionProvider {
  let provider: IUnicodeVersionProvider | undefined;
  const host = { unicode: { register: (p: IUnicodeVersionProvider) => (provider = p) } };
  new Unicode11Addon().activate(host as unknown as Parameters<Unicode11Addon['activate']>[0]);
  if (!provider) throw new Error('@xterm/addon-unicode11 registered no Unicode version');
  return provider;
}

/** The provider for `term.unicode.register` (version "11"). */
export const UNICODE_11: IUnicodeVersionProvider = addonProvider();

/** Cells a code point takes in Unicode 11 (0 for combining marks and controls). */
export const unicode11Width = (cp: number): 0 | 1 | 2 => UNICODE_11.wcwidth(cp) as 0 | 1 | 2;

/**
 * The character widths a terminal uses: `terminal.integrated.unicodeVersion` ("11" by default; "6" is
 * xterm's own). The fast renderers' widths (cell-width.ts) are the same in both.
 */
export type UnicodeVersion = '6' | '11';

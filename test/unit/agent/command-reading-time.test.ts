// What an approval reads from a command line (its commands, folder changes, store writes, loaded code,
// look-alike words) comes from the model: a hostile line must not hold the extension host. Each reading
// is linear in the line's length and never overflows the stack (a 400 KB line of `cd` and writes took
// 198 s when each write was resolved from every folder; a long `bash -c` code threw a RangeError).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storeWriteWarning } from '../../../src/core/agent/tools/store-writes';
import { folderChanges } from '../../../src/core/agent/tools/folder-changes';
import { lookAlikeWarning } from '../../../src/core/agent/tools/look-alike';
import { loadedCodeWarning } from '../../../src/core/agent/tools/loaded-code';
import { assertQuick } from '../../support/linear-time';

const N = 400_000;
const LINES: Record<string, string> = {
  'cd and writes': 'echo a; cd b && ls > x | cat\n'.repeat(N / 28),
  'distinct folders': Array.from({ length: N / 16 }, (_, i) => `cd d${i}; echo > f${i}`).join(';'),
  'bash -c code': `bash -c "${'bash -c \\"'.repeat(4)}${'x;'.repeat(N / 2)}"`,
  'find -exec': `find . ${'-exec cp x .context-desk/y '.repeat(N / 30)}`,
  'here-documents': 'python3 - <<EOF;'.repeat(N / 16),
  aliases: `alias ${'a=b '.repeat(N / 4)}`,
  'prompt code': `PS1="${'$(x)'.repeat(N / 4)}"`,
  'nested substitutions': '$('.repeat(N / 2),
  'git options': `git ${'-c core.pager=x '.repeat(N / 17)}status`,
  'prefix options': `${'sudo -u r xargs -I {} env -S x '.repeat(N / 32)}rm .context-desk/h`,
  'here-strings': "bash <<< 'cd x; rm .context-desk/h';".repeat(N / 36),
  'env -S words': `env -S x ${'-S y '.repeat(N / 5)}`,
  'git -C folders': `git ${'-C a '.repeat(N / 5)}init; env ${'-C b '.repeat(N / 5)}rm x`,
  'shells fed input': `echo .context-desk | sh ${'-s '.repeat(N / 6)};`,
  'xargs writers': 'echo .context-desk | xargs rm;'.repeat(N / 32),
  exports: `export ${'LD_PRELOAD '.repeat(N / 11)}`,
};

for (const [name, line] of Object.entries(LINES))
  test(`an approval reads a 400 KB line of ${name} in linear time`, () => {
    const started = performance.now();
    storeWriteWarning(line, '/w', '/w/.context-desk');
    folderChanges(line);
    lookAlikeWarning(line);
    loadedCodeWarning(line);
    assertQuick(started);
  });

test('a find with many -exec names each write into the store once it reads them', () => {
  assert.match(storeWriteWarning(LINES['find -exec']!, '/w', '/w/.context-desk') ?? '', /writes into the Context Desk/);
});

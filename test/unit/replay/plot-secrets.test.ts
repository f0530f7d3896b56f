// `--plot` names a single trajectory by its path in the SVG's subtitle: a secret in that file name
// is redacted before the SVG is written, as in everything else the CLI writes to a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/cli';

// A fake GitHub token (test/fixtures/secrets/README.md).
const KEY = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

test('--plot does not write a secret in the trajectory file name into the SVG', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cd-plot-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const src = join(dir, `run-${KEY}.json`);
  writeFileSync(
    src,
    JSON.stringify([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
      { role: 'assistant', content: 'd' },
    ]),
  );
  const svg = join(dir, 'plot.svg');
  const r = await runCli(['replay', src, '--strategy', 'raw', '--plot', svg]);
  assert.equal(r.code, 0, r.err);
  const text = readFileSync(svg, 'utf8');
  assert.match(text, /^<svg[\s\S]*<\/svg>\s*$/, 'still an SVG');
  assert.match(text, /trajectory .*run-\[REDACTED:github-token\]\.json/);
  assert.ok(!text.includes(KEY.slice(4, 16)), text);
});

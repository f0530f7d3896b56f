// The VSIX README carries its images inline: relative PNG links become data: URLs, everything else stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineImages } from '../../scripts/package';

test('relative images are inlined; links, remote images and paths outside the folder are left alone', () => {
  const read = (p: string): Buffer => Buffer.from(`bytes of ${p}`);
  const md = [
    '![shot](media/a.png) and ![x](./media/b.JPG)',
    '[a link](media/a.png) ![remote](https://example.org/c.png) ![up](../secret.png) ![svg](media/d.svg)',
  ].join('\n');
  const out = inlineImages(md, read);
  assert.equal(
    out,
    [
      `![shot](data:image/png;base64,${Buffer.from('bytes of media/a.png').toString('base64')}) and ![x](data:image/jpeg;base64,${Buffer.from('bytes of media/b.JPG').toString('base64')})`,
      '[a link](media/a.png) ![remote](https://example.org/c.png) ![up](../secret.png) ![svg](media/d.svg)',
    ].join('\n'),
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { anthropicImageTokens, imageSize } from '../../../src/core/trajectories/image-tokens';
import { loadTrajectoryFile } from '../../../src/core/trajectories';
import { createTokenizer } from '../../../src/core/tokens';
import { DEFAULT_REPLAY_OPTIONS, replayTrajectory } from '../../../src/core/replay/replay';

const fixtures = join(__dirname, '../../fixtures/trajectories');

const png = (w: number, h: number) => {
  const b = Buffer.alloc(33);
  b.writeUInt32BE(0x89504e47, 0);
  b.writeUInt32BE(0x0d0a1a0a, 4);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b;
};
const gif = (w: number, h: number) => {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(w, 6);
  b.writeUInt16LE(h, 8);
  return b;
};
// SOI, an APP0 segment (metadata before the frame), SOF2 (progressive) with the size.
const jpeg = (w: number, h: number) =>
  Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x04,
    0x4a,
    0x46,
    0xff,
    0xc2,
    0x00,
    0x11,
    0x08,
    h >> 8,
    h & 255,
    w >> 8,
    w & 255,
    3,
    0,
    0,
    0,
  ]);
const webpX = (w: number, h: number) => {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.write('WEBPVP8X', 8, 'latin1');
  b.writeUIntLE(w - 1, 24, 3);
  b.writeUIntLE(h - 1, 27, 3);
  return b;
};

test('image sizes are read from PNG, GIF, JPEG and WebP headers; a cut or unknown header has none', () => {
  assert.deepEqual(imageSize(png(1000, 500)), { width: 1000, height: 500 });
  assert.deepEqual(imageSize(gif(320, 200)), { width: 320, height: 200 });
  assert.deepEqual(imageSize(jpeg(640, 480)), { width: 640, height: 480 });
  assert.deepEqual(imageSize(webpX(800, 600)), { width: 800, height: 600 });
  assert.equal(imageSize(png(1000, 500).subarray(0, 20)), undefined);
  assert.equal(imageSize(jpeg(640, 480).subarray(0, 12)), undefined);
  assert.equal(imageSize(Buffer.from('not an image')), undefined);
});

test("Anthropic's tokens are width × height / 750 for images it does not scale down; larger ones are unknown", () => {
  assert.equal(anthropicImageTokens(png(1000, 500).toString('base64')), Math.ceil(500_000 / 750));
  assert.equal(anthropicImageTokens(png(2000, 100).toString('base64')), undefined, 'long edge over 1,568 px');
  assert.equal(anthropicImageTokens(png(1100, 1100).toString('base64')), undefined, 'over 1.15 megapixels');
  assert.equal(anthropicImageTokens('iVBORw0KGgo='), undefined, 'a PNG signature without its header');
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1568 }), fc.integer({ min: 1, max: 1568 }), (w, h) => {
      const n = anthropicImageTokens(png(w, h).toString('base64'));
      assert.equal(n, w * h > 1_150_000 ? undefined : Math.ceil((w * h) / 750));
    }),
  );
});

test('replay counts an Anthropic image of known size in every call that sends it; masking its tool result drops it', async () => {
  const image = {
    type: 'image',
    source: { type: 'base64', media_type: 'image/png', data: png(1000, 500).toString('base64') },
  };
  const turn = (i: number) => [
    { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'shot', input: {} }] },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `t${i}`,
          content: [{ type: 'text', text: `shot ${i}\n${'page text '.repeat(200)}` }, image],
        },
      ],
    },
  ];
  const request = {
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'Look at the page.' }, ...Array.from({ length: 14 }, (_, i) => turn(i)).flat()],
  };
  const file = join(mkdtempSync(join(tmpdir(), 'cd-image-')), 'request.json');
  writeFileSync(file, JSON.stringify(request));
  const [t] = await loadTrajectoryFile(file);
  assert.ok(t);
  assert.equal(t.uncountedMedia, undefined, 'every image was counted');
  assert.match(t.warnings!.join('\n'), /14 images counted as Anthropic bills them/);
  const tool = t.messages.filter((m) => m.role === 'tool');
  assert.deepEqual(new Set(tool.map((m) => m.mediaTokens)), new Set([667]));
  const tokenizer = createTokenizer('o200k');
  const withoutImages = { ...t, messages: t.messages.map(({ mediaTokens: _m, ...m }) => m) };
  const options = { ...DEFAULT_REPLAY_OPTIONS, window: 10 };
  const raw = await replayTrajectory(t, 'raw', options, tokenizer);
  const text = await replayTrajectory(withoutImages, 'raw', options, tokenizer);
  raw.calls.forEach((c, k) => assert.equal(c.contextTokens - text.calls[k]!.contextTokens, 667 * Math.min(k, 14)));
  const masked = await replayTrajectory(t, 'masking', options, tokenizer);
  const last = masked.calls[masked.calls.length - 1]!;
  assert.ok(last.maskedObservations > 0);
  const textMasked = await replayTrajectory(withoutImages, 'masking', options, tokenizer);
  // The text is longer than a placeholder: both mask the same observations, the images go with them.
  assert.equal(textMasked.calls[textMasked.calls.length - 1]!.maskedObservations, last.maskedObservations);
  const kept = 14 - last.maskedObservations;
  assert.equal(last.contextTokens - textMasked.calls[textMasked.calls.length - 1]!.contextTokens, 667 * kept);
});

test('Claude Code counts a screenshot in a tool result; Cline, whose history has this shape for any provider, does not', async () => {
  const data = png(800, 600).toString('base64');
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data } };
  const dir = mkdtempSync(join(tmpdir(), 'cd-image-'));
  const session = readFileSync(join(fixtures, 'claude-code-session.jsonl'), 'utf8')
    .split('\n')
    .map((line) => {
      if (!line.includes('"toolu_B", "type": "tool_result"')) return line;
      const r = JSON.parse(line) as { message: { content: { content: unknown[] }[] } };
      r.message.content[0]!.content.push(image);
      return JSON.stringify(r);
    })
    .join('\n');
  writeFileSync(join(dir, 'session.jsonl'), session);
  const [claude] = await loadTrajectoryFile(join(dir, 'session.jsonl'));
  assert.equal(claude!.uncountedMedia, undefined);
  assert.deepEqual(
    claude!.messages.filter((m) => m.mediaTokens !== undefined).map((m) => [m.role, m.mediaTokens]),
    [['tool', 640]],
  );
  const cline = JSON.parse(readFileSync(join(fixtures, 'cline-task/api_conversation_history.json'), 'utf8')) as {
    role: string;
    content: unknown;
  }[];
  cline.push({ role: 'user', content: [{ type: 'text', text: 'This is the page.' }, image] });
  writeFileSync(join(dir, 'api_conversation_history.json'), JSON.stringify(cline));
  const [t] = await loadTrajectoryFile(join(dir, 'api_conversation_history.json'));
  assert.equal(t!.format, 'cline');
  assert.equal(t!.uncountedMedia, 1);
  assert.ok(t!.messages.every((m) => m.mediaTokens === undefined));
});

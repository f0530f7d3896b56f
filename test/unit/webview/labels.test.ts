// The panel's words: plurals, costs that say their unit, masking labels that say what the model sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  costLabel,
  maskedLabel,
  outputLabels,
  plural,
  sessionMeta,
  UNIT_TOOLTIP,
} from '../../../src/webview/lib/labels';
import { fullOutputLine, parseFullOutputLine } from '../../../src/core/store/tool-outputs';
import { describeRunError, retryActivity } from '../../../src/extension/agent/runErrors';

test('plurals: 1 line, 0 lines, 1,502 lines', () => {
  assert.equal(plural(1, 'line'), '1 line');
  assert.equal(plural(0, 'line'), '0 lines');
  assert.equal(plural(1502, 'line'), '1,502 lines');
  assert.equal(plural(2, 'entry', 'entries'), '2 entries');
});

test('cost is money when the price is known, else units that say what they are', () => {
  assert.deepEqual(costLabel({ costUnits: 13_500 }), { text: '13.5k units', title: UNIT_TOOLTIP });
  assert.match(UNIT_TOOLTIP, /input-token equivalents/);
  const money = costLabel({ costUnits: 13_500, costUsd: 0.0405 });
  assert.equal(money.text, '$0.04');
  assert.match(money.title, /13\.5k units/);
});

test('cost carries ≈ by the budget rule: calls the provider did not report are billed by our estimate', () => {
  const totals = { tokensSent: 1, cachedTokens: 0, outputTokens: 1, reportedInputTokens: 1, reportedCachedTokens: 0 };
  // Claude via VS Code's language models: nothing reported, the cost is our scaled count's.
  const lm = { costUnits: 13_500, calls: 3, estimated: true, totals: { ...totals, reportedCalls: 1 } };
  assert.equal(costLabel({ ...lm, costUsd: 0.0405 }).text, '≈ $0.04');
  assert.match(costLabel({ ...lm, costUsd: 0.0405 }).title, /^≈ \$0\.04 so far.*An estimate/);
  assert.equal(costLabel(lm).text, '≈ 13.5k units');
  // Every call reported, or a model we count exactly: no marker.
  assert.equal(costLabel({ ...lm, costUsd: 0.0405, totals: { ...totals, reportedCalls: 3 } }).text, '$0.04');
  assert.equal(costLabel({ ...lm, costUsd: 0.0405, estimated: false }).text, '$0.04');
  assert.equal(costLabel({ ...lm, costUnits: 0, costUsd: 0 }).text, '$0', 'nothing spent is exact');
});

test('a stored output: the full size, a preview seen, then masked with the file kept', () => {
  const stored = {
    callId: 'c',
    tool: 'grep',
    arguments: '{}',
    state: 'ok' as const,
    storedAt: 'o.txt',
    outputLines: 1502,
  };
  assert.equal(outputLabels(stored).summary, 'What the model saw: a preview · full output 1,502 lines, stored');
  const masked = outputLabels({
    ...stored,
    masked: true,
    maskedLines: 82,
    placeholder: 'Old environment output: (82 lines omitted; full text: o.txt)',
  });
  assert.equal(masked.summary, 'What the model first saw: a preview · full output 1,502 lines, stored');
  assert.equal(
    masked.masked,
    'Masked: the model now sees a one-line placeholder instead of the 82-line preview; the full text is in',
  );
  assert.equal(
    masked.maskedTitle,
    'What the model sees now: Old environment output: (82 lines omitted; full text: o.txt)',
  );
});

test('an output that was not stored: masked, not stored, with the lines the model had', () => {
  const short = { callId: 'c', tool: 'list_dir', arguments: '{}', state: 'ok' as const, outputLines: 1 };
  assert.equal(outputLabels(short).summary, 'What the model saw · 1 line');
  const masked = outputLabels({ ...short, outputLines: 51, masked: true, maskedLines: 51 });
  assert.equal(masked.masked, 'Masked, not stored: the model now sees a one-line placeholder instead of 51 lines');
  assert.equal(outputLabels({ ...short, outputLines: undefined }).summary, 'What the model saw (the start is shown)');
});

test('the meter says how many masked observations have a file', () => {
  assert.equal(maskedLabel({ maskedObservations: 21, maskedStored: 3 }), '21 masked (3 stored)');
  assert.equal(maskedLabel({ maskedObservations: 2, maskedStored: 0 }), '2 masked (none stored)');
  assert.equal(maskedLabel({ maskedObservations: 1, maskedStored: 1 }), '1 masked (stored)');
  assert.equal(maskedLabel({ maskedObservations: 0, maskedStored: 0 }), '0 masked');
});

test('History: turns, calls and cost when known, "cost not recorded" when not', () => {
  const at = Date.UTC(2026, 10, 20, 12);
  const s = { id: 's', title: 't', createdAt: at, turns: 36, calls: 40, costUnits: 1_590 };
  assert.match(sessionMeta(s, at + 60_000), /^36 turns · 40 calls · 1\.59k units · /);
  assert.match(sessionMeta({ ...s, costUsd: 1.2 }, at), /· \$1\.20 ·/);
  assert.match(sessionMeta({ id: 's', title: 't', createdAt: at, turns: 1 }, at), /^1 turn · cost not recorded · /);
});

test("the Full output line reads back only as a preview's last line", () => {
  fc.assert(
    fc.property(fc.nat(), fc.nat(), fc.stringMatching(/^[\w./-]{1,40}$/), (lines, tokens, display) => {
      const text = `head\n[... omitted ...]\n${fullOutputLine(lines, tokens, display)}`;
      assert.deepEqual(parseFullOutputLine(text), { lines, tokens: String(tokens), display });
    }),
  );
  assert.deepEqual(parseFullOutputLine(fullOutputLine(3, '~12', 'a b.txt')), {
    lines: 3,
    tokens: '~12',
    display: 'a b.txt',
  });
  assert.equal(parseFullOutputLine(`${fullOutputLine(3, 1, 'x')}\nmore output after it`), undefined);
});

test('run errors name the URL and the fix; retries read as one line', () => {
  const refused = describeRunError(
    { kind: 'network', message: 'connect ECONNREFUSED', unreachable: true },
    'http://127.0.0.1:11434/v1',
  );
  assert.match(
    refused.text,
    /^Could not reach the model endpoint at http:\/\/127\.0\.0\.1:11434\/v1 \(connect ECONNREFUSED\)\. Start the server, or correct the base URL/,
  );
  assert.equal(refused.action.action, 'configure');
  // A server answered, then the connection broke: not a setup problem.
  const cut = describeRunError(
    { kind: 'network', message: 'The stream ended early', url: 'http://127.0.0.1:11434/v1/chat/completions' },
    undefined,
  );
  assert.match(
    cut.text,
    /^The connection to the model endpoint at http:\S+ broke off \(The stream ended early\)\. It may be temporary/,
  );
  assert.equal(cut.action.action, 'showLog');
  assert.equal(describeRunError({ kind: 'rate-limit', message: '429' }, undefined).action.action, 'showLog');
  // A Retry-After too long to wait out stops the run: the user is told when to come back.
  const later = (ms: number, kind: 'rate-limit' | 'server' = 'rate-limit') =>
    describeRunError({ kind, message: 'HTTP 429', retryAfterMs: ms }, undefined).text;
  assert.match(later(3_600_000), /It asks to wait about 1 hour and send again\.$/);
  assert.match(later(120_000), /It asks to wait about 2 minutes and send again\.$/);
  assert.match(later(45_000, 'server'), /failed \(HTTP 429\)\. It asks to wait about 45 seconds and send again\.$/);
  assert.match(describeRunError({ kind: 'rate-limit', message: '429' }, undefined).text, /Wait a moment and send/);
  assert.equal(retryActivity(1, 'network', 0, false), 'Retrying (attempt 2): the endpoint could not be reached…');
  assert.equal(
    retryActivity(2, 'invalid tool call (unknown-tool)', 0, true),
    'Retrying (attempt 3): invalid tool call (unknown-tool); tool traffic filtered…',
  );
});

test('a short output stored only for masking: seen whole, and masked with the file kept', () => {
  const whole = {
    callId: 'c',
    tool: 'read_file',
    arguments: '{}',
    state: 'ok' as const,
    storedAt: 'o.txt',
    shownWhole: true,
    outputLines: 6,
  };
  assert.equal(outputLabels(whole).summary, 'What the model saw: the whole output · 6 lines, also stored');
  const masked = outputLabels({ ...whole, masked: true, maskedLines: 6 });
  assert.equal(masked.summary, 'What the model first saw: the whole output · 6 lines, also stored');
  assert.equal(
    masked.masked,
    'Masked: the model now sees a one-line placeholder instead of 6 lines; the full text is in',
  );
});

test('a summary model’s units are shown beside the agent model’s, never summed into them', () => {
  const l = costLabel({ costUnits: 13_500, summaryUnits: [{ model: 'my-llm', units: 21_200 }] });
  assert.equal(l.text, '13.5k units + 21.2k summary units of my-llm');
  assert.match(l.title, /not added up/);
  const meta = sessionMeta(
    {
      id: 'a',
      title: 't',
      createdAt: 0,
      turns: 1,
      calls: 2,
      costUnits: 13_500,
      summaryUnits: [{ model: 'my-llm', units: 21_200 }],
    },
    0,
  );
  assert.match(meta, /13\.5k units \+ 21\.2k summary units of my-llm/);
});

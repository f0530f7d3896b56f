import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { deepActiveElement, isTyping } from '../../../src/webview/lib/focus';

test('the focused element is found inside shadow roots (the composer lives in one)', () => {
  const { window } = new JSDOM('<body><div id="host"></div><button id="b">x</button></body>');
  const doc = window.document;
  const host = doc.getElementById('host')!;
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = '<textarea data-testid="composer"></textarea>';
  root.querySelector('textarea')!.focus();
  assert.equal(deepActiveElement(doc)?.getAttribute('data-testid'), 'composer');
  assert.equal(isTyping(deepActiveElement(doc)), true);
  doc.getElementById('b')!.focus();
  assert.equal(deepActiveElement(doc)?.id, 'b');
  assert.equal(isTyping(deepActiveElement(doc)), false);
});

test('typing means a text field, a text area or an editable element, not a button or checkbox', () => {
  const { window } = new JSDOM(
    '<input id="t"><input id="s" type="search"><input id="c" type="checkbox"><div id="e" contenteditable="true"></div><button id="b"></button>',
  );
  const el = (id: string): Element => window.document.getElementById(id)!;
  assert.equal(isTyping(el('t')), true);
  assert.equal(isTyping(el('s')), true);
  assert.equal(isTyping(el('e')), true);
  assert.equal(isTyping(el('c')), false);
  assert.equal(isTyping(el('b')), false);
  assert.equal(isTyping(null), false);
});

// Templates for the conversation's items (user, assistant, notice). They render into the
// conversation's shadow root (so it can count and measure them); tool calls are <cd-tool-card>s.
import { css, html, nothing, type TemplateResult } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import DOMPurify from 'dompurify';
import type { ChatItem } from '../../protocol/chat';
import { markdownToHtml, referenceLinks, sanitizeModelHtml, type ReferenceLinks } from '../lib/markdown';
import { PARTS_PER_FRAME, linksUsed, markdownParts, wholeLinks } from '../lib/markdownParts';
import { requestHost } from '../events';
import './tool-card';

const NOTICE_ICON = { info: 'codicon-info', warning: 'codicon-warning', error: 'codicon-error' } as const;

interface RenderedPart {
  text: string;
  streaming: boolean;
  /** The reference definitions the part makes (markdown.ts `referenceLinks`). */
  defs: ReferenceLinks;
  /** The definitions of the whole answer it uses, as JSON: a change renders it again. */
  uses: string;
  /** Sanitized HTML; none while the part is shown as written, until its turn comes (PARTS_PER_FRAME). */
  html?: string;
  /** The HTML is from before a definition it uses changed: shown until its turn comes. */
  stale?: boolean;
}

/** A part to show: its sanitized HTML, or its text as written (a text node: no HTML to parse). */
export type ShownPart = { html: string } | { asWritten: string };

/** Sanitized HTML of each part of an assistant item, reused while the part's text does not change. */
const rendered = new Map<
  string,
  { text: string; streaming: boolean; parts: RenderedPart[]; shown: ShownPart[]; links: string }
>();

/**
 * The answer's sanitized HTML, part by part (lib/markdownParts.ts): a streamed chunk renders only the
 * parts it changed, in practice the last one, and the DOM of the others is left as it is. Each part is
 * rendered with the reference definitions of the whole answer (`[1]: https://…` at its end).
 */
export function assistantParts(id: string, text: string, streaming: boolean, later?: () => void): ShownPart[] {
  const hit = rendered.get(id);
  const done = (p: RenderedPart): boolean => p.html !== undefined && !p.stale;
  if (hit && hit.text === text && hit.streaming === streaming && hit.parts.every(done)) return hit.shown;
  const before = hit?.parts ?? [];
  const texts = markdownParts(text);
  // Only the last part can end inside an open fence (closed while streaming).
  const open = (i: number): boolean => streaming && i === texts.length - 1;
  const defs = texts.map((t, i) => {
    const same = before[i];
    return same && same.text === t && same.streaming === open(i) ? same.defs : referenceLinks(t, open(i));
  });
  const links = wholeLinks(defs);
  // The same definitions as the last render: an unchanged part uses what it used (no search again).
  const linksKey = JSON.stringify(links);
  const sameLinks = hit?.links === linksKey;
  const parts: RenderedPart[] = [];
  let budget = later ? PARTS_PER_FRAME : Infinity;
  for (let i = texts.length - 1; i >= 0; i--) {
    const t = texts[i]!;
    const same = before[i];
    const uses = sameLinks && same?.text === t ? same.uses : JSON.stringify(linksUsed(t, links) ?? {});
    const base = { text: t, streaming: open(i), defs: defs[i]!, uses };
    const kept = same && same.text === t && same.streaming === open(i) && same.html !== undefined ? same : undefined;
    if (kept && kept.uses === uses && !kept.stale) parts[i] = kept;
    else if (budget-- > 0) {
      const html = markdownToHtml(t, open(i), Object.keys(links).length > 0 ? links : undefined);
      parts[i] = { ...base, html: sanitizeModelHtml(html, DOMPurify) };
    } else parts[i] = kept ? { ...base, html: kept.html!, stale: true } : base;
  }
  if (rendered.size > 2000) rendered.clear();
  const shown = parts.map((p): ShownPart => (p.html === undefined ? { asWritten: p.text } : { html: p.html }));
  rendered.set(id, { text, streaming, parts, shown, links: linksKey });
  if (budget < 0 && later) later();
  return shown;
}

/**
 * `host` is asked to render again (`later`) when an answer has parts still shown as written (see
 * PARTS_PER_FRAME).
 */
export function renderItem(
  item: ChatItem,
  host: EventTarget & { later?: () => void },
): TemplateResult | typeof nothing {
  switch (item.kind) {
    case 'user':
      // A set-aside message stays readable and selectable (to shorten and send again), dimmed and labelled.
      return html`<div
        class="item user ${item.notSent ? 'not-sent' : ''}"
        role="article"
        aria-label=${item.notSent ? 'You, not sent' : 'You'}
      >
        <div class="who">
          <span class="codicon codicon-account" aria-hidden="true"></span>You
          ${
            item.notSent
              ? html`<span class="not-sent-label" data-testid="not-sent"
                  ><span class="codicon codicon-circle-slash" aria-hidden="true"></span>Not sent</span
                >`
              : nothing
          }
        </div>
        <div class="text" dir="auto">${item.text}</div>
      </div>`;
    case 'assistant':
      return html`<div
        class="item assistant"
        role="article"
        aria-label="Agent, turn ${item.turn}"
        aria-busy=${item.streaming ? 'true' : 'false'}
      >
        <div class="who">
          <span class="codicon codicon-hubot" aria-hidden="true"></span>Agent
          <span class="turn">turn ${item.turn}</span>
          ${
            item.streaming
              ? // A label alone on a span is not read: as an image it is.
                html`<span
                  class="codicon codicon-loading codicon-modifier-spin"
                  role="img"
                  aria-label="Writing"
                ></span>`
              : nothing
          }
        </div>
        ${
          item.text
            ? html`<div class="markdown">
                ${assistantParts(item.id, item.text, item.streaming, host.later).map(
                  (p, _, all) =>
                    html`<div class="part ${all.length > 1 ? 'lazy' : ''}">
                      ${'html' in p ? unsafeHTML(p.html) : html`<pre class="plain">${p.asWritten}</pre>`}
                    </div>`,
                )}
              </div>`
            : nothing
        }
        ${item.tools.map((t) => html`<cd-tool-card .call=${t}></cd-tool-card>`)}
      </div>`;
    case 'notice':
      // Not an alert: rows come back into the DOM when scrolled to; the panel announces new errors once.
      return html`<div class="item notice ${item.level}" role="note">
        <span class="codicon ${NOTICE_ICON[item.level]}" aria-hidden="true"></span>
        <span class="text" dir="auto">${item.text}</span>
        ${
          item.action
            ? html`<vscode-button
                secondary
                @click=${() => item.action && requestHost(host, 'noticeAction', { action: item.action.action })}
                >${item.action.label}</vscode-button
              >`
            : nothing
        }
      </div>`;
    default:
      // A kind from a newer host (in a snapshot): left out, the rest of the conversation still renders.
      return nothing;
  }
}

/** A rough size (characters) for height estimates before an item is measured. */
export function itemSize(item: ChatItem): number {
  const text = typeof item.text === 'string' ? item.text.length : 0;
  return item.kind === 'assistant' ? text + item.tools.length * 240 : text;
}

export const messageStyles = css`
  .item {
    padding: 6px 2px 8px;
    border-bottom: 1px solid var(--vscode-panel-border, transparent);
  }
  .who {
    display: flex;
    align-items: center;
    gap: 5px;
    font-weight: 600;
    margin-bottom: 2px;
  }
  .turn {
    font-weight: normal;
    color: var(--vscode-descriptionForeground);
  }
  .not-sent-label {
    display: inline-flex;
    align-items: center;
    gap: 3px;
    font-weight: normal;
    color: var(--vscode-descriptionForeground);
  }
  /* Dimmed in the theme's own muted colour (still readable: the text is there to copy and shorten). */
  .user.not-sent .text {
    color: var(--vscode-descriptionForeground);
    border-left: 2px dashed var(--vscode-descriptionForeground);
    padding-left: 6px;
  }
  .user .text {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .markdown {
    line-height: 1.45;
    overflow-wrap: anywhere;
  }
  /* A part lays out as if its blocks were the answer's own. */
  .markdown > .part {
    display: contents;
  }
  /*
   * The parts of a long answer are laid out only near the viewport: a 200 KB answer took seconds to
   * show, most of it laying out text nobody looked at. A part is then its own box: its first block's
   * top margin would add to the last one's above it. Room for focus rings, which containment clips.
   */
  .markdown > .part.lazy {
    display: block;
    content-visibility: auto;
    contain-intrinsic-size: auto 600px;
    padding: 2px;
    margin: -2px;
  }
  .markdown > .part.lazy > :first-child {
    margin-top: 0;
  }
  /* A picture never widens the panel (a model's data: image can be any size). */
  .markdown img {
    max-width: 100%;
    height: auto;
  }
  /* Tables scroll on their own, cells keep whole words (else a narrow panel breaks them letter by letter). */
  .markdown table {
    display: block;
    max-width: 100%;
    overflow-x: auto;
    border-collapse: collapse;
    margin: 0.4em 0;
  }
  .markdown th,
  .markdown td {
    padding: 2px 6px;
    border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent));
    overflow-wrap: normal;
    vertical-align: top;
  }
  .markdown p {
    margin: 0.4em 0;
  }
  /* Each level indents at most an eighth of what is left: lists nested 8 deep overflowed 300 px. */
  .markdown :is(ul, ol) {
    padding-inline-start: min(2em, 12%);
  }
  /* A model's own <pre> scrolls on its own instead of widening the conversation. */
  .markdown pre {
    max-width: 100%;
    overflow-x: auto;
  }
  /* Each paragraph takes the direction of its own text (Arabic, Hebrew) from dir="auto" (markdown.ts),
     code stays left to right. Not unicode-bidi: plaintext, whose layout took 25 s for one 750 KB
     paragraph (a 10,000-line log without a blank line). */
  .user .text,
  .markdown :is(p, li, h1, h2, h3, h4, h5, h6, blockquote, td, th) {
    text-align: start;
  }
  .markdown code {
    font-family: var(--vscode-editor-font-family);
    font-size: var(--vscode-editor-font-size);
  }
  .markdown :not(pre) > code {
    background: var(--vscode-textCodeBlock-background);
    padding: 0 3px;
    border-radius: 3px;
  }
  .markdown a {
    color: var(--vscode-textLink-foreground);
  }
  /* A link whose target was removed (javascript:, vbscript:) does nothing: it must not look like one. */
  .markdown a:not([href]) {
    color: inherit;
  }
  /* The theme's focus ring (the page's :focus-visible rule does not reach into shadow roots). */
  .markdown a:focus-visible,
  .code-block .copy:focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: 1px;
  }
  /* A table or code block that scrolls is a Tab stop (Chromium 130+): the browser's ring was near-black,
     unseen on a dark theme. Inside the box: the conversation clips what is drawn outside it. */
  .markdown :is(pre, table):focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: -1px;
  }
  /* A message nested too deep for Markdown, shown as written. */
  .markdown pre.plain {
    margin: 0.4em 0;
    font: inherit;
    white-space: pre-wrap;
  }
  .code-block {
    position: relative;
  }
  .code-block pre {
    margin: 4px 0;
    padding: 6px 8px;
    /* Room for Copy on the first line. */
    padding-top: 18px;
    overflow: auto;
    background: var(--vscode-textCodeBlock-background);
  }
  .code-block .copy {
    position: absolute;
    top: 2px;
    right: 2px;
    font: inherit;
    font-size: 0.85em;
    color: var(--vscode-button-secondaryForeground);
    background: var(--vscode-button-secondaryBackground);
    border: none;
    border-radius: 2px;
    padding: 1px 6px;
    cursor: pointer;
  }
  .notice {
    display: flex;
    align-items: baseline;
    gap: 6px;
    flex-wrap: wrap;
    padding: 6px;
    border-left: 3px solid var(--vscode-notificationsInfoIcon-foreground);
    background: var(--vscode-editorWidget-background);
  }
  .notice.warning {
    border-left-color: var(--vscode-notificationsWarningIcon-foreground);
  }
  .notice.error {
    border-left-color: var(--vscode-notificationsErrorIcon-foreground);
  }
  /* At least 12em before the button wraps below: with a basis of 0 a long error shared its line with the
     button and read a few letters a line (60 px of a 220 px panel). */
  .notice .text {
    flex: 1 1 12em;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  /* A long action label ("Open Transcript of …") wraps inside the button, not past the panel's edge. */
  .notice vscode-button {
    max-width: 100%;
  }
  .notice vscode-button::part(base) {
    white-space: normal;
    overflow-wrap: anywhere;
  }
`;

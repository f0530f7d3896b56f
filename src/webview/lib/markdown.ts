// Markdown for assistant messages. `markdownToHtml` is pure (no DOM) and never trusted: the component
// sanitizes its output with `sanitizeModelHtml` (DOMPurify, with the config below) before it reaches the
// document. Model output is hostile text: it must not carry forms, buttons, styles or anything that can
// position itself over the panel (e.g. over an approval prompt).
import { Marked, type Tokens } from 'marked';
import type { Config, DOMPurify } from 'dompurify';

/** The Copy button of a code block: added after sanitizing (model HTML cannot carry buttons). */
export const COPY_BUTTON = '<button type="button" class="copy" data-copy aria-label="Copy code">Copy</button>';

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // Code blocks get a Copy button (after sanitizing); the conversation handles its click by delegation.
    code({ text, lang }: Tokens.Code): string {
      const language = (lang ?? '').match(/^[\w+#.-]*/)?.[0] ?? '';
      const cls = language ? ` class="language-${escapeHtml(language)}"` : '';
      return `<div class="code-block"><pre><code${cls}>${escapeHtml(text)}</code></pre></div>\n`;
    },
  },
});

/** Renders Markdown to (unsanitized) HTML; while streaming, an unclosed fence is closed first. */
export function markdownToHtml(text: string, streaming = false): string {
  const source = streaming ? closeOpenFence(text) : text;
  return marked.parse(source, { async: false });
}

/**
 * Streaming text often ends inside a ``` fence; without closing it the rest of the message would
 * flicker between code and prose as chunks arrive.
 */
export function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    if (open === undefined) {
      open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    } else {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      if (close && close[0] === open[0] && close.length >= open.length) open = undefined;
    }
  }
  if (open === undefined) return text;
  return `${text}${text.endsWith('\n') ? '' : '\n'}${open}\n`;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The one DOMPurify config for model output (see `sanitizeModelHtml`). */
export const PURIFY_CONFIG: Config = {
  FORBID_TAGS: [
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'optgroup',
    'datalist',
    'output',
    'fieldset',
    'style',
    'link',
    'meta',
    'base',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'portal',
    'dialog',
    'template',
    'slot',
    'svg',
    'math',
    'marquee',
    'canvas',
    'video',
    'audio',
    'source',
    'track',
    'picture',
    'map',
    'area',
  ],
  FORBID_ATTR: [
    'style',
    'id',
    'name',
    'popover',
    'popovertarget',
    'popovertargetaction',
    'form',
    'formaction',
    'action',
    'method',
    'target',
    'tabindex',
    'accesskey',
    'autofocus',
    'contenteditable',
    'draggable',
    'slot',
    'part',
    'width',
    'height',
    'hidden',
    'inert',
  ],
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

/** Classes model HTML may keep: only the ones our own renderer writes (panel CSS can position others). */
const KEEP_CLASS = /^(?:code-block|language-[\w+#.-]{1,40})$/;

const hooked = new WeakSet<object>();

/**
 * Sanitizes rendered model Markdown: no forms, inputs, buttons, styles (attribute or element), frames,
 * dialogs, popovers, ids, or classes but the code-block ones; then adds our Copy buttons.
 */
export function sanitizeModelHtml(html: string, purify: DOMPurify): string {
  if (!hooked.has(purify)) {
    hooked.add(purify);
    // `class` can name panel CSS that positions an element: keep only the code-block classes.
    purify.addHook('uponSanitizeAttribute', (_node, data) => {
      if (data.attrName !== 'class') return;
      const kept = data.attrValue.split(/\s+/).filter((c) => KEEP_CLASS.test(c));
      data.attrValue = kept.join(' ');
      data.keepAttr = kept.length > 0;
    });
  }
  const clean = purify.sanitize(html, { ...PURIFY_CONFIG, RETURN_TRUSTED_TYPE: false });
  return clean.replace(/<div class="code-block">/g, `$&${COPY_BUTTON}`);
}

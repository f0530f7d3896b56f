// Markdown for assistant messages. `markdownToHtml` is pure (no DOM) and never trusted: the component
// sanitizes its output with `sanitizeModelHtml` (DOMPurify, with the config below) before it reaches the
// document. Model output is hostile text: it must not carry forms, buttons, styles or anything that can
// position itself over the panel (e.g. over an approval prompt).
import { Lexer, Marked, Parser, type Links, type Tokens } from 'marked';
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
    // A task list's box as a character: model HTML cannot carry inputs, and a bare bullet hides done from open.
    checkbox({ checked }: Tokens.Checkbox): string {
      return checked ? '☑ ' : '☐ ';
    },
  },
});

/** Link reference definitions (`[1]: https://…`) by normalized label, as marked keeps them. */
export type ReferenceLinks = Links;

/**
 * Renders Markdown to (unsanitized) HTML; while streaming, an unclosed fence is closed first. `links`: the
 * reference definitions of the whole answer when `text` is one of its parts (markdownParts.ts): a part
 * uses a definition written in another as the whole would, the first one of a label winning.
 */
export function markdownToHtml(text: string, streaming = false, links?: ReferenceLinks): string {
  const plain = (): string => `<pre class="plain">${escapeHtml(text)}</pre>\n`;
  if (indentedPast(text, MAX_INDENT)) return plain();
  const source = markdownSource(text, streaming);
  try {
    if (!links) return marked.parse(source, { async: false });
    const options = { ...marked.defaults };
    const lexer = new Lexer(options);
    lexer.tokens.links = Object.assign(Object.create(null) as ReferenceLinks, links);
    return Parser.parse(lexer.lex(source), options);
  } catch {
    // Nesting deeper than marked's stack (`> > > …` thousands deep): the text as written, not a blank.
    return plain();
  }
}

/**
 * The reference definitions `text` makes, from marked's block lexer alone (no inline parsing, so cheap):
 * what `markdownToHtml(text, streaming)` would define. None for a text shown as written.
 */
export function referenceLinks(text: string, streaming = false): ReferenceLinks {
  if (!text.includes(']:') || indentedPast(text, MAX_INDENT)) return {};
  try {
    const lexer = new Lexer({ ...marked.defaults });
    lexer.blockTokens(markdownSource(text, streaming).replace(/\r\n|\r/g, '\n'), []);
    return { ...lexer.tokens.links };
  } catch {
    return {};
  }
}

/** What marked is given for `text` (see calmEmphasis and closeOpenFence). */
function markdownSource(text: string, streaming: boolean): string {
  return calmEmphasis(streaming ? closeOpenFence(text) : text);
}

/**
 * marked reads a nested list again at each level, so a list nested hundreds deep costs the square of its
 * size (250 KB: 1.2 s, 1 MB: 9 s, again at every streamed chunk). A message with a line indented past
 * this many columns outside code fences is shown as written; real lists stay far below it.
 */
export const MAX_INDENT = 120;

/** True when a line outside ``` fences starts with more than `max` columns of blanks (a tab counts 4). */
function indentedPast(text: string, max: number): boolean {
  let fence: string | undefined;
  for (let from = 0; from < text.length;) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    let columns = 0;
    let i = from;
    for (; i < end && columns <= max; i++) {
      const c = text.charCodeAt(i);
      if (c === 32) columns++;
      else if (c === 9) columns += 4;
      else break;
    }
    if (columns > max && fence === undefined) return true;
    if (columns <= 3) {
      // The same fences calmEmphasis and closeOpenFence know: a closing one has nothing after its run.
      const line = text.slice(i, end);
      const run = /^(`{3,}|~{3,})/.exec(line)?.[1];
      if (run && fence === undefined) fence = run;
      else if (
        run &&
        fence !== undefined &&
        fence[0] === run[0] &&
        run.length >= fence.length &&
        !line.slice(run.length).trim()
      )
        fence = undefined;
    }
    from = end + 1;
  }
  return false;
}

/**
 * marked's search for emphasis is quadratic in the delimiters of a paragraph (24 KB of `*a_` took 5 s,
 * 100 KB minutes, and a streaming message is rendered again at every chunk). Past this many `*`, `_`
 * and `~` in one paragraph outside code blocks, they are shown as written.
 */
export const MAX_PARAGRAPH_DELIMITERS = 500;

/** The text with the emphasis delimiters of over-full paragraphs escaped (see MAX_PARAGRAPH_DELIMITERS). */
export function calmEmphasis(text: string): string {
  const lines = text.split('\n');
  let fence: string | undefined;
  let start = 0;
  let count = 0;
  let changed = false;
  const flush = (end: number): void => {
    if (count > MAX_PARAGRAPH_DELIMITERS) {
      for (let i = start; i < end; i++) lines[i] = lines[i]!.replace(/[*_~]/g, '\\$&');
      changed = true;
    }
    count = 0;
    start = end + 1;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== undefined) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      if (close && close[0] === fence[0] && close.length >= fence.length) fence = undefined;
      start = i + 1;
      continue;
    }
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (open !== undefined || line.trim() === '') {
      flush(i);
      fence = open;
      continue;
    }
    for (let j = 0; j < line.length; j++) {
      const c = line.charCodeAt(j);
      if (c === 42 || c === 95 || c === 126) count++;
    }
  }
  flush(lines.length);
  return changed ? lines.join('\n') : text;
}

/**
 * Streaming text often ends inside a ``` fence; without closing it the rest of the message would
 * flicker between code and prose as chunks arrive.
 */
export function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    if (open === undefined) {
      // As marked opens one: a backtick fence's info string has no backtick (``` `x` is text).
      open = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/.exec(line)?.[1];
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
const KEEP_CLASS = /^(?:code-block|language-[\w+#.-]{1,40}|image-not-shown)$/;

/**
 * The panel's CSP loads pictures only from data: URLs, so any other <img> would be a broken-image icon. It
 * becomes a line saying so, with its description, and a link to the picture when it is on the web.
 */
function imageNotShown(img: Element): void {
  const src = (img.getAttribute('src') ?? '').trim();
  if (/^data:/i.test(src)) return;
  const doc = img.ownerDocument;
  const host = /^https?:\/\/(?:[^@/?#]*@)?([^/?#]+)/i.exec(src)?.[1];
  const web = host !== undefined;
  const note = doc.createElement(web ? 'a' : 'span');
  if (web) {
    note.setAttribute('href', src);
    note.setAttribute('title', src);
  }
  note.setAttribute('class', 'image-not-shown');
  const alt = (img.getAttribute('alt') ?? '').trim();
  note.textContent = `Image not shown${alt ? `: ${alt}` : ''}${web ? ` (${host})` : ''}`;
  img.replaceWith(note);
}

/** Blocks of prose that each take the direction of their own text. */
const TEXT_BLOCK = /^(?:P|LI|H[1-6]|BLOCKQUOTE|TD|TH)$/;

const hooked = new WeakSet<object>();

/**
 * Sanitizes rendered model Markdown: no forms, inputs, buttons, styles (attribute or element), frames,
 * dialogs, popovers, ids, or classes but the code-block ones; pictures the CSP would block are named
 * instead (`imageNotShown`); then adds our Copy buttons.
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
    purify.addHook('afterSanitizeAttributes', (node) => {
      if (node.nodeName === 'IMG') imageNotShown(node);
      // Each block of text takes the direction of its own first letters (Hebrew, Arabic), whatever the
      // model wrote: an attribute, laid out in linear time (see message.ts).
      else if (TEXT_BLOCK.test(node.nodeName)) node.setAttribute('dir', 'auto');
    });
  }
  const clean = purify.sanitize(html, { ...PURIFY_CONFIG, RETURN_TRUSTED_TYPE: false });
  return clean.replace(/<div class="code-block">/g, `$&${COPY_BUTTON}`);
}

// <cd-history>: past sessions, newest first, each titled by its first instruction with its turns, calls
// and cost. Choosing one resumes it (the conversation comes back with its masked markers and open links).
// Windowed like the conversation (2,000 sessions rendered every row: 2.5 s to open at 300 px): only the
// rows around the viewport are in the DOM, between spacers. One tab stop, arrows move (a listbox, as VS
// Code's lists): each row says its place in the whole list, so a screen reader hears "12 of 2000".
import { LitElement, css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { SessionSummary } from '../../protocol/chat';
import { askHost, showView } from '../events';
import { sessionMeta } from '../lib/labels';
import { deepActiveElement } from '../lib/focus';
import { listMove } from '../lib/listKeys';
import { computeWindow } from '../lib/windowing';
import { buttons } from './buttons';
import { codicons } from './codicons';

/** A row's height before it is measured: a title line or two and the meta line at 300 px. */
const ROW_ESTIMATE = 58;
// What a mark means: the row's description for a screen reader, and shown under the mark while the row
// has the focus (a tooltip cannot be reached from the keyboard).
const FOREIGN_TEXT =
  'Not written by Context Desk in this workspace (it may have come with the repository). Resuming asks first: its messages would be sent as yours.';
const CONTINUED_TEXT =
  'Continues a session not written by Context Desk in this workspace: its earlier messages were copied from that file and are not known to be yours. Resuming shows their hidden characters.';
/** Pixels rendered beyond the viewport on each side. */
const OVERSCAN = 400;

export class CdHistory extends LitElement {
  static override properties = {
    sessions: { attribute: false },
    current: { attribute: false },
    running: { type: Boolean },
    problem: { state: true },
    listScroll: { state: true },
    viewport: { state: true },
    measuredVersion: { state: true },
    active: { state: true },
  };
  declare sessions: SessionSummary[];
  declare current: string;
  declare running: boolean;
  declare problem: string | undefined;
  /** How far the list's own top is scrolled past the top of the view. */
  declare listScroll: number;
  declare viewport: number;
  declare measuredVersion: number;
  /** The row that is the list's tab stop (-1: the open session's, else the first). */
  declare active: number;
  private readonly measured = new Map<string, number>();
  private rowObserver: ResizeObserver | undefined;
  /** The list has taken the focus once (when History opened), so arrows work without a Tab first. */
  private focusedOnce = false;
  private viewObserver: ResizeObserver | undefined;
  /**
   * The row a key moved the focus to, kept in view while the rows drawn by the move are measured (their
   * guessed heights put it off screen at 110 px); the wheel, a touch or the mouse (the scroll bar) ends it.
   * Not any scroll: the browser's scroll anchoring moves the view as rows above it are measured.
   */
  private revealing: number | undefined;
  private readonly onScroll = (): void => {
    this.listScroll = this.scrollTop - this.listOffset();
  };
  private readonly userScrolls = (): void => {
    this.revealing = undefined;
  };

  constructor() {
    super();
    this.sessions = [];
    this.current = '';
    this.running = false;
    this.listScroll = 0;
    this.viewport = 600;
    this.measuredVersion = 0;
    this.active = -1;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void askHost(this, 'refreshSessions', {}).catch(() => undefined);
    this.addEventListener('scroll', this.onScroll, { passive: true });
    for (const e of ['wheel', 'touchstart', 'pointerdown'])
      this.addEventListener(e, this.userScrolls, { passive: true });
    this.rowObserver = new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        const row = e.target as HTMLElement;
        const h = Math.round(row.offsetHeight);
        if (row.dataset.id && h > 0 && this.measured.get(row.dataset.id) !== h) {
          this.measured.set(row.dataset.id, h);
          changed = true;
        }
      }
      if (changed) this.measuredVersion++;
    });
    this.viewObserver = new ResizeObserver(() => {
      this.viewport = this.clientHeight;
      this.onScroll();
    });
    this.viewObserver.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('scroll', this.onScroll);
    for (const e of ['wheel', 'touchstart', 'pointerdown']) this.removeEventListener(e, this.userScrolls);
    this.rowObserver?.disconnect();
    this.viewObserver?.disconnect();
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('measuredVersion') && this.revealing !== undefined) this.reveal(this.revealing);
    this.rowObserver?.disconnect();
    const rows = this.renderRoot.querySelectorAll<HTMLElement>('.session');
    for (const row of rows) this.rowObserver?.observe(row);
    // Opened, History focuses its list (as VS Code's views do) so arrows work at once, and a screen reader
    // says where it is; not when the user has already moved within it (the list came after a refresh).
    if (!this.focusedOnce && rows.length > 0) {
      this.focusedOnce = true;
      const active = deepActiveElement(document);
      if (active?.getRootNode() !== this.renderRoot)
        this.renderRoot.querySelector<HTMLElement>('.session[tabindex="0"]')?.focus();
    }
  }

  /** Where the list starts inside the scrolling view (below the header and notes). */
  private listOffset(): number {
    const list = this.renderRoot.querySelector('ul');
    return list ? list.getBoundingClientRect().top - this.getBoundingClientRect().top + this.scrollTop : 0;
  }

  private heights(): number[] {
    return this.sessions.map((s) => this.measured.get(s.id) ?? ROW_ESTIMATE);
  }

  private tabStop(): number {
    if (this.active >= 0) return Math.min(this.active, this.sessions.length - 1);
    return Math.max(
      0,
      this.sessions.findIndex((s) => s.id === this.current),
    );
  }

  private async open(id: string): Promise<void> {
    this.problem = undefined;
    if (id === this.current) return showView(this, 'chat');
    if (this.running) return;
    try {
      const r = await askHost(this, 'openSession', { sessionId: id });
      if (r.opened) showView(this, 'chat');
      else this.problem = 'That session could not be opened (see the notice in the chat).';
    } catch (e) {
      this.problem = e instanceof Error ? e.message : String(e);
    }
  }

  private async onKey(e: KeyboardEvent): Promise<void> {
    const at = this.tabStop();
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      const s = this.sessions[at];
      if (s) void this.open(s.id);
      return;
    }
    const next = listMove(e.key, at, this.sessions.length, this.page(at, e.key === 'PageUp' ? -1 : 1));
    if (next === undefined) return;
    e.preventDefault();
    this.active = next;
    this.revealing = next;
    this.reveal(next);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`.session[data-index="${next}"]`)?.focus();
  }

  /**
   * How many rows from `at` (going `dir`) a screenful holds, less one (the row kept in view), by their
   * measured heights; a row not drawn yet counts as the tallest drawn so far (a guess too low moved past
   * a screenful at 110 px, where titles wrap).
   */
  private page(at: number, dir: 1 | -1): number {
    let tallest = ROW_ESTIMATE;
    for (const h of this.measured.values()) tallest = Math.max(tallest, h);
    let used = 0;
    let rows = 0;
    for (let i = at + dir; i >= 0 && i < this.sessions.length; i += dir) {
      used += this.measured.get(this.sessions[i]!.id) ?? tallest;
      if (used > this.viewport) break;
      rows++;
    }
    return Math.max(1, rows - 1);
  }

  /** Scrolls row `index` into view and renders it at once (the scroll event comes a frame later). */
  private reveal(index: number): void {
    const heights = this.heights();
    const offset = this.listOffset();
    const top = offset + heights.slice(0, index).reduce((a, h) => a + h, 0);
    const bottom = top + (heights[index] ?? 0);
    if (top < this.scrollTop) this.scrollTop = top;
    else if (bottom > this.scrollTop + this.clientHeight) this.scrollTop = bottom - this.clientHeight;
    this.listScroll = this.scrollTop - offset;
  }

  override render(): unknown {
    const n = this.sessions.length;
    const w = computeWindow(this.heights(), this.listScroll, this.viewport, OVERSCAN);
    // The tab stop is always a rendered row: after a scroll with the wheel, the nearest one.
    const stop = Math.min(Math.max(this.tabStop(), w.start), w.end - 1);
    const rows = this.sessions.slice(w.start, w.end).map((s, k) => ({ s, i: w.start + k }));
    return html`<section class="history" data-testid="history">
      <header>
        <h2 id="history-heading">History</h2>
        <button type="button" class="link" @click=${() => showView(this, 'chat')}>Back to the chat</button>
      </header>
      ${this.running ? html`<p class="note">Stop the agent to open another session.</p>` : ''}
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : ''}
      ${
        n === 0
          ? html`<p class="note">No past sessions in this workspace yet.</p>`
          : html`<ul
              role="listbox"
              aria-label="Past sessions"
              style="padding-top:${w.padTop}px;padding-bottom:${w.padBottom}px"
              @keydown=${(e: KeyboardEvent) => void this.onKey(e)}
              @focusin=${(e: FocusEvent) => {
                const i = Number((e.target as HTMLElement).dataset.index);
                if (Number.isInteger(i)) this.active = i;
              }}
            >
              ${repeat(
                rows,
                (r) => r.s.id,
                ({ s, i }) =>
                  html`<li
                    role="option"
                    class="session ${s.id === this.current ? 'current' : ''}"
                    data-testid="history-item"
                    data-id=${s.id}
                    data-index=${i}
                    tabindex=${i === stop ? 0 : -1}
                    aria-selected=${i === stop ? 'true' : 'false'}
                    aria-disabled=${this.running && s.id !== this.current ? 'true' : 'false'}
                    aria-current=${s.id === this.current ? 'true' : 'false'}
                    aria-posinset=${i + 1}
                    aria-setsize=${n}
                    aria-describedby=${s.foreign || s.continued ? `why-${i}` : nothing}
                    @click=${() => void this.open(s.id)}
                  >
                    ${this.row(s, i)}
                  </li>`,
              )}
            </ul>`
      }
    </section>`;
  }

  private row(s: SessionSummary, i: number): unknown {
    const why = s.foreign ? FOREIGN_TEXT : s.continued ? CONTINUED_TEXT : undefined;
    return html`<span class="title" dir="auto">${s.title}</span>
      <span class="meta" data-testid="history-meta"
        >${s.id === this.current ? 'open now · ' : ''}${sessionMeta(s)}</span
      >
      ${
        why
          ? html`<span class="foreign" data-testid=${s.foreign ? 'history-foreign' : 'history-continued'} title=${why}
                ><span class="codicon codicon-warning" aria-hidden="true"></span>${
                  s.foreign ? 'not written here' : 'continues one not written here'
                }</span
              ><span class="why" id="why-${i}" data-testid="history-why">${why}</span>`
          : ''
      }`;
  }

  static override styles = [
    codicons,
    buttons,
    css`
      :host {
        display: block;
        overflow-y: auto;
        padding: 8px 12px 16px;
      }
      header {
        display: flex;
        align-items: baseline;
        justify-content: space-between;
        gap: 8px;
        flex-wrap: wrap;
        margin-bottom: 6px;
      }
      h2 {
        margin: 0;
        font-size: 1.1em;
        font-weight: 600;
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .session {
        display: flex;
        flex-direction: column;
        gap: 1px;
        box-sizing: border-box;
        width: 100%;
        padding: 5px 6px;
        font: inherit;
        color: var(--vscode-foreground);
        text-align: left;
        background: none;
        border: 1px solid transparent;
        border-radius: 3px;
        cursor: pointer;
      }
      .session:hover:not([aria-disabled='true']) {
        background: var(--vscode-list-hoverBackground);
      }
      /* Two marks that must not look alike: the keyboard focus is a line all round (as VS Code's lists),
         the open session a thick bar at its start (no tint: the grey meta line fell below 4.5:1 on it).
         Both a 1 px focus-coloured box, moving off the open session looked like not moving. */
      .session:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: -1px;
      }
      .session.current {
        border-inline-start: 3px solid var(--vscode-contrastActiveBorder, var(--vscode-focusBorder));
        padding-inline-start: 4px;
      }
      /* Forced colours draw every border, transparent ones too: a box round every row. Only the open
         session keeps its bar; the focus is a thicker line in the system's highlight. */
      @media (forced-colors: active) {
        .session {
          border-color: Canvas;
        }
        .session.current {
          border-inline-start-color: CanvasText;
        }
        .session:focus-visible {
          outline: 2px solid Highlight;
          outline-offset: -2px;
        }
      }
      .session[aria-disabled='true'] {
        opacity: 0.6;
        cursor: default;
      }
      /* The words in the foreground colour (a warning colour is faint on a light theme), the icon in warning. */
      .foreign {
        display: inline-flex;
        align-items: center;
        gap: 3px;
        font-size: 0.85em;
        color: var(--vscode-foreground);
      }
      .why {
        display: none;
        font-size: 0.85em;
        color: var(--vscode-foreground);
      }
      .session:focus .why {
        display: block;
      }
      .foreign .codicon {
        font-size: 12px;
        color: var(--vscode-editorWarning-foreground);
      }
      /* Whole (at most 80 characters): titles often start alike ("Fix the failing test in …") and differ
         where one line at 300 px cut them off. */
      .title {
        overflow-wrap: anywhere;
      }
      .meta,
      .note {
        font-size: 0.9em;
        color: var(--vscode-descriptionForeground);
      }
      .problem {
        color: var(--vscode-errorForeground);
      }
    `,
  ];
}

customElements.define('cd-history', CdHistory);

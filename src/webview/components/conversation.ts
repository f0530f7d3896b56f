// <cd-conversation>: the chat log, virtualized: only the items around the viewport are in the DOM,
// with spacers sized from measured (or estimated) heights. Follows new output while the user is at
// the bottom; stops following once they scroll up.
import { LitElement, css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { ChatItem } from '../../protocol/chat';
import { computeWindow, heightsFor, isNearBottom } from '../lib/windowing';
import type { ScrollState } from '../lib/savedState';
import { codicons } from './codicons';
import { itemSize, messageStyles, renderItem } from './message';

/** Pixels rendered beyond the viewport on each side. */
const OVERSCAN = 600;

export type { ScrollState };

export class CdConversation extends LitElement {
  static override properties = {
    items: { attribute: false },
    scrollTop: { state: true },
    viewport: { state: true },
    measuredVersion: { state: true },
  };

  declare items: ChatItem[];
  declare scrollTop: number;
  declare viewport: number;
  declare measuredVersion: number;
  private readonly measured = new Map<string, number>();
  private stick = true;
  private pendingRestore: ScrollState | undefined;
  private rowObserver: ResizeObserver | undefined;
  private viewObserver: ResizeObserver | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.items = [];
    this.scrollTop = 0;
    this.viewport = 600;
    this.measuredVersion = 0;
  }

  /** Applies a saved position once the items are there (the view was hidden and is shown again). */
  restore(state: ScrollState): void {
    this.pendingRestore = state;
    this.stick = state.stick;
    this.requestUpdate();
  }

  /** Masked tool cards currently in the DOM (the snapshot request reports it). */
  maskedShown(): number {
    return this.renderRoot.querySelectorAll('cd-tool-card[masked]').length;
  }

  private get scroller(): HTMLElement | null {
    return this.renderRoot.querySelector('.scroller');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.rowObserver = new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        const id = (e.target as HTMLElement).dataset.id;
        const h = Math.round((e.target as HTMLElement).offsetHeight);
        if (id && h > 0 && this.measured.get(id) !== h) {
          this.measured.set(id, h);
          changed = true;
        }
      }
      if (changed) this.measuredVersion++;
      this.follow();
    });
    this.viewObserver = new ResizeObserver(() => {
      const s = this.scroller;
      if (s) this.viewport = s.clientHeight;
      this.follow();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.rowObserver?.disconnect();
    this.viewObserver?.disconnect();
  }

  override firstUpdated(): void {
    const s = this.scroller;
    if (s) this.viewObserver?.observe(s);
  }

  override updated(): void {
    this.rowObserver?.disconnect();
    for (const row of this.renderRoot.querySelectorAll<HTMLElement>('.row')) this.rowObserver?.observe(row);
    const s = this.scroller;
    if (s && this.pendingRestore && this.items.length > 0) {
      if (!this.pendingRestore.stick) s.scrollTop = this.pendingRestore.top;
      this.pendingRestore = undefined;
    }
    this.follow();
  }

  /** Keeps the newest output in view while following. */
  private follow(): void {
    const s = this.scroller;
    if (s && this.stick && s.scrollTop + s.clientHeight < s.scrollHeight - 1) s.scrollTop = s.scrollHeight;
  }

  private onScroll(): void {
    const s = this.scroller;
    if (!s) return;
    // Only a move up (the user's doing) stops following: scroll events arrive a frame late, when
    // new output may already have grown the content below a programmatic scroll to the bottom.
    if (isNearBottom(s.scrollTop, s.clientHeight, s.scrollHeight)) this.stick = true;
    else if (s.scrollTop < this.scrollTop - 1) this.stick = false;
    this.scrollTop = s.scrollTop;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      const detail: ScrollState = { top: s.scrollTop, stick: this.stick };
      this.dispatchEvent(new CustomEvent('cd-scrolled', { detail, bubbles: true, composed: true }));
    }, 200);
  }

  /** Copy buttons inside rendered Markdown (they come from sanitized HTML, so no lit listeners). */
  private onClick(e: Event): void {
    const target = e.composedPath()[0];
    if (!(target instanceof HTMLElement) || !target.matches('button[data-copy]')) return;
    const code = target.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    void navigator.clipboard.writeText(code).then(
      () => (target.textContent = 'Copied'),
      () => (target.textContent = 'Copy failed'),
    );
    setTimeout(() => (target.textContent = 'Copy'), 1500);
  }

  override render(): unknown {
    const items = this.items;
    const heights = heightsFor(
      items.map((it) => ({ id: it.id, size: itemSize(it) })),
      this.measured,
    );
    const w = computeWindow(heights, this.scrollTop, this.viewport, OVERSCAN);
    return html`<div
      class="scroller"
      role="log"
      aria-live="polite"
      aria-label="Conversation"
      tabindex="0"
      data-testid="conversation"
      @scroll=${this.onScroll}
      @click=${this.onClick}
    >
      ${
        items.length === 0
          ? html`<p class="empty">
              Ask the agent about this workspace. Its context is kept small: long outputs go to files, old observations
              are masked, every token is counted.
            </p>`
          : nothing
      }
      <div class="spacer" style="height:${w.padTop}px"></div>
      ${repeat(
        items.slice(w.start, w.end),
        (it) => it.id,
        (it) => html`<div class="row" data-id=${it.id}>${renderItem(it, this)}</div>`,
      )}
      <div class="spacer" style="height:${w.padBottom}px"></div>
    </div>`;
  }

  static override styles = [
    codicons,
    messageStyles,
    css`
      :host {
        display: block;
        min-height: 0;
      }
      .scroller {
        height: 100%;
        overflow-y: auto;
        padding: 0 10px;
        box-sizing: border-box;
      }
      .scroller:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: -1px;
      }
      .empty {
        color: var(--vscode-descriptionForeground);
        line-height: 1.4;
      }
      .row {
        display: flow-root;
      }
    `,
  ];
}

customElements.define('cd-conversation', CdConversation);

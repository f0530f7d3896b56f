// <cd-conversation>: the chat log, virtualized: only the items around the viewport are in the DOM,
// with spacers sized from measured (or estimated) heights. Follows new output while the user is at
// the bottom; once they scroll up it stops and offers "Jump to latest". Model-rendered content is
// painted only inside the scroller (CSS containment): it cannot cover the panel's own controls.
import { LitElement, css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { ChatItem } from '../../protocol/chat';
import { computeWindow, heightsFor, isNearBottom } from '../lib/windowing';
import type { ScrollState } from '../lib/savedState';
import { scrollMove } from '../lib/listKeys';
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
    following: { state: true },
  };

  declare items: ChatItem[];
  declare scrollTop: number;
  declare viewport: number;
  declare measuredVersion: number;
  /** Mirrors `stick` for rendering the Jump to latest button. */
  declare following: boolean;
  private readonly measured = new Map<string, number>();
  private stick = true;
  private lastUserId: string | undefined;
  private pendingRestore: ScrollState | undefined;
  /** A control inside a row had the focus when this render began. */
  private focusInRow = false;
  private rowObserver: ResizeObserver | undefined;
  private viewObserver: ResizeObserver | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private laterTimer: ReturnType<typeof setTimeout> | undefined;

  /** Renders again once this frame is painted: a long answer still has parts shown as written (message.ts). */
  readonly later = (): void => {
    if (this.laterTimer !== undefined) return;
    const run = (): void => {
      if (this.laterTimer === undefined) return;
      clearTimeout(this.laterTimer);
      this.laterTimer = undefined;
      this.requestUpdate();
    };
    // After the next frame (a task queued from it runs once it is painted); a hidden view draws no frames.
    this.laterTimer = setTimeout(run, 250);
    requestAnimationFrame(() => setTimeout(run));
  };

  constructor() {
    super();
    this.items = [];
    this.scrollTop = 0;
    this.viewport = 600;
    this.measuredVersion = 0;
    this.following = true;
  }

  /** Scrolls to the newest output and follows it again. */
  jumpToLatest(): void {
    this.setStick(true);
    const s = this.scroller;
    if (s) s.scrollTop = s.scrollHeight;
  }

  /**
   * Scrolling keys on the conversation itself, done here and at once (as VS Code's lists do): Chromium's
   * animated keyboard scroll cannot be stopped from script, and one still running after "Jump to latest"
   * carried the view back up, so the jump was undone and the button stayed.
   */
  private onKeydown(e: KeyboardEvent): void {
    const s = this.scroller;
    if (!s || e.target !== s || e.altKey || e.ctrlKey || e.metaKey) return;
    const top = scrollMove(e.key, e.shiftKey, s.scrollTop, s.clientHeight, s.scrollHeight);
    if (top === undefined) return;
    e.preventDefault();
    // Up stops following now, not at the scroll event a frame later: a row growing in between would
    // have followed the newest output again and undone the key.
    if (top < s.scrollTop - 1) this.setStick(false);
    s.scrollTop = top;
  }

  private setStick(stick: boolean): void {
    this.stick = stick;
    this.following = stick;
  }

  /** Applies a saved position once the items are there (the view was hidden and is shown again). */
  restore(state: ScrollState): void {
    this.pendingRestore = state;
    this.setStick(state.stick);
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
    clearTimeout(this.laterTimer);
    this.laterTimer = undefined;
  }

  override firstUpdated(): void {
    const s = this.scroller;
    if (s) this.viewObserver?.observe(s);
  }

  override willUpdate(): void {
    // Whether a control inside a row has the focus: a render that drops its row (scrolled far away)
    // would leave the focus on the page; updated() gives it to the conversation instead.
    const active = (this.renderRoot as ShadowRoot).activeElement;
    this.focusInRow = !!active?.closest('.row');
    // A message the user just sent: follow the answer, wherever they had scrolled.
    const lastUser = [...this.items].reverse().find((i) => i.kind === 'user')?.id;
    if (lastUser !== this.lastUserId) {
      if (this.lastUserId !== undefined) this.setStick(true);
      this.lastUserId = lastUser;
    }
  }

  override updated(): void {
    if (this.focusInRow && !(this.renderRoot as ShadowRoot).activeElement)
      this.scroller?.focus({ preventScroll: true });
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
    // A hidden view (no height) scrolls by itself: that is not the user leaving the newest output.
    if (!s || s.clientHeight === 0) return;
    // Only a move up (the user's doing) stops following: scroll events arrive a frame late, when
    // new output may already have grown the content below a programmatic scroll to the bottom.
    if (isNearBottom(s.scrollTop, s.clientHeight, s.scrollHeight)) this.setStick(true);
    else if (s.scrollTop < this.scrollTop - 1) this.setStick(false);
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
        aria-live="off"
        aria-label="Conversation"
        tabindex="0"
        data-testid="conversation"
        @scroll=${this.onScroll}
        @keydown=${this.onKeydown}
        @click=${this.onClick}
      >
        <slot name="empty"></slot>
        <div class="spacer" style="height:${w.padTop}px"></div>
        ${repeat(
          items.slice(w.start, w.end),
          (it) => it.id,
          (it) => html`<div class="row" data-id=${it.id}>${renderItem(it, this)}</div>`,
        )}
        <div class="spacer" style="height:${w.padBottom}px"></div>
      </div>
      ${
        !this.following && items.length > 0
          ? html`<button
              type="button"
              class="jump"
              data-testid="jump-to-latest"
              title="Jump to the newest output and follow it"
              @click=${(e: Event) => {
                // The button goes once following: the focus it had stays in the conversation, not the page.
                const had = (this.renderRoot as ShadowRoot).activeElement === e.currentTarget;
                this.jumpToLatest();
                if (had) this.scroller?.focus({ preventScroll: true });
              }}
            >
              <span class="codicon codicon-arrow-down" aria-hidden="true"></span> Jump to latest
            </button>`
          : nothing
      }`;
  }

  static override styles = [
    codicons,
    messageStyles,
    css`
      :host {
        display: block;
        position: relative;
        min-height: 0;
      }
      .scroller {
        height: 100%;
        overflow-y: auto;
        padding: 0 10px;
        box-sizing: border-box;
        /* Everything inside paints inside this box only (fixed or absolute elements included) and
           stacks below the panel's controls: model output can never cover them. */
        contain: strict;
        isolation: isolate;
        position: relative;
        z-index: 0;
      }
      .jump {
        position: absolute;
        right: 12px;
        bottom: 8px;
        z-index: 1;
        display: inline-flex;
        align-items: center;
        gap: 4px;
        padding: 2px 10px;
        font: inherit;
        font-size: 0.92em;
        color: var(--vscode-button-foreground);
        background: var(--vscode-button-background);
        border: 1px solid var(--vscode-contrastBorder, transparent);
        border-radius: 12px;
        box-shadow: 0 1px 4px var(--vscode-widget-shadow, rgba(0, 0, 0, 0.3));
        cursor: pointer;
      }
      .jump:hover {
        background: var(--vscode-button-hoverBackground);
      }
      .jump:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: 2px;
      }
      .scroller:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: -1px;
      }
      .row {
        display: flow-root;
      }
    `,
  ];
}

customElements.define('cd-conversation', CdConversation);

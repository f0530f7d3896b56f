// <cd-composer>: the message box, fixed at the bottom, with the strategy and model pickers and Send (Stop
// while the agent runs). The pickers work during a run too: the host applies a strategy from the next
// call and a model from the next message. Enter sends, Shift+Enter adds a line, Escape stops a run. The text stays
// until the host accepts it: a refused message (no model yet) is kept, with the reason and the way to fix it; a
// strategy or model the host refuses says why. Arrows in a picker pass over its options; Enter or leaving it
// takes one (lib/picker.ts).
import { LitElement, html, nothing } from 'lit';
import { askHost, requestHost, showView } from '../events';
import { buttons } from './buttons';
import { composerStyles } from './composer-styles';
import { codicons } from './codicons';
import { keyboardPicker } from '../lib/picker';
import { pickerStyles, showPicked } from './picker-label';

const SETUP_OPTION = '__setup__';

export class CdComposer extends LitElement {
  static override properties = {
    draft: { attribute: false },
    running: { type: Boolean },
    strategy: { attribute: false },
    strategies: { attribute: false },
    model: { attribute: false },
    models: { attribute: false },
    ready: { type: Boolean },
    asking: { type: Boolean, reflect: true },
    refusal: { state: true },
    sending: { state: true },
    stopping: { state: true },
  };

  declare draft: string;
  declare running: boolean;
  declare strategy: string;
  declare strategies: string[];
  declare model: string | undefined;
  declare models: string[];
  /** A model is set up: a refusal that asked for one is answered. */
  declare ready: boolean;
  /** An approval waits above: in a short panel the pickers fold away so the prompt has the room. */
  declare asking: boolean;
  declare refusal: { text: string; setup: boolean } | undefined;
  declare sending: boolean;
  /** Stop was pressed here and the run has not ended yet: the box says a message sent now waits for that end. */
  declare stopping: boolean;

  constructor() {
    super();
    this.draft = '';
    this.running = false;
    this.strategy = '';
    this.strategies = [];
    this.models = [];
    this.sending = false;
    this.stopping = false;
    this.ready = false;
    this.asking = false;
  }

  /** Send or Stop had the focus before this update (it may be swapped or disabled by it). */
  private actionFocused = false;

  override willUpdate(changed: Map<string, unknown>): void {
    this.actionFocused = (this.renderRoot as ShadowRoot).activeElement?.classList.contains('action') ?? false;
    // A refusal is about the moment it happened: a run starting or ending, or a model set up, answers it.
    if (changed.has('running') || (changed.has('ready') && this.ready)) this.refusal = undefined;
    if (changed.has('running')) this.stopping = false;
  }

  override updated(): void {
    showPicked(this.renderRoot);
    // Send and Stop take each other's place, and Send is disabled once the box is empty: the focus goes
    // to the message box rather than to the page.
    if (!this.actionFocused) return;
    const active = (this.renderRoot as ShadowRoot).activeElement as HTMLButtonElement | null;
    if (!active?.classList.contains('action') || active.disabled) this.box?.focus();
  }

  override focus(): void {
    this.box?.focus();
  }

  private get box(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector('textarea');
  }

  private setDraft(text: string): void {
    this.draft = text;
    this.dispatchEvent(new CustomEvent('cd-draft', { detail: text, bubbles: true, composed: true }));
  }

  private async send(): Promise<void> {
    const text = this.draft.trim();
    // While a run goes on the host decides: it was maybe stopped from outside the panel (Stop Agent
    // command, the view's title), and then it takes the message for when the run has ended.
    if (!text || this.sending) return;
    this.sending = true;
    const sent = this.draft;
    try {
      const r = await askHost(this, 'send', { text });
      if (r.accepted) {
        this.refusal = undefined;
        // Only what was sent goes: words typed while the host answered stay (they were cleared with it).
        const now = this.draft;
        this.setDraft(now === sent ? '' : now.startsWith(sent) ? now.slice(sent.length).replace(/^\s+/, '') : now);
      } else this.refusal = { text: r.reason ?? 'The agent did not take the message.', setup: r.setup === true };
    } catch (e) {
      this.refusal = { text: e instanceof Error ? e.message : String(e), setup: false };
    } finally {
      this.sending = false;
    }
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void this.send();
    } else if (e.key === 'Escape' && this.running && !e.isComposing) {
      e.preventDefault();
      this.stop();
    }
  }

  private stop(): void {
    this.stopping = true;
    requestHost(this, 'stop', {});
  }

  /** A strategy the host refuses does not stay shown as chosen (the host's error says why). */
  private pickStrategy(select: HTMLSelectElement): void {
    askHost(this, 'setStrategy', { strategy: select.value }).catch((e: unknown) => {
      select.value = this.strategy;
      showPicked(this.renderRoot);
      this.refuse(e);
    });
  }

  private pickModel(select: HTMLSelectElement): void {
    if (select.value === SETUP_OPTION) {
      select.value = this.currentModel() ?? '';
      showView(this, 'setup');
    } else if (select.value)
      askHost(this, 'setModel', { model: select.value }).catch((e: unknown) => {
        select.value = this.currentModel() ?? '';
        showPicked(this.renderRoot);
        this.refuse(e);
      });
  }

  /** Arrows and letters pass over strategies and models; Enter or leaving the picker takes one (lib/picker.ts). */
  private readonly strategyKeys = this.labelled(
    keyboardPicker({
      take: (select) => this.pickStrategy(select),
      inUse: () => this.strategy,
    }),
  );

  private readonly modelKeys = this.labelled(
    keyboardPicker({
      take: (select) => this.pickModel(select),
      inUse: () => this.currentModel() ?? '',
      enterOnly: SETUP_OPTION,
    }),
  );

  /** The picker's handlers, each then showing in the label what the select now shows (picker-label.ts). */
  private labelled(keys: ReturnType<typeof keyboardPicker>): ReturnType<typeof keyboardPicker> & {
    input: () => void;
  } {
    const show = (): void => showPicked(this.renderRoot);
    return {
      keydown: (e) => {
        keys.keydown(e);
        show();
      },
      change: (e) => {
        keys.change(e);
        show();
      },
      focusout: (e) => {
        keys.focusout(e);
        show();
      },
      pointerdown: keys.pointerdown,
      input: show,
    };
  }

  /** Says why the host refused a choice (the picker went back to what is in use). */
  private refuse(e: unknown): void {
    this.refusal = { text: e instanceof Error ? e.message : String(e), setup: false };
  }

  /** The snapshot names the model as `provider/model`; the picker lists model names. */
  private currentModel(): string | undefined {
    const label = this.model;
    return this.models.find((m) => label === m || (label?.endsWith(`/${m}`) ?? false));
  }

  override render(): unknown {
    const current = this.currentModel();
    return html`
      ${
        this.refusal
          ? html`<div class="refusal" role="alert" data-testid="send-refused">
              <span class="codicon codicon-warning" aria-hidden="true"></span>
              <span class="text">${this.refusal.text}</span>
              ${
                this.refusal.setup
                  ? html`<button type="button" class="link" @click=${() => showView(this, 'setup')}>
                      Set up a model
                    </button>`
                  : nothing
              }
            </div>`
          : nothing
      }
      <div class="box">
        <textarea
          data-testid="composer"
          aria-label=${
            this.running
              ? 'Message to the agent (Escape stops the agent)'
              : 'Message to the agent (Enter sends, Shift+Enter adds a line)'
          }
          placeholder=${
            this.stopping
              ? 'Stopping… (Enter sends once it has stopped)'
              : this.running
                ? 'The agent is working… (Escape to stop)'
                : 'Ask the agent… (Enter to send)'
          }
          rows="2"
          dir="auto"
          .value=${this.draft}
          @input=${(e: Event) => {
            this.refusal = undefined;
            this.setDraft((e.target as HTMLTextAreaElement).value);
          }}
          @keydown=${this.onKey}
        ></textarea>
        <div class="row">
          <span class="pick">
            <span class="shown" aria-hidden="true"></span>
            <span class="codicon codicon-chevron-down" aria-hidden="true"></span>
            <select
              aria-label="Context strategy"
              title="Context strategy"
              data-testid="strategy-picker"
              @change=${this.strategyKeys.change}
              @keydown=${this.strategyKeys.keydown}
              @focusout=${this.strategyKeys.focusout}
              @pointerdown=${this.strategyKeys.pointerdown}
              @input=${this.strategyKeys.input}
            >
              ${this.strategies.map((s) => html`<option value=${s} ?selected=${s === this.strategy}>${s}</option>`)}
            </select>
          </span>
          <span class="pick">
            <span class="shown" aria-hidden="true"></span>
            <span class="codicon codicon-chevron-down" aria-hidden="true"></span>
            <select
              aria-label="Model"
              title=${this.model ?? 'No model set up'}
              data-testid="model-picker"
              @change=${this.modelKeys.change}
              @keydown=${this.modelKeys.keydown}
              @focusout=${this.modelKeys.focusout}
              @pointerdown=${this.modelKeys.pointerdown}
              @input=${this.modelKeys.input}
            >
              ${current === undefined ? html`<option value="" selected>${this.model ?? 'No model'}</option>` : nothing}
              ${this.models.map((m) => html`<option value=${m} ?selected=${m === current}>${m}</option>`)}
              <option value=${SETUP_OPTION}>Set up a model…</option>
            </select>
          </span>
          <span class="spacer"></span>
          ${
            this.running
              ? html`<button
                  type="button"
                  class="action stop"
                  data-testid="stop"
                  aria-label="Stop the agent"
                  title="Stop the agent (Escape)"
                  @click=${() => this.stop()}
                >
                  <span class="codicon codicon-stop-circle" aria-hidden="true"></span>
                </button>`
              : html`<button
                  type="button"
                  class="action"
                  data-testid="send"
                  aria-label="Send"
                  title="Send (Enter)"
                  ?disabled=${this.draft.trim() === '' || this.sending}
                  @click=${() => void this.send()}
                >
                  <span class="codicon codicon-send" aria-hidden="true"></span>
                </button>`
          }
        </div>
      </div>
    `;
  }

  static override styles = [codicons, buttons, pickerStyles, composerStyles];
}

customElements.define('cd-composer', CdComposer);

// <cd-setup>: the provider form. Provider, base URL, key (kept in VS Code's secret storage; the form only
// learns whether one is stored), model (from what the endpoint lists), context window; Test connection
// says in one line whether the endpoint answers and names the URL it tried.
import { LitElement, html, nothing } from 'lit';
import type { ProviderChoice } from '../../protocol/chat';
import type { ConnectionResult, ProviderOption, SetupField, SetupForm } from '../../protocol/setup';
import type { SetupDraft } from '../../protocol/panelMemory';
import { askHost, showView } from '../events';
import { buttons } from './buttons';
import { codicons } from './codicons';
import { deepActiveElement } from '../lib/focus';
import { keyboardPicker } from '../lib/picker';
import { setupFormStyles } from './setup-form-styles';

type Draft = SetupDraft;

/** Fired with the fields as typed (undefined once saved or left): the panel has the host keep them. */
export const SETUP_DRAFT = 'cd-setup-draft';

export class CdSetup extends LitElement {
  static override properties = {
    kept: { attribute: false },
    form: { state: true },
    draft: { state: true },
    result: { state: true },
    busy: { state: true },
    models: { state: true },
    invalid: { state: true },
  };
  /** Fields typed before the view was hidden (VS Code discards a hidden webview): the form starts from them. */
  declare kept: SetupDraft | undefined;
  declare form: SetupForm | undefined;
  declare draft: Draft | undefined;
  declare result: (ConnectionResult & { kind: 'test' | 'save' }) | undefined;
  declare busy: string | undefined;
  declare models: string[];
  /** The field Save was refused for: marked invalid and described by the refusal until it is typed in. */
  declare invalid: SetupField | undefined;

  constructor() {
    super();
    this.models = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  /** Reads what is configured now (the form starts from it every time it opens). */
  async load(): Promise<void> {
    try {
      const form = await askHost(this, 'getSetup', {});
      this.form = form;
      this.result = undefined;
      const kept = this.kept && form.providers.some((p) => p.id === this.kept?.provider) ? this.kept : undefined;
      this.draft = kept ?? {
        provider: form.provider,
        baseUrl: form.baseUrls[form.provider] ?? '',
        apiKey: '',
        removeKey: false,
        model: form.model,
        contextWindow: String(form.contextWindow),
      };
      this.models = this.draft.model ? [this.draft.model] : [];
    } catch (e) {
      this.result = { kind: 'save', ok: false, url: '', message: String(e), models: [] };
    }
  }

  override updated(changed: Map<string, unknown>): void {
    // Opened (from the model picker, the welcome, a notice) the control used has gone with the view:
    // the form's first field takes the focus, not the page, unless the user has put it somewhere.
    if (changed.has('form') && changed.get('form') === undefined && this.form) {
      const active = deepActiveElement(document);
      if (active === null || active === document.body)
        this.renderRoot.querySelector<HTMLElement>('[data-testid="setup-provider"]')?.focus();
    }
    // The answer of Test connection or Save shows where the eye is, even in a short panel.
    if (changed.has('result') && this.result)
      this.renderRoot.querySelector('[data-testid="setup-result"]')?.scrollIntoView({ block: 'nearest' });
    // Save refused for a field: the focus goes to it (a screen reader then reads the reason with it).
    if (changed.has('invalid') && this.invalid)
      this.renderRoot.querySelector<HTMLElement>(`[data-field="${this.invalid}"]`)?.focus();
  }

  private get option(): ProviderOption | undefined {
    return this.form?.providers.find((p) => p.id === this.draft?.provider);
  }

  private set(part: Partial<Draft>): void {
    if (this.draft) this.draft = { ...this.draft, ...part };
    if (this.invalid && this.invalid in part) this.invalid = undefined;
    this.keep(this.draft);
  }

  /** Only what the user typed or picked is kept: a form merely opened follows the settings. */
  private keep(draft: Draft | undefined): void {
    this.dispatchEvent(new CustomEvent(SETUP_DRAFT, { detail: draft, bubbles: true, composed: true }));
  }

  private back(): void {
    this.keep(undefined);
    showView(this, 'chat');
  }

  /**
   * Arrows pass over the providers; Enter, leaving the list or the mouse takes one (lib/picker.ts): each
   * provider passed over swapped the fields below and cleared the base URL, key and model typed.
   */
  private readonly providerKeys = keyboardPicker({
    take: (select) => this.chooseProvider(select.value as ProviderChoice),
    inUse: () => this.draft?.provider ?? '',
  });

  private chooseProvider(id: ProviderChoice): void {
    const form = this.form;
    if (!form || !this.draft) return;
    const option = form.providers.find((p) => p.id === id);
    const sameAsSaved = id === form.provider;
    this.draft = {
      ...this.draft,
      provider: id,
      baseUrl: form.baseUrls[id] || option?.baseUrl?.default || '',
      apiKey: '',
      removeKey: false,
      model: sameAsSaved ? form.model : '',
    };
    this.models = sameAsSaved && form.model ? [form.model] : [];
    this.result = undefined;
    this.invalid = undefined;
    this.keep(this.draft);
  }

  private async test(): Promise<void> {
    const d = this.draft;
    if (!d) return;
    this.busy = 'test';
    try {
      const r = await askHost(this, 'testConnection', {
        provider: d.provider,
        baseUrl: d.baseUrl.trim(),
        model: d.model.trim(),
        ...(d.apiKey ? { apiKey: d.apiKey } : {}),
      });
      this.result = { ...r, kind: 'test' };
      if (r.models.length) this.models = r.models;
      if (!d.model && r.models.length === 1) this.set({ model: r.models[0]! });
    } catch (e) {
      this.result = { kind: 'test', ok: false, url: '', message: String(e), models: [] };
    } finally {
      this.busy = undefined;
    }
  }

  private async save(): Promise<void> {
    const d = this.draft;
    if (!d) return;
    this.busy = 'save';
    this.invalid = undefined;
    try {
      const window = Number(d.contextWindow);
      const r = await askHost(this, 'saveSetup', {
        provider: d.provider,
        baseUrl: d.baseUrl.trim(),
        model: d.model.trim(),
        ...(d.contextWindow.trim() !== '' ? { contextWindow: window } : {}),
        ...(d.apiKey ? { apiKey: d.apiKey } : {}),
        ...(d.removeKey ? { removeKey: true } : {}),
      });
      if (r.ok) {
        this.draft = { ...d, apiKey: '' };
        this.back();
      } else {
        this.result = { kind: 'save', ok: false, url: '', message: r.message, models: [] };
        this.invalid = r.field;
      }
    } catch (e) {
      this.result = { kind: 'save', ok: false, url: '', message: String(e), models: [] };
    } finally {
      this.busy = undefined;
    }
  }

  override render(): unknown {
    const f = this.form;
    const d = this.draft;
    const o = this.option;
    if (!f || !d || !o)
      return html`<p class="loading">Loading the setup…</p>
        ${this.resultRegion()}`;
    const keyStored = f.keyStored.includes(d.provider);
    return html`<form class="setup" data-testid="setup" @submit=${(e: Event) => e.preventDefault()}>
      <header>
        <h2>Set up a model</h2>
        <button type="button" class="link" @click=${() => this.back()}>Back to the chat</button>
      </header>
      <label for="provider">Provider</label>
      <select
        id="provider"
        aria-describedby="provider-hint"
        data-testid="setup-provider"
        @change=${this.providerKeys.change}
        @keydown=${this.providerKeys.keydown}
        @focusout=${this.providerKeys.focusout}
        @pointerdown=${this.providerKeys.pointerdown}
      >
        ${f.providers.map((p) => html`<option value=${p.id} ?selected=${p.id === d.provider}>${p.label}</option>`)}
      </select>
      <p class="hint" id="provider-hint">${o.description}</p>
      ${
        o.baseUrl
          ? html`<label for="base">Base URL</label>
              <input
                id="base"
                type="url"
                data-testid="setup-base-url"
                data-field="baseUrl"
                aria-invalid=${this.invalid === 'baseUrl' ? 'true' : 'false'}
                aria-describedby=${this.invalid === 'baseUrl' ? 'setup-error' : nothing}
                spellcheck="false"
                placeholder=${o.baseUrl.placeholder}
                .value=${d.baseUrl}
                @input=${(e: Event) => this.set({ baseUrl: (e.target as HTMLInputElement).value })}
              />`
          : nothing
      }
      ${
        o.key !== 'none'
          ? html`<label for="key"
                >API key
                ${o.key === 'optional' ? html`<span class="opt">(if the endpoint needs one)</span>` : nothing}</label
              >
              <input
                id="key"
                type="password"
                autocomplete="off"
                data-testid="setup-key"
                data-field="apiKey"
                aria-invalid=${this.invalid === 'apiKey' ? 'true' : 'false'}
                aria-describedby=${this.invalid === 'apiKey' ? 'key-hint setup-error' : 'key-hint'}
                placeholder=${keyStored ? 'A key is stored (type to replace it)' : o.key === 'required' ? 'Required' : 'None'}
                .value=${d.apiKey}
                @input=${(e: Event) => this.set({ apiKey: (e.target as HTMLInputElement).value })}
              />
              <p class="hint" id="key-hint">Kept in VS Code's secret storage, never in settings or files.</p>
              ${
                keyStored
                  ? html`<label class="check"
                      ><input
                        type="checkbox"
                        .checked=${d.removeKey}
                        @change=${(e: Event) => this.set({ removeKey: (e.target as HTMLInputElement).checked })}
                      />
                      Remove the stored key</label
                    >`
                  : nothing
              }`
          : nothing
      }
      ${
        o.model === 'listed'
          ? html`<label for="model">Model</label>
              <input
                id="model"
                list="models"
                data-testid="setup-model"
                data-field="model"
                aria-invalid=${this.invalid === 'model' ? 'true' : 'false'}
                aria-describedby=${this.invalid === 'model' ? 'setup-error' : nothing}
                spellcheck="false"
                placeholder=${d.provider === 'vscode-lm' ? 'Empty: the first model VS Code offers' : 'Test connection lists the models'}
                .value=${d.model}
                @input=${(e: Event) => this.set({ model: (e.target as HTMLInputElement).value })}
              />
              <datalist id="models">${this.models.map((m) => html`<option value=${m}></option>`)}</datalist>
              <label for="window">Context window (tokens)</label>
              <input
                id="window"
                type="number"
                min="1024"
                step="1024"
                data-testid="setup-window"
                data-field="contextWindow"
                aria-invalid=${this.invalid === 'contextWindow' ? 'true' : 'false'}
                aria-describedby=${this.invalid === 'contextWindow' ? 'setup-error' : nothing}
                .value=${d.contextWindow}
                @input=${(e: Event) => this.set({ contextWindow: (e.target as HTMLInputElement).value })}
              />`
          : nothing
      }
      <div class="actions">
        ${
          d.provider !== 'demo'
            ? html`<button
                type="button"
                class="secondary"
                data-testid="setup-test"
                ?disabled=${!!this.busy}
                @click=${() => void this.test()}
              >
                <span
                  class="codicon ${this.busy === 'test' ? 'codicon-loading codicon-modifier-spin' : 'codicon-plug'}"
                  aria-hidden="true"
                ></span>
                Test connection
              </button>`
            : nothing
        }
        <button
          type="button"
          class="primary"
          data-testid="setup-save"
          ?disabled=${!!this.busy}
          @click=${() => void this.save()}
        >
          ${d.provider === 'demo' ? 'Use the demo model' : 'Save'}
        </button>
      </div>
      ${this.resultRegion()}
    </form>`;
  }

  /**
   * Test connection's and Save's answer, in a live region that is there before the answer: a region
   * inserted together with its text is often not read. Emptied while testing, so a repeated answer is read.
   */
  private resultRegion(): unknown {
    return html`<div role="status" aria-live="polite" data-testid="setup-result-region">
      ${this.busy === 'test' ? html`<p class="testing">Testing the connection…</p>` : this.resultLine()}
    </div>`;
  }

  private resultLine(): unknown {
    const r = this.result;
    if (!r) return nothing;
    return html`<p class="result ${r.ok ? 'ok' : 'fail'}" id="setup-error" data-testid="setup-result">
      <span class="codicon ${r.ok ? 'codicon-pass' : 'codicon-error'}" aria-hidden="true"></span>
      <span>${r.message}</span>
    </p>`;
  }

  static override styles = [codicons, buttons, setupFormStyles];
}

customElements.define('cd-setup', CdSetup);

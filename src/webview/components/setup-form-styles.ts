// The look of <cd-setup> (setup-form.ts): one column of labelled fields in the theme's input colours,
// the actions, and Test connection's answer marked passed or failed.
import { css } from 'lit';

export const setupFormStyles = css`
  :host {
    display: block;
    overflow-y: auto;
    padding: 8px 12px 16px;
  }
  .setup {
    display: flex;
    flex-direction: column;
    gap: 4px;
    max-width: 40em;
  }
  header {
    display: flex;
    align-items: baseline;
    justify-content: space-between;
    gap: 8px;
    flex-wrap: wrap;
    margin-bottom: 4px;
  }
  h2 {
    margin: 0;
    font-size: 1.1em;
    font-weight: 600;
  }
  label {
    margin-top: 6px;
    font-weight: 600;
  }
  .opt {
    font-weight: normal;
    color: var(--vscode-descriptionForeground);
  }
  label.check {
    display: flex;
    align-items: center;
    gap: 6px;
    font-weight: normal;
    margin-top: 0;
  }
  input:not([type='checkbox']),
  select {
    box-sizing: border-box;
    width: 100%;
    padding: 4px 6px;
    font: inherit;
    color: var(--vscode-input-foreground);
    background: var(--vscode-input-background);
    border: 1px solid var(--vscode-input-border, var(--vscode-widget-border, transparent));
    border-radius: 2px;
  }
  select {
    color: var(--vscode-dropdown-foreground);
    background: var(--vscode-dropdown-background);
    border-color: var(--vscode-dropdown-border, transparent);
  }
  input:focus-visible,
  select:focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: -1px;
  }
  input::placeholder {
    color: var(--vscode-input-placeholderForeground);
  }
  .hint {
    margin: 2px 0 0;
    font-size: 0.92em;
    color: var(--vscode-descriptionForeground);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin-top: 12px;
  }
  .result {
    display: flex;
    align-items: flex-start;
    gap: 6px;
    margin: 10px 0 0;
    padding: 6px 8px;
    word-break: break-word;
    border-left: 3px solid var(--vscode-testing-iconPassed, var(--vscode-charts-green));
    background: var(--vscode-editorWidget-background);
  }
  .result.fail {
    border-left-color: var(--vscode-errorForeground);
  }
  .result.ok .codicon {
    color: var(--vscode-testing-iconPassed, var(--vscode-charts-green));
  }
  .result.fail .codicon {
    color: var(--vscode-errorForeground);
  }
  .loading,
  .testing {
    color: var(--vscode-descriptionForeground);
  }
  .testing {
    margin: 10px 0 0;
  }
`;

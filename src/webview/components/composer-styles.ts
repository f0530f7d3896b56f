// The look of <cd-composer> (composer.ts): the message box in the theme's input colours, the row of
// pickers and Send/Stop below it, a refusal's note, and the short-panel layout while an approval waits.
import { css } from 'lit';

export const composerStyles = css`
  :host {
    display: block;
  }
  .box {
    border: 1px solid var(--vscode-input-border, var(--vscode-widget-border, transparent));
    border-radius: 4px;
    background: var(--vscode-input-background);
  }
  .box:focus-within {
    border-color: var(--vscode-focusBorder);
  }
  textarea {
    display: block;
    width: 100%;
    box-sizing: border-box;
    resize: none;
    min-height: 2.8em;
    /* 30 % of a tall panel; two lines at 200 px (200 % zoom), where more left an approval no room. */
    max-height: min(30vh, max(2.8em, 60vh - 120px));
    field-sizing: content;
    font: inherit;
    padding: 6px 8px 2px;
    color: var(--vscode-input-foreground);
    background: transparent;
    border: none;
    outline: none;
  }
  textarea::placeholder {
    color: var(--vscode-input-placeholderForeground);
  }
  /* A narrow panel puts a picker on a line of its own, its name wrapped (picker-label.ts). */
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 2px 4px;
    padding: 2px 4px 4px;
    min-width: 0;
  }
  .spacer {
    flex: 1;
  }
  .action {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 26px;
    height: 24px;
    flex: none;
    color: var(--vscode-button-foreground);
    background: var(--vscode-button-background);
    border: 1px solid var(--vscode-button-border, transparent);
    border-radius: 3px;
    cursor: pointer;
  }
  .action:hover:not(:disabled) {
    background: var(--vscode-button-hoverBackground);
  }
  .action:disabled {
    opacity: 0.5;
    cursor: default;
  }
  .action:focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: 1px;
  }
  .stop {
    color: var(--vscode-button-secondaryForeground);
    background: var(--vscode-button-secondaryBackground);
  }
  /* 200 px tall (a 400 px sidebar at 200 % zoom): the pickers and Stop on their own line left a waiting
     approval no room for its question and Approve. While one waits the pickers fold away (they are back
     once it is answered) and Stop sits beside the message box. */
  @media (max-height: 260px) {
    :host([asking]) .pick,
    :host([asking]) .spacer {
      display: none;
    }
    :host([asking]) .box {
      display: flex;
      align-items: flex-end;
    }
    :host([asking]) textarea {
      flex: 1;
      min-width: 0;
    }
  }
  .refusal {
    display: flex;
    align-items: flex-start;
    gap: 6px;
    margin: 0 0 6px;
    padding: 4px 6px;
    font-size: 0.92em;
    border-left: 3px solid var(--vscode-notificationsWarningIcon-foreground, var(--vscode-editorWarning-foreground));
    background: var(--vscode-inputValidation-warningBackground, transparent);
  }
  .refusal .text {
    flex: 1;
  }
  .refusal .link {
    white-space: nowrap;
  }
`;

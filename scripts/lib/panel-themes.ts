// VS Code theme variables for the panel preview (scripts/panel-preview.ts): the colours the panel uses,
// as VS Code's Dark Modern, Light Modern and High Contrast Dark themes set them, so a quick look shows
// all three without starting a workbench (the e2e run takes the real themes' screenshots).

const COMMON = `--vscode-font-family:system-ui,sans-serif;--vscode-font-size:13px;--vscode-editor-font-family:monospace;
--vscode-editor-font-size:12px;`;

export const THEMES = {
  dark: `${COMMON}--vscode-foreground:#cccccc;--vscode-descriptionForeground:#9d9d9d;--vscode-sideBar-background:#181818;
--vscode-button-background:#0078d4;--vscode-button-foreground:#ffffff;--vscode-button-hoverBackground:#026ec1;
--vscode-button-secondaryBackground:#313131;--vscode-button-secondaryForeground:#cccccc;--vscode-button-secondaryHoverBackground:#3c3c3c;
--vscode-input-background:#313131;--vscode-input-foreground:#cccccc;--vscode-input-border:#3c3c3c;
--vscode-input-placeholderForeground:#989898;--vscode-dropdown-background:#313131;--vscode-dropdown-foreground:#cccccc;
--vscode-dropdown-border:#3c3c3c;--vscode-focusBorder:#0078d4;--vscode-textCodeBlock-background:#2b2b2b;
--vscode-editorWidget-background:#202020;--vscode-widget-border:#313131;--vscode-panel-border:#2b2b2b;
--vscode-textLink-foreground:#4daafc;--vscode-textLink-activeForeground:#4daafc;--vscode-progressBar-background:#0078d4;
--vscode-errorForeground:#f85149;--vscode-charts-blue:#3794ff;--vscode-charts-orange:#d18616;--vscode-charts-green:#89d185;
--vscode-charts-yellow:#cca700;--vscode-charts-red:#f14c4c;--vscode-badge-background:#616161;--vscode-badge-foreground:#f8f8f8;
--vscode-notificationsInfoIcon-foreground:#3794ff;--vscode-notificationsWarningIcon-foreground:#cca700;
--vscode-notificationsErrorIcon-foreground:#f14c4c;--vscode-editorWarning-foreground:#cca700;
--vscode-inputValidation-warningBackground:#352a05;--vscode-inputValidation-warningBorder:#b89500;
--vscode-list-hoverBackground:#2a2d2e;--vscode-testing-iconPassed:#73c991;`,
  light: `${COMMON}--vscode-foreground:#3b3b3b;--vscode-descriptionForeground:#717171;--vscode-sideBar-background:#f8f8f8;
--vscode-button-background:#005fb8;--vscode-button-foreground:#ffffff;--vscode-button-hoverBackground:#0258a8;
--vscode-button-secondaryBackground:#e5e5e5;--vscode-button-secondaryForeground:#3b3b3b;--vscode-button-secondaryHoverBackground:#cccccc;
--vscode-input-background:#ffffff;--vscode-input-foreground:#3b3b3b;--vscode-input-border:#cecece;
--vscode-input-placeholderForeground:#767676;--vscode-dropdown-background:#ffffff;--vscode-dropdown-foreground:#3b3b3b;
--vscode-dropdown-border:#cecece;--vscode-focusBorder:#005fb8;--vscode-textCodeBlock-background:#f2f2f2;
--vscode-editorWidget-background:#f8f8f8;--vscode-widget-border:#e5e5e5;--vscode-panel-border:#e5e5e5;
--vscode-textLink-foreground:#005fb8;--vscode-textLink-activeForeground:#005fb8;--vscode-progressBar-background:#005fb8;
--vscode-errorForeground:#f85149;--vscode-charts-blue:#1a85ff;--vscode-charts-orange:#d18616;--vscode-charts-green:#388a34;
--vscode-charts-yellow:#bf8803;--vscode-charts-red:#e51400;--vscode-badge-background:#cccccc;--vscode-badge-foreground:#3b3b3b;
--vscode-notificationsInfoIcon-foreground:#1a85ff;--vscode-notificationsWarningIcon-foreground:#bf8803;
--vscode-notificationsErrorIcon-foreground:#e51400;--vscode-editorWarning-foreground:#bf8803;
--vscode-inputValidation-warningBackground:#f6f5d2;--vscode-inputValidation-warningBorder:#b89500;
--vscode-list-hoverBackground:#f2f2f2;--vscode-testing-iconPassed:#388a34;`,
  hc: `${COMMON}--vscode-foreground:#ffffff;--vscode-descriptionForeground:#ffffff;--vscode-sideBar-background:#000000;
--vscode-contrastBorder:#6fc3df;--vscode-contrastActiveBorder:#f38518;
--vscode-button-background:#000000;--vscode-button-foreground:#ffffff;--vscode-button-border:#6fc3df;
--vscode-button-secondaryBackground:#000000;--vscode-button-secondaryForeground:#ffffff;
--vscode-input-background:#000000;--vscode-input-foreground:#ffffff;--vscode-input-border:#6fc3df;
--vscode-input-placeholderForeground:#ffffffb3;--vscode-dropdown-background:#000000;--vscode-dropdown-foreground:#ffffff;
--vscode-dropdown-border:#6fc3df;--vscode-focusBorder:#f38518;--vscode-textCodeBlock-background:#000000;
--vscode-editorWidget-background:#0c141f;--vscode-widget-border:#6fc3df;--vscode-panel-border:#6fc3df;
--vscode-textLink-foreground:#21a6ff;--vscode-textLink-activeForeground:#21a6ff;--vscode-progressBar-background:#6fc3df;
--vscode-errorForeground:#f48771;--vscode-charts-blue:#3794ff;--vscode-charts-orange:#d18616;--vscode-charts-green:#89d185;
--vscode-charts-yellow:#ffd700;--vscode-charts-red:#f48771;--vscode-badge-background:#000000;--vscode-badge-foreground:#ffffff;
--vscode-notificationsInfoIcon-foreground:#3794ff;--vscode-notificationsWarningIcon-foreground:#ffd700;
--vscode-notificationsErrorIcon-foreground:#f48771;--vscode-editorWarning-foreground:#ffd700;
--vscode-inputValidation-warningBackground:#000000;--vscode-inputValidation-warningBorder:#ffd700;
--vscode-testing-iconPassed:#73c991;`,
} as const;

export type ThemeName = keyof typeof THEMES;

/** The body background each theme's sidebar has. */
export const BACKGROUND: Record<ThemeName, string> = { dark: '#181818', light: '#f8f8f8', hc: '#000000' };

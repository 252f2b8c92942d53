// A subset of VS Code's theme variables (Dark Modern, Light Modern, High Contrast) so the standalone
// page looks as the panel does inside the editor.
export const themes = {
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      '--vscode-foreground': '#cccccc', '--vscode-descriptionForeground': '#9d9d9d', '--vscode-errorForeground': '#f85149',
      '--vscode-editor-background': '#1f1f1f', '--vscode-sideBar-background': '#181818', '--vscode-panel-border': '#2b2b2b',
      '--vscode-widget-border': '#313131', '--vscode-focusBorder': '#0078d4',
      '--vscode-button-background': '#0078d4', '--vscode-button-foreground': '#ffffff', '--vscode-button-hoverBackground': '#026ec1',
      '--vscode-button-border': '#ffffff12', '--vscode-button-secondaryBackground': '#313131', '--vscode-button-secondaryForeground': '#cccccc',
      '--vscode-button-secondaryHoverBackground': '#3c3c3c', '--vscode-input-background': '#313131', '--vscode-input-foreground': '#cccccc',
      '--vscode-input-border': '#3c3c3c', '--vscode-input-placeholderForeground': '#989898', '--vscode-dropdown-background': '#313131',
      '--vscode-dropdown-foreground': '#cccccc', '--vscode-dropdown-border': '#3c3c3c', '--vscode-badge-background': '#616161',
      '--vscode-badge-foreground': '#f8f8f8', '--vscode-textLink-foreground': '#4daafc', '--vscode-textLink-activeForeground': '#4daafc',
      '--vscode-textCodeBlock-background': '#2b2b2b', '--vscode-textBlockQuote-border': '#616161b3',
      '--vscode-progressBar-background': '#0078d4', '--vscode-statusBarItem-warningBackground': '#b89500',
      '--vscode-statusBarItem-warningForeground': '#ffffff', '--vscode-statusBarItem-errorBackground': '#c72e0f',
      '--vscode-statusBarItem-errorForeground': '#ffffff', '--vscode-testing-iconPassed': '#73c991',
      '--vscode-gitDecoration-addedResourceForeground': '#81b88b', '--vscode-gitDecoration-deletedResourceForeground': '#c74e39',
      '--vscode-editorWarning-foreground': '#cca700', '--vscode-toolbar-hoverBackground': '#5a5d5e50',
      '--vscode-font-family': 'system-ui, -apple-system, "Segoe UI", "Ubuntu", sans-serif', '--vscode-font-size': '13px',
      '--vscode-editor-font-family': '"Droid Sans Mono", "monospace", monospace', '--vscode-editor-font-size': '12px',
    },
  },
  light: {
    bodyClass: 'vscode-light',
    vars: {
      '--vscode-foreground': '#3b3b3b', '--vscode-descriptionForeground': '#3b3b3b', '--vscode-errorForeground': '#f85149',
      '--vscode-editor-background': '#ffffff', '--vscode-sideBar-background': '#f8f8f8', '--vscode-panel-border': '#e5e5e5',
      '--vscode-focusBorder': '#005fb8', '--vscode-button-background': '#005fb8', '--vscode-button-foreground': '#ffffff',
      '--vscode-button-secondaryBackground': '#e5e5e5', '--vscode-button-secondaryForeground': '#3b3b3b',
      '--vscode-input-background': '#ffffff', '--vscode-input-foreground': '#3b3b3b', '--vscode-input-border': '#cecece',
      '--vscode-badge-background': '#cccccc', '--vscode-badge-foreground': '#3b3b3b', '--vscode-textLink-foreground': '#005fb8',
      '--vscode-textCodeBlock-background': '#f2f2f2', '--vscode-progressBar-background': '#005fb8',
      '--vscode-statusBarItem-warningBackground': '#725102', '--vscode-statusBarItem-errorBackground': '#c72e0f',
      '--vscode-testing-iconPassed': '#388a34', '--vscode-font-family': 'system-ui, sans-serif', '--vscode-font-size': '13px',
      '--vscode-editor-font-family': 'monospace',
    },
  },
  'high-contrast': {
    bodyClass: 'vscode-high-contrast',
    vars: {
      '--vscode-foreground': '#ffffff', '--vscode-editor-background': '#000000', '--vscode-sideBar-background': '#000000',
      '--vscode-panel-border': '#6fc3df', '--vscode-focusBorder': '#f38518', '--vscode-button-background': '#000000',
      '--vscode-button-foreground': '#ffffff', '--vscode-button-border': '#6fc3df', '--vscode-input-background': '#000000',
      '--vscode-input-border': '#6fc3df', '--vscode-textLink-foreground': '#21a6ff', '--vscode-font-family': 'system-ui, sans-serif',
      '--vscode-font-size': '13px', '--vscode-editor-font-family': 'monospace',
    },
  },
};

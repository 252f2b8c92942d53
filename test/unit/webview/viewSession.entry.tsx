// Bundled by the view session tests as one module (a .tsx: it reaches the webview's components), so
// the panel, the store, the context and Preact itself are one instance each.
export { h, render } from 'preact';
export { act } from 'preact/test-utils';
export * from '../../../webview-ui/src/state/viewStore';
export * from '../../../webview-ui/src/state/viewSession';
export { Panel } from '../../../webview-ui/src/ui/App';

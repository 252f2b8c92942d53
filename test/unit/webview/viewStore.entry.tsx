// Bundled by the view store tests as one module (a .tsx: it reaches the webview's components, which the
// Node test build neither compiles nor type-checks), so the components, the store, the context and
// Preact itself are one instance each (hooks and context only work within one copy of Preact).
export { Component, h, render } from 'preact';
export { act } from 'preact/test-utils';
export * from '../../../webview-ui/src/state/viewStore';
export * from '../../../webview-ui/src/ui/storeContext';
export { VirtualCardList } from '../../../webview-ui/src/ui/VirtualCardList';
export { decodeCard } from '../../../webview-ui/src/state/decodeInbound';
export { Header } from '../../../webview-ui/src/ui/Header';
export { ChatStore } from '../../../webview-ui/src/state/chatStore';

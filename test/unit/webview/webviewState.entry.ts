// Bundled by the store tests as one module, so the store and the decoder share one instance
// (lazily validated snapshot cards are tracked in a module-level WeakSet).
export * from '../../../webview-ui/src/state/chatStore';
export * from '../../../webview-ui/src/state/decodeInbound';

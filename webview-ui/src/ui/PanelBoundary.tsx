import { Component, Fragment, type ComponentChildren } from 'preact';

/**
 * The last guard against a blank panel: something outside a card (the header, the composer, state
 * derived from odd cards) threw while rendering. Shows why as text and offers to load the chat
 * again: the app mounts afresh, says ready, and the host answers with a snapshot.
 */
export class PanelBoundary extends Component<{ children: ComponentChildren }, { error?: string; mount: number }> {
  override state = { error: undefined as string | undefined, mount: 0 };
  override componentDidCatch(err: unknown): void {
    this.setState({ error: String(err) });
  }
  override render() {
    if (this.state.error === undefined) return <Fragment key={this.state.mount}>{this.props.children}</Fragment>;
    return (
      <div class="card card-raw" role="alert">
        <p>The chat could not be shown: {this.state.error}</p>
        <button type="button" onClick={() => this.setState((s) => ({ error: undefined, mount: s.mount + 1 }))}>Load the chat again</button>
      </div>
    );
  }
}

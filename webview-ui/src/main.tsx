import { render } from 'preact';

function App() {
  return <div>Tandem</div>;
}

render(<App />, document.getElementById('root')!);

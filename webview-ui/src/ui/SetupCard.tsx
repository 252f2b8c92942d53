import { useEffect, useState } from 'preact/hooks';
import type { RoleInfo, RoleRegistry } from '../../../src/protocol';
import { PRODUCT_ROLE_INFO } from '../../../src/protocol/roleRegistry';
import { endpointNeedsKey } from '../../../src/protocol/endpointNeedsKey';
import { postToHost } from '../bridge/vscodeApi';
import type { ConnectionResult } from '../state/viewStore';

/** First-run setup: pick an endpoint, test it, choose a model per role, save. */
export const PRESETS = [
  { id: 'openai', label: 'OpenAI', url: 'https://api.openai.com/v1', needsKey: true },
  { id: 'openrouter', label: 'OpenRouter', url: 'https://openrouter.ai/api/v1', needsKey: true },
  { id: 'ollama', label: 'Ollama', url: 'http://localhost:11434/v1', needsKey: false },
  { id: 'lmstudio', label: 'LM Studio', url: 'http://localhost:1234/v1', needsKey: false },
  { id: 'llamacpp', label: 'llama.cpp server', url: 'http://localhost:8080/v1', needsKey: false },
  { id: 'custom', label: 'Custom URL', url: '', needsKey: false },
] as const;


interface Props {
  initialUrl?: string;
  /** The models configured per role (role id → model): shown, and kept when the endpoint lists them. */
  initialModels?: Record<string, string>;
  /** The endpoint answered 401: a key is needed even for a local URL. */
  keyNeeded?: boolean;
  result: ConnectionResult | null;
  onClose(): void;
  /** The settings were saved and the endpoint answered: a model is connected. */
  onSaved?(): void;
  /** One model field per role of the table. */
  roles?: RoleRegistry<RoleInfo>;
}

function presetFor(url: string | undefined): string {
  return PRESETS.find((p) => p.url && p.url === url)?.id ?? (url ? 'custom' : 'openai');
}

export function SetupCard({ initialUrl, initialModels, keyNeeded = false, result, onClose, onSaved = onClose, roles = PRODUCT_ROLE_INFO }: Props) {
  const [preset, setPreset] = useState(presetFor(initialUrl));
  const [url, setUrl] = useState(initialUrl ?? PRESETS[0].url);
  const [key, setKey] = useState('');
  const [phase, setPhase] = useState<'idle' | 'testing' | 'saving'>('idle');
  const [models, setModels] = useState<string[]>([]);
  /** The model chosen per role id. */
  const [chosen, setChosen] = useState<Record<string, string>>(() => ({ ...initialModels }));
  const [error, setError] = useState<string | null>(null);
  const [tested, setTested] = useState(false);

  useEffect(() => {
    if (!result) return;
    if (phase === 'saving') {
      if (result.ok) onSaved();
      else setError(result.error ?? 'Saving failed');
      setPhase('idle');
      return;
    }
    setPhase('idle');
    setTested(true);
    if (result.ok) {
      const list = result.models ?? [];
      setModels(list);
      setError(null);
      if (list.length > 0) {
        // What is configured stays; a role without a listed model gets a suggestion, not simply the first model.
        const suggestion = result.suggested ?? {};
        setChosen((c) => {
          const next = Object.fromEntries(roles.list.map((r) => [r.id, c[r.id] && list.includes(c[r.id]!) ? c[r.id]! : suggestion[r.id] ?? list[0]!]));
          return next;
        });
      }
    } else {
      setModels([]);
      setError(result.error ?? 'The endpoint did not answer.');
    }
    // Only a new result (tick) should trigger this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result?.tick]);

  useEffect(() => {
    if (phase === 'idle') return;
    // The host answers both requests with connection_result; don't spin forever if it never does.
    const t = setTimeout(() => {
      setPhase('idle');
      setError('No answer from the extension yet. Check the Tandem output channel.');
    }, 15_000);
    return () => clearTimeout(t);
  }, [phase]);

  const choosePreset = (id: string): void => {
    setPreset(id);
    const p = PRESETS.find((x) => x.id === id);
    if (p && p.url) setUrl(p.url);
    setTested(false);
    setModels([]);
    setError(null);
  };
  // A preset says; a custom URL needs one unless it is on this machine or the local network.
  // After a 401 the server has said it: the key is needed, local or not (for the URL it refused).
  const needsKey = keyNeeded || (preset === 'custom' ? endpointNeedsKey(url) : PRESETS.find((p) => p.id === preset)?.needsKey ?? false);
  const apiKey = key.trim() || undefined;
  const modelOf = (r: RoleInfo): string => (chosen[r.id] ?? '').trim();
  const canSave = url.trim() !== '' && roles.list.every((r) => modelOf(r) !== '') && phase === 'idle';

  const modelField = (label: string, value: string, set: (v: string) => void) => (
    <label class="field" key={label}>
      <span>{label}</span>
      {models.length > 0 ? (
        <select aria-label={label} value={value} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value)}>
          {models.map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
      ) : (
        <input type="text" aria-label={label} placeholder="model name" value={value} onInput={(e) => set((e.currentTarget as HTMLInputElement).value)} />
      )}
    </label>
  );

  return (
    <section class="card setup" role="region" aria-label="Set up Tandem" data-card-kind="setup" data-card-id="setup">
      <div class="card-head">
        <span class="card-title">Connect a model</span>
        <button type="button" class="icon" aria-label="Close setup" onClick={onClose}>✕</button>
      </div>
      <p class="muted">Tandem talks to any OpenAI-compatible endpoint. The API key is kept in VS Code's secret storage, never in settings.</p>
      <div class="presets" role="radiogroup" aria-label="Endpoint">
        {PRESETS.map((p) => (
          <button key={p.id} type="button" role="radio" aria-checked={preset === p.id} class={preset === p.id ? 'primary' : 'secondary'} onClick={() => choosePreset(p.id)}>
            {p.label}
          </button>
        ))}
      </div>
      <label class="field">
        <span>Base URL</span>
        <input type="url" aria-label="Base URL" value={url} placeholder="https://host/v1" onInput={(e) => { setUrl((e.currentTarget as HTMLInputElement).value); setTested(false); }} />
      </label>
      <label class="field">
        <span>API key{keyNeeded ? ' (needed)' : needsKey ? '' : ' (optional)'}</span>
        <input type="password" aria-label="API key" autoComplete="off" value={key} placeholder={needsKey ? 'sk-…' : 'not needed for local servers'} onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          disabled={!url.trim() || phase !== 'idle'}
          onClick={() => {
            setPhase('testing');
            setError(null);
            postToHost({ type: 'test_connection', base_url: url.trim(), api_key: apiKey });
          }}
        >
          {phase === 'testing' ? 'Testing…' : 'Test connection'}
        </button>
        {tested && !error && <span class="ok-text">Connected · {models.length} model{models.length === 1 ? '' : 's'}</span>}
      </div>
      {error && <p class="error-text" role="alert">{error}</p>}
      {roles.list.map((r) => modelField(`${r.label} model`, chosen[r.id] ?? '', (v) => setChosen((c) => ({ ...c, [r.id]: v }))))}
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={!canSave}
          onClick={() => {
            setPhase('saving');
            postToHost({ type: 'save_settings', base_url: url.trim(), api_key: apiKey, models: Object.fromEntries(roles.list.map((r) => [r.id, modelOf(r)])) });
          }}
        >
          {phase === 'saving' ? 'Saving…' : 'Save'}
        </button>
      </div>
    </section>
  );
}

/**
 * Whether an OpenAI-compatible endpoint will want an API key. Servers on this machine or the local
 * network (Ollama, LM Studio, llama.cpp) usually take none; anything else reached over the internet
 * does, so a missing key there means every request will end in a 401: better to ask first.
 */
export function endpointNeedsKey(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl.trim()).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === '' || host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return false;
  if (host === '::1' || host === '0.0.0.0' || /^f[cd][0-9a-f]{2}:/.test(host) || host.startsWith('fe80:')) return false;
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254)) return false;
    return true;
  }
  // A bare machine name on the local network ("gpu-box") has no dot.
  return host.includes('.');
}

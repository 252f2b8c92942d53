/**
 * A fetch that follows redirects only within the configured endpoint's origin. fetch's default
 * follows any redirect, re-sending the request body (the whole conversation and the workspace
 * text in it) to whatever host the endpoint names — a host the user never configured. A redirect
 * elsewhere is refused before anything is sent there.
 */
export class RedirectRefused extends Error {
  constructor(readonly from: string, readonly to: string) {
    super(`The endpoint redirected to another host (${to}); Tandem does not follow redirects to hosts you did not configure, so nothing was sent there. If that is the right endpoint, set it as the base URL.`);
    this.name = 'RedirectRefused';
  }
}

const MAX_REDIRECTS = 5;

export function sameOriginFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const origin = new URL(url).origin;
    for (let hops = 0; ; hops++) {
      const res = await inner(url, { ...init, redirect: 'manual' });
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (!location) return res;
      const next = new URL(location, url);
      // Let the socket go: the redirect's own body is never read.
      await res.body?.cancel().catch(() => undefined);
      if (next.origin !== origin) throw new RedirectRefused(origin, next.origin);
      if (hops >= MAX_REDIRECTS) throw new Error(`The endpoint redirected more than ${MAX_REDIRECTS} times.`);
      url = next.href;
    }
  };
}

/** The RedirectRefused inside whatever the SDK wrapped it in, if any. */
export function findRedirectRefused(err: unknown): RedirectRefused | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof RedirectRefused) return e;
  }
  return undefined;
}

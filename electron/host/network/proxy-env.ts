// The environment that points a confined process's tools at its session's egress proxy. The URL
// holds no credentials: the port alone says whose connections they are (one listener per session,
// and the launcher lets a process reach only its own session's).
//
// What reads what:
//   curl, wget, git (libcurl), pip, cargo, go, Python's urllib and requests, Ruby: http_proxy,
//     https_proxy and HTTPS_PROXY (curl ignores upper-case HTTP_PROXY, a CGI-era precaution; the
//     lower-case one is there), all_proxy / ALL_PROXY for the rest of curl's protocols;
//   npm: its own settings, npm_config_proxy and npm_config_https_proxy (it reads no *_PROXY);
//   node's own fetch and http: only with NODE_USE_ENV_PROXY=1 (node 24 and later; harmless before).
// NO_PROXY, no_proxy and npm's npm_config_noproxy are removed, not set: with `localhost` in them
// a tool would connect to a local port directly, and the guarantee is the same either way (the
// launcher admits only the ports the proxy would: the session's own listeners and
// sandbox.network.local_ports), but an inherited corporate NO_PROXY naming remote hosts would make
// tools try direct connections that the launcher refuses, with a far less helpful error than the
// proxy's 403.

/** Variables the host's environment may hold that would send traffic around the proxy. */
export const BYPASS_VARS = ['NO_PROXY', 'no_proxy', 'npm_config_noproxy'] as const;

export function proxyEnv(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    ALL_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    all_proxy: url,
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    NODE_USE_ENV_PROXY: '1',
  };
}

/** `base` with a proxy's variables over it (`proxy` from proxyEnv) and the bypass variables gone. */
export function withProxyEnv<T extends Record<string, string | undefined>>(
  base: T,
  proxy: Record<string, string> | undefined,
): T {
  if (!proxy) return base;
  const env: Record<string, string | undefined> = { ...base, ...proxy };
  for (const name of BYPASS_VARS) delete env[name];
  return env as T;
}

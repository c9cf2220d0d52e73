import type { Agent } from 'node:http';
import { PROXY_VARIABLES } from '../redact.js';
import { CONNECTION_OPTIONS, type ConnectionUse } from './keep-alive.js';

/**
 * Proxies from the environment, as curl and most tools read them: HTTPS_PROXY for
 * https URLs, HTTP_PROXY for http ones, ALL_PROXY for either, NO_PROXY for the
 * hosts reached directly; either case, lower case first. proxy-from-env decides
 * (with its NO_PROXY patterns: exact host, `.domain` suffix, `*`, host:port) and
 * https-proxy-agent (CONNECT) or http-proxy-agent carry the request. They are
 * loaded only when a proxy variable is set: start-up pays nothing otherwise.
 */


export const proxyConfigured = (env: NodeJS.ProcessEnv = process.env): boolean => PROXY_VARIABLES.some((name) => env[name]);

/** A request's way through a proxy. */
export interface ProxyRoute {
  agent: Agent;
  /** The variable that named the proxy, for messages and hints. */
  variable: string;
  /** The proxy's address as messages show it: never its user name or password. */
  shown: string;
}

/** A proxy variable payctl cannot use: nothing was sent. */
export class ProxySettingError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'ProxySettingError';
  }
}

/** The variable proxy-from-env took the proxy of a `protocol` URL from. */
function variableFor(protocol: string, env: NodeJS.ProcessEnv): string {
  const scheme = protocol.replace(/:$/, '');
  return [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY'].find((name) => env[name]) ?? `${scheme.toUpperCase()}_PROXY`;
}

/** A proxy URL without its credentials: `http://***@proxy:3128`. */
export function shownProxy(proxy: URL): string {
  const credentials = proxy.username || proxy.password ? '***@' : '';
  return `${proxy.protocol}//${credentials}${proxy.host}`;
}

const agents = new Map<string, Agent>();

/** How to reach `url` for a `use` request: through the proxy the environment names for it, or directly (undefined). */
export async function proxyRoute(url: URL, use: ConnectionUse, env: NodeJS.ProcessEnv = process.env): Promise<ProxyRoute | undefined> {
  const { getProxyForUrl } = await import('proxy-from-env');
  const proxy = getProxyForUrl(url.href);
  if (!proxy) return undefined;
  const variable = variableFor(url.protocol, env);
  let proxyUrl: URL;
  try {
    proxyUrl = new URL(proxy);
  } catch {
    // The value is not quoted: it may hold a password.
    throw new ProxySettingError(`${variable} is not a URL payctl can use`, `set it to http://HOST:PORT (or http://USER:PASSWORD@HOST:PORT), or unset it`);
  }
  if (proxyUrl.protocol !== 'http:' && proxyUrl.protocol !== 'https:') {
    throw new ProxySettingError(`${variable} names a ${proxyUrl.protocol.replace(/:$/, '')} proxy; payctl speaks to http and https proxies`, `set ${variable} to http://HOST:PORT`);
  }
  const key = `${url.protocol} ${proxyUrl.href} ${use}`;
  let agent = agents.get(key);
  if (!agent) {
    if (url.protocol === 'https:') {
      const { HttpsProxyAgent } = await import('https-proxy-agent');
      agent = new HttpsProxyAgent(proxyUrl, CONNECTION_OPTIONS[use]);
    } else {
      const { HttpProxyAgent } = await import('http-proxy-agent');
      agent = new HttpProxyAgent(proxyUrl, CONNECTION_OPTIONS[use]);
    }
    agents.set(key, agent);
  }
  return { agent, variable, shown: shownProxy(proxyUrl) };
}

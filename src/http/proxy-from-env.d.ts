// proxy-from-env ships no types.
declare module 'proxy-from-env' {
  /** The proxy URL for `url` from *_PROXY and NO_PROXY (either case), or '' for a direct connection. */
  export function getProxyForUrl(url: string | URL): string;
}

declare const __PAYCTL_VERSION__: string | undefined;

/** Injected by the build from package.json; source runs (unit tests) see a dev marker. */
export const VERSION: string = typeof __PAYCTL_VERSION__ === 'string' ? __PAYCTL_VERSION__ : '0.0.0-dev';

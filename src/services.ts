import type { ApiClient, AuditHooks, RecordedRequest } from './http/client.js';
import type { Flags } from './flags.js';
import type { IOStreams } from './iostreams.js';
import type { CachedRunConfig, RunConfig } from './config/run.js';
import type { ConfigData } from './config/store.js';
import { assertSecureTransport, loginCommand, readTokenExpiry, tokenRefusal, type Settings } from './config/settings.js';
import type { Notices } from './process-io.js';
import type { SecretScrubber } from './redact.js';
import type { Prompter } from './prompt.js';
import { subaccountLabel } from './subaccount-names.js';

/**
 * What a run may need beyond its streams, each made on first use: the config
 * and the settings resolved from flags, environment and profile (its RunConfig),
 * the API client, the prompter, and the scrubber every secret of the run is
 * registered with. Under --dry-run the API client records writes here instead of
 * sending them. It writes nothing itself: warnings and --debug lines go through
 * the run's IOStreams.
 */
export class Services implements RunConfig, Notices {
  /** What closes when the command ends, whatever its outcome (the ledger's connection). */
  readonly onEnd: Array<() => Promise<void>> = [];
  /** The writes --dry-run recorded, in order; printed when the command ends (a batch prints its own). */
  readonly recorded: RecordedRequest[] = [];
  private cachedApi?: Promise<ApiClient>;
  private tokenRead?: Promise<Settings>;
  private cachedPrompter?: Promise<Prompter>;

  constructor(
    private readonly io: IOStreams,
    private readonly run: CachedRunConfig,
    readonly secrets: SecretScrubber,
  ) {}

  get env(): NodeJS.ProcessEnv {
    return this.run.env;
  }

  get flags(): Flags {
    return this.run.flags;
  }

  get configDir(): string {
    return this.run.configDir;
  }

  config(): ConfigData {
    return this.run.config();
  }

  /** Forgets what was read, after this run changed the config. */
  reloadConfig(): void {
    this.run.reloadConfig();
    this.tokenRead = undefined;
  }

  /** Flags, environment, then profile; the token is registered as a secret as soon as it is known. */
  settings(): Settings {
    return this.run.settings();
  }

  /**
   * The settings with the token in effect: when the profile keeps it in the
   * keychain, it is read from there (once a run); a keychain that cannot be read
   * leaves no token and says why (`keychainProblem`).
   */
  settingsWithToken(): Promise<Settings> {
    const settings = this.settings();
    if (settings.token || settings.tokenLocation !== 'keychain') return Promise.resolve(settings);
    this.tokenRead ??= import('./config/token-store.js').then(async ({ readKeychainToken }) => {
      const { token, problem } = await readKeychainToken(this, settings.profileName);
      if (token) {
        this.secrets.add(token);
        Object.assign(settings, { token, tokenSource: 'profile', ...readTokenExpiry(token) });
      } else settings.keychainProblem = problem;
      return settings;
    });
    return this.tokenRead;
  }

  warn(text: string): void {
    this.io.warn(text);
  }

  debug(line: string): void {
    this.io.debug(line);
  }

  /** The account a command runs in (or `subaccount`: null for the main account), as a person reads it: a sub-account by its name (when known) and id. */
  accountLabel(subaccount: string | null = this.settings().subaccount ?? null): string {
    return subaccount ? `sub-account ${subaccountLabel(this, subaccount)}` : 'main account';
  }

  /** The API client with the profile's token; refuses before sending when there is none or it has expired. */
  api(): Promise<ApiClient> {
    this.cachedApi ??= this.buildApi(true);
    return this.cachedApi;
  }

  /** A client in another account context: a sub-account id, or null for the main account (a batch row's own). */
  apiInAccount(subaccount: string | null): Promise<ApiClient> {
    return this.buildApi(true, { subaccount: subaccount ?? undefined });
  }

  /** A client that sends no token, for `auth login`. */
  anonymousApi(): Promise<ApiClient> {
    return this.buildApi(false);
  }

  private async buildApi(withToken: boolean, account?: { subaccount?: string }): Promise<ApiClient> {
    const settings = withToken ? await this.settingsWithToken() : this.settings();
    assertSecureTransport(settings);
    if (withToken && !this.flags.dryRun) {
      const refusal = tokenRefusal(settings);
      if (refusal) throw refusal;
    }
    const { createApiClient } = await import('./http/client.js');
    return createApiClient({
      baseUrl: settings.baseUrl,
      token: withToken ? settings.token : undefined,
      subaccount: account ? account.subaccount : settings.subaccount,
      timeoutMs: settings.timeoutMs,
      debug: this.flags.debug ? (line) => this.io.debug(line) : undefined,
      record: this.flags.dryRun ? (request) => this.recorded.push(request) : undefined,
      secrets: this.secrets,
      signal: this.io.signal,
      audit: this.flags.dryRun ? undefined : this.auditHooks(account ? (account.subaccount ?? null) : (settings.subaccount ?? null)),
      loginCommand: loginCommand(settings.profileName),
    });
  }

  /** The audit trail of a client in this account; its module is loaded by the first write. */
  private auditHooks(account: string | null): AuditHooks {
    let hooks: Promise<AuditHooks> | undefined;
    return {
      before: async (write) => {
        hooks ??= import('./audit/trail.js').then(({ auditHooks }) => auditHooks(this, account));
        return (await hooks).before(write);
      },
    };
  }

  prompter(): Promise<Prompter> {
    this.cachedPrompter ??= import('./prompt.js').then(({ createPrompter }) => createPrompter(this.io));
    return this.cachedPrompter;
  }
}

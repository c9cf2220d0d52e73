import type { Readable, Writable } from 'node:stream';
import type { ApiClient, DryRunRequest } from './http/client.js';
import { configDir, configFile, readConfig, type ConfigData } from './config/store.js';
import { assertSecureTransport, profileSetting, resolveSettings, tokenRefusal, type Settings } from './config/settings.js';
import { Output, parseCsvSeparator, type OutputFormat } from './output/format.js';
import { colorEnabled } from './output/color.js';
import { choosePager } from './output/pager.js';
import { tableHeight, tableWidth } from './process-io.js';
import { visible } from './output/sanitize.js';
import { SecretScrubber } from './redact.js';
import type { Prompter } from './prompt.js';

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The terminal's size, when stdout is one and says. */
  stdoutColumns?: number;
  stdoutRows?: number;
}

/** Global options of every command, plus the shared traits some commands add. */
export interface Flags {
  profile?: string;
  baseUrl?: string;
  output?: OutputFormat;
  json?: boolean;
  fields?: string;
  input: boolean;
  color: boolean;
  /** false with --no-pager. */
  pager?: boolean;
  debug?: boolean;
  timeout?: string;
  csvSeparator?: string;
  subaccount?: string;
  mainAccount?: boolean;
  yes?: boolean;
  dryRun?: boolean;
}

/**
 * Everything a command needs, built once per run and handed to it: streams and
 * their terminal facts, config and settings, the output writer, and the API
 * client and prompter, each made on first use.
 */
export class Context {
  readonly output: Output;
  readonly secrets = new SecretScrubber();
  private cachedConfig?: ConfigData;
  private cachedSettings?: Settings;
  private cachedApi?: Promise<ApiClient>;
  private cachedPrompter?: Promise<Prompter>;

  constructor(
    readonly io: IO,
    readonly env: NodeJS.ProcessEnv,
    readonly flags: Flags,
    /** The command line as typed (after `payctl`): a table's footer shows it with the next page. */
    readonly argv: readonly string[] = [],
  ) {
    const format: OutputFormat = flags.json ? 'json' : (flags.output ?? (io.stdoutIsTTY ? 'table' : 'tsv'));
    // A bad flag stops every command, csv or not; the profile's setting is read only for csv.
    const givenSeparator = flags.csvSeparator === undefined ? undefined : parseCsvSeparator('--csv-separator', flags.csvSeparator);
    this.output = new Output(io.stdout, io.stderr, {
      format,
      fields: flags.fields,
      color: format === 'table' && colorEnabled(flags.color, env, io.stdoutIsTTY),
      terminal: io.stdoutIsTTY,
      csvSeparator: () => givenSeparator ?? this.profileCsvSeparator(),
      width: tableWidth(env, io),
      height: tableHeight(env, io),
      pager: choosePager(env, { terminal: io.stdoutIsTTY, pagerFlag: flags.pager, inputFlag: flags.input }),
      env,
    });
  }

  /** The profile's `csvSeparator` setting (pt-BR spreadsheets want `;`), else a comma. */
  private profileCsvSeparator(): string {
    const { profileName, value } = profileSetting(this.config(), this.flags, this.env, 'csvSeparator');
    return value === undefined
      ? ','
      : parseCsvSeparator(`the csvSeparator setting of profile "${profileName}"`, value, `fix it in ${configFile(this.configDir)}, or give --csv-separator`);
  }

  get configDir(): string {
    return configDir(this.env);
  }

  config(): ConfigData {
    this.cachedConfig ??= readConfig(this.configDir);
    return this.cachedConfig;
  }

  /** Forgets what was read, after this run changed the config. */
  reloadConfig(): void {
    this.cachedConfig = undefined;
    this.cachedSettings = undefined;
  }

  settings(): Settings {
    this.cachedSettings ??= resolveSettings(this.config(), this.flags, this.env);
    if (this.cachedSettings.token) this.secrets.add(this.cachedSettings.token);
    return this.cachedSettings;
  }

  /** The account a command runs in, as a person reads it. */
  accountLabel(): string {
    const { subaccount } = this.settings();
    return subaccount ? `sub-account ${subaccount}` : 'main account';
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
    const settings = this.settings();
    assertSecureTransport(settings);
    if (withToken && !this.flags.dryRun) assertUsableToken(settings);
    const { createApiClient } = await import('./http/client.js');
    return createApiClient({
      baseUrl: settings.baseUrl,
      token: withToken ? settings.token : undefined,
      subaccount: account ? account.subaccount : settings.subaccount,
      timeoutMs: settings.timeoutMs,
      debug: this.flags.debug ? (line) => this.debug(line) : undefined,
      dryRun: this.flags.dryRun ? (request) => this.printDryRun(request) : undefined,
      secrets: this.secrets,
    });
  }

  debug(line: string): void {
    if (this.flags.debug) this.io.stderr.write(`${visible(this.secrets.scrub(`debug: ${line}`))}\n`);
  }

  get canPrompt(): boolean {
    return this.io.stdoutIsTTY && this.io.stdinIsTTY && this.flags.input && this.env.PAYCTL_NO_INPUT !== '1' && this.env.CI !== 'true';
  }

  /** Says why prompting is off, so the refusal tells the user what to change. */
  promptRefusalHint(): string {
    if (!this.flags.input) return 'give the flags (--no-input is set)';
    if (this.env.PAYCTL_NO_INPUT === '1') return 'give the flags (PAYCTL_NO_INPUT=1 is set)';
    if (this.env.CI === 'true') return 'give the flags (CI=true is set)';
    return 'give the flags, or run at a terminal to be asked';
  }

  prompter(): Promise<Prompter> {
    this.cachedPrompter ??= import('./prompt.js').then(({ createPrompter }) => createPrompter(this));
    return this.cachedPrompter;
  }

  private printDryRun(request: DryRunRequest): void {
    const text = this.output.isJson
      ? `${JSON.stringify({ dryRun: true, ...request }, null, this.output.format === 'json' ? 2 : undefined)}\n`
      : [
          `${request.method} ${request.url}`,
          ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
          ...(request.body === undefined ? [] : ['', JSON.stringify(request.body, null, 2)]),
          '',
        ].join('\n');
    this.io.stdout.write(this.secrets.scrub(text));
    this.io.stderr.write('dry run: nothing was sent\n');
  }
}

function assertUsableToken(settings: Settings): void {
  const refusal = tokenRefusal(settings);
  if (refusal) throw refusal;
}

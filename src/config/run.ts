import type { Flags } from '../flags.js';
import { isIdPrefix } from '../validation/ids.js';
import { parseCsvSeparator } from '../output/format.js';
import type { SecretScrubber } from '../redact.js';
import { profileSetting, resolveSettings, type Settings } from './settings.js';
import { shownIdIn } from './shown-ids.js';
import { configDir, configFile, readConfig, type ConfigData } from './store.js';

/**
 * What a run reads of its configuration, each on first use: the config file, and
 * the settings resolved from flags, environment and profile. The layers below the
 * commands take this (the run's Services are one) rather than the Services.
 */
export interface RunConfig {
  readonly env: NodeJS.ProcessEnv;
  readonly flags: Flags;
  readonly configDir: string;
  config(): ConfigData;
  /** Forgets what was read, after this run changed the config. */
  reloadConfig(): void;
  /** Flags, environment, then profile. */
  settings(): Settings;
}

/** A run's configuration, read once; the token is registered as a secret as soon as it is known. */
export class CachedRunConfig implements RunConfig {
  private cachedConfig?: ConfigData;
  private cachedSettings?: Settings;

  constructor(
    readonly env: NodeJS.ProcessEnv,
    readonly flags: Flags,
    private readonly secrets: SecretScrubber,
  ) {}

  get configDir(): string {
    return configDir(this.env);
  }

  config(): ConfigData {
    this.cachedConfig ??= readConfig(this.configDir);
    return this.cachedConfig;
  }

  reloadConfig(): void {
    this.cachedConfig = undefined;
    this.cachedSettings = undefined;
  }

  settings(): Settings {
    this.cachedSettings ??= this.wholeSubaccount(resolveSettings(this.config(), this.flags, this.env));
    if (this.cachedSettings.token) this.secrets.add(this.cachedSettings.token);
    return this.cachedSettings;
  }

  /** `--subaccount` given as the first characters of an id a table showed, as that id (exit 2 when none or several begin so). */
  private wholeSubaccount(settings: Settings): Settings {
    const { subaccount, profileName } = settings;
    if (subaccount === undefined || !isIdPrefix(subaccount)) return settings;
    return { ...settings, subaccount: shownIdIn(this.configDir, profileName, '--subaccount', subaccount) };
  }

  /** The profile's `csvSeparator` setting (pt-BR spreadsheets want `;`), else a comma. */
  profileCsvSeparator(): string {
    const { profileName, value } = profileSetting(this.config(), this.flags, this.env, 'csvSeparator');
    return value === undefined
      ? ','
      : parseCsvSeparator(`the csvSeparator setting of profile "${profileName}"`, value, `fix it in ${configFile(this.configDir)}, or give --csv-separator`);
  }
}

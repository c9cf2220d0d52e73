import type { IOStreams } from './iostreams.js';
import type { Services } from './services.js';

/**
 * What a command and the helpers it calls work with: the streams with their
 * terminal facts and policies (`io`), and the services made on first use
 * (`services`: config, settings, API client, prompter, secret scrubber).
 */
export interface Context {
  readonly io: IOStreams;
  readonly services: Services;
}

import { asText, command, defineCommand, restArgs } from '../spec.js';

export const help = defineCommand({
  name: 'help',
  summary: "Show payctl's help, or a command's: payctl help subs list is payctl subs list --help",
  args: [restArgs('command', 'the command whose help to show, e.g. subs list', asText)],
  examples: ['payctl help', 'payctl help subs', 'payctl help withdraw pix'],
});

export const version = defineCommand({
  name: 'version',
  summary: "Print payctl's version (also -v, -V, --version)",
  examples: ['payctl version'],
});

export const helpCommand = command(help, () => import('./show.js'));
export const versionCommand = command(version, () => import('./version.js'));

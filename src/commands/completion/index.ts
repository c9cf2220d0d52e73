import { SHELLS } from '../../completion/scripts.js';
import { parseChoice } from '../../validation/flags.js';
import { arg, command, defineCommand } from '../spec.js';

export const completion = defineCommand({
  name: 'completion',
  summary: 'Print the shell completion script for bash, zsh or fish',
  description:
    'Print the shell completion script: commands, subcommands, flags, their values (statuses, PIX key types, output formats)\n' +
    'and profile names (read from the config each time you press TAB). The same scripts ship in completions/.',
  args: [arg('shell', 'bash, zsh or fish', (flag, raw) => parseChoice(flag, raw, SHELLS), { choices: SHELLS })],
  examples: [
    'source <(payctl completion bash)            # bash, this shell only',
    'payctl completion bash > ~/.local/share/bash-completion/completions/payctl',
    'payctl completion zsh > "${fpath[1]}/_payctl"  # zsh, then open a new shell',
    'payctl completion fish > ~/.config/fish/completions/payctl.fish',
  ],
});

export const completionCommand = command(completion, () => import('./print.js'));

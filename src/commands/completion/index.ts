import type { CommandSpec } from '../spec.js';

export const completionCommand: CommandSpec = {
  name: 'completion',
  summary: 'Print the shell completion script for bash, zsh or fish',
  description:
    'Print the shell completion script: commands, subcommands, flags, their values (statuses, PIX key types, output formats)\n' +
    'and profile names (read from the config each time you press TAB). The same scripts ship in completions/.',
  args: [{ name: 'shell', description: 'bash, zsh or fish', choices: ['bash', 'zsh', 'fish'] }],
  examples: [
    'source <(payctl completion bash)            # bash, this shell only',
    'payctl completion bash > ~/.local/share/bash-completion/completions/payctl',
    'payctl completion zsh > "${fpath[1]}/_payctl"  # zsh, then open a new shell',
    'payctl completion fish > ~/.config/fish/completions/payctl.fish',
  ],
  load: () => import('./print.js'),
};

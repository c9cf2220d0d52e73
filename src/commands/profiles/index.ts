import { ENVIRONMENTS } from '../../config/store.js';
import type { CommandSpec } from '../spec.js';

const nameArg = { name: 'name', description: 'profile name' };
const existingProfileArg = { ...nameArg, complete: 'profiles' as const };

export const profilesCommands: CommandSpec = {
  name: 'profiles',
  summary: 'Manage profiles: base URL, environment, token and sub-account per platform account',
  subcommands: [
    {
      name: 'list',
      summary: 'List profiles; the current one is marked',
      examples: ['payctl profiles list', 'payctl profiles list --json | jq -r ".[].name"'],
      load: () => import('./list.js'),
    },
    {
      name: 'show',
      summary: 'Show one profile (the current one by default); the token itself is never shown',
      args: [{ ...existingProfileArg, optional: true }],
      examples: ['payctl profiles show', 'payctl profiles show prod --json'],
      load: () => import('./show.js'),
    },
    {
      name: 'add',
      summary: 'Add a profile',
      args: [nameArg],
      options: [
        { flags: '--base-url <url>', description: 'API base URL of this profile (required)' },
        { flags: '--env <environment>', description: 'environment (default: local for 127.0.0.1 and localhost, else production)', choices: ENVIRONMENTS },
      ],
      examples: ['payctl profiles add prod --base-url https://api.example.com --env production', 'payctl profiles add sandbox --base-url http://127.0.0.1:4010 --env local'],
      load: () => import('./add.js'),
    },
    {
      name: 'use',
      summary: 'Make a profile the current one',
      args: [existingProfileArg],
      examples: ['payctl profiles use prod'],
      load: () => import('./use.js'),
    },
    {
      name: 'remove',
      summary: 'Remove a profile and its token',
      args: [existingProfileArg],
      examples: ['payctl profiles remove old-sandbox'],
      load: () => import('./remove.js'),
    },
  ],
};

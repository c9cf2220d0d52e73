import { changeProfile } from '../../config/profiles.js';
import type { Context } from '../../context.js';
import { parseUuid } from '../../validate.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const id = parseUuid('ID', args[0]!);
  const name = ctx.settings().profileName;
  await changeProfile(ctx, name, (profile) => {
    profile.subaccount = id;
  });
  await ctx.output.note(`profile ${name} now runs in sub-account ${id}; go back with: payctl subaccounts clear`);
}

import type { Context } from '../../context.js';
import { generateCompletion, type Shell } from '../../completion/index.js';
import { writeOut } from '../../output/format.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  await writeOut(ctx.io.stdout, generateCompletion(args[0] as Shell));
}

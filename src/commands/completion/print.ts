import { generateCompletion } from '../../completion/index.js';
import { writeOut } from '../../output/format.js';
import type { Invocation } from '../spec.js';
import type { completion } from './index.js';

export async function run({ io, program, args: [shell] }: Invocation<typeof completion>): Promise<void> {
  await writeOut(io.stdout, generateCompletion(shell, await program.commands()));
}

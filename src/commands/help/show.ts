import type { Invocation } from '../spec.js';
import type { help } from './index.js';

export async function run({ program, args: [words] }: Invocation<typeof help>): Promise<void> {
  await program.printHelp(words ?? []);
}

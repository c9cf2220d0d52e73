import { printHelp } from '../../main.js';
import type { Invocation } from '../spec.js';
import type { help } from './index.js';

export async function run({ io, args: [words] }: Invocation<typeof help>): Promise<void> {
  await printHelp(words ?? [], io);
}

import { writeOut } from '../../output/format.js';
import { VERSION } from '../../version.js';
import type { Invocation } from '../spec.js';
import type { version } from './index.js';

export async function run({ io }: Invocation<typeof version>): Promise<void> {
  await writeOut(io.stdout, `${VERSION}\n`);
}

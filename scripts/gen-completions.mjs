// Writes completions/ from the built command tree (run `npm run build` first):
// the same scripts `payctl completion SHELL` prints. A test fails when they are stale.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

const COMPLETION_FILES = { bash: 'payctl.bash', zsh: '_payctl', fish: 'payctl.fish' };

const root = new URL('..', import.meta.url);
mkdirSync(new URL('completions/', root), { recursive: true });
for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
  const script = execFileSync(process.execPath, [new URL('bin/payctl.js', root).pathname, 'completion', shell], { encoding: 'utf8' });
  writeFileSync(new URL(`completions/${file}`, root), script);
  console.log(`completions/${file}`);
}

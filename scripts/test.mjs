// `npm test` after the build: the static checks (`npm run check`: tsc, eslint, the layer check) run
// beside vitest instead of before it. On a 2-core machine the suite is bound by CPU, yet not to the
// end: its last files wait on sockets, databases and terminals with cores idle, and the checks
// (tens of seconds of CPU, no waiting) fill them. They run at a lower priority, so that they take
// what the tests leave rather than slow the files the run waits for. Either failing fails the run;
// the checks' output is shown when they fail (it would interleave with vitest's otherwise).
import { spawn } from 'node:child_process';
import os from 'node:os';

const started = performance.now();
const check = spawn('npm', ['run', '--silent', 'check'], { stdio: ['ignore', 'pipe', 'pipe'] });
try {
  // Inherited by tsc, eslint and depcruise: npm starts them once it has loaded, long after this.
  os.setPriority(check.pid, 10);
} catch {
  // Not allowed here: the checks then run at the tests' priority, which is only slower.
}
let checkOutput = '';
check.stdout.setEncoding('utf8').on('data', (chunk) => (checkOutput += chunk));
check.stderr.setEncoding('utf8').on('data', (chunk) => (checkOutput += chunk));
const checked = new Promise((resolve) => check.on('close', (code) => resolve({ code: code ?? 1, seconds: (performance.now() - started) / 1000 })));

const vitest = spawn('vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
const tested = new Promise((resolve) => vitest.on('close', (code) => resolve(code ?? 1)));

const [testCode, checks] = await Promise.all([tested, checked]);
if (checks.code === 0) {
  console.log(`npm run check (tsc, eslint, layers) passed beside the tests, in ${checks.seconds.toFixed(0)} s`);
} else {
  process.stderr.write(checkOutput);
  console.error(`npm run check failed (exit ${checks.code})`);
}
process.exitCode = testCode || checks.code;

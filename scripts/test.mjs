// `npm test` after the build: the static checks (`npm run check`: tsc, eslint, the layer check) run
// beside vitest instead of before it. They are one process at a time, each on one core, and the
// suite is many processes bound by CPU on a 2-core machine: run first, the checks left a core idle
// for their whole time; run beside vitest at a lower priority, they got only what the suite left and
// ended half a minute after it, alone on one core. So vitest runs at the lower priority: the checks
// take about one core until they end, the suite the rest, and then all of it. Either failing fails
// the run; the checks' output is shown when they fail (it would interleave with vitest's otherwise).
import { spawn } from 'node:child_process';
import os from 'node:os';

const started = performance.now();
const vitest = spawn('vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
try {
  // Inherited by vitest's workers and the processes the tests start: vitest starts them once it has loaded, long after this.
  os.setPriority(vitest.pid, 10);
} catch {
  // Not allowed here: the suite then shares the CPU evenly with the checks, which is only slower.
}
const tested = new Promise((resolve) => vitest.on('close', (code) => resolve(code ?? 1)));

const check = spawn('npm', ['run', '--silent', 'check'], { stdio: ['ignore', 'pipe', 'pipe'] });
let checkOutput = '';
check.stdout.setEncoding('utf8').on('data', (chunk) => (checkOutput += chunk));
check.stderr.setEncoding('utf8').on('data', (chunk) => (checkOutput += chunk));
const checked = new Promise((resolve) => check.on('close', (code) => resolve({ code: code ?? 1, seconds: (performance.now() - started) / 1000 })));

const [testCode, checks] = await Promise.all([tested, checked]);
if (checks.code === 0) {
  console.log(`npm run check (tsc, eslint, layers) passed beside the tests, ${checks.seconds.toFixed(0)} s after they started`);
} else {
  process.stderr.write(checkOutput);
  console.error(`npm run check failed (exit ${checks.code})`);
}
process.exitCode = testCode || checks.code;

import { spawn } from 'node:child_process';

/**
 * Runs a command to completion, timed from its start to its end; stdout is counted in
 * lines, not kept (a 100,000-line export is not held in memory). A non-zero exit rejects.
 */
export function runCounted(command, args, env, input) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve({ lines, stderr, seconds: (performance.now() - started) / 1000 }) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`)),
    );
    child.stdin.end(input ?? '');
  });
}

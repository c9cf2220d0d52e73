import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BIN, cleanEnv, type RunOptions, type RunResult } from './cli.js';

const WORKER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main-worker.cjs');

export interface PayctlWorker {
  pid: number;
  /** Runs payctl in the worker's process; runs given the same `startAt` (epoch ms) in several workers start together. */
  run(args: readonly string[], options?: Pick<RunOptions, 'env' | 'input'> & { startAt?: number }): Promise<RunResult>;
  close(): Promise<void>;
}

/**
 * Long-lived payctl processes (test/helpers/main-worker.cjs running the built bundle's main):
 * real processes racing each other, each run without a Node start-up. Each worker runs one
 * command at a time, in order.
 */
export function startWorkers(count: number): PayctlWorker[] {
  const launcherCode = path.join(path.dirname(BIN), 'dist.js');
  return Array.from({ length: count }, () => worker(spawn(process.execPath, [WORKER_SCRIPT, launcherCode], { env: cleanEnv() })));
}

function worker(child: ChildProcessWithoutNullStreams): PayctlWorker {
  const waiting: Array<{ resolve: (result: RunResult) => void; reject: (error: Error) => void }> = [];
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  readline.createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.resolve(JSON.parse(line) as RunResult));
  const closed = new Promise<void>((resolve) =>
    child.on('close', (code) => {
      for (const pending of waiting.splice(0)) pending.reject(new Error(`payctl worker ${child.pid} ended (exit ${code}): ${stderr}`));
      resolve();
    }),
  );
  return {
    pid: child.pid!,
    run: (args, options = {}) =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${JSON.stringify({ argv: args, env: cleanEnv(options.env), input: options.input, startAt: options.startAt })}\n`);
      }),
    close: () => {
      child.stdin.end();
      return closed;
    },
  };
}

export interface PayctlWorkerPool {
  /** Runs payctl in the first worker free. */
  run(args: readonly string[], options?: Pick<RunOptions, 'env' | 'input'>): Promise<RunResult>;
  close(): Promise<void>;
}

/** `count` workers sharing a queue of runs: many runs at once, each in a process of its own. */
export function startWorkerPool(count: number): PayctlWorkerPool {
  const workers = startWorkers(count);
  const free = [...workers];
  const waiting: Array<(worker: PayctlWorker) => void> = [];
  const take = () => new Promise<PayctlWorker>((resolve) => (free.length > 0 ? resolve(free.pop()!) : waiting.push(resolve)));
  const give = (worker: PayctlWorker) => (waiting.length > 0 ? waiting.shift()!(worker) : free.push(worker));
  return {
    async run(args, options) {
      const worker = await take();
      try {
        return await worker.run(args, options);
      } finally {
        give(worker);
      }
    },
    close: async () => {
      await Promise.all(workers.map((worker) => worker.close()));
    },
  };
}

import fs from 'node:fs';

const STALE_AFTER_MS = 10_000;
const GIVE_UP_AFTER_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` while holding an exclusive lock file (created with O_EXCL, so
 * only one process wins). A lock left by a crashed process is taken over once
 * it is older than STALE_AFTER_MS.
 */
export async function withLock<T>(lockFile: string, work: () => T): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (isStale(lockFile)) {
        fs.rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() - started > GIVE_UP_AFTER_MS) throw new Error(`the config is locked by another payctl (${lockFile}); remove the file if no payctl is running`);
      await sleep(5 + Math.random() * 20);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

function isStale(lockFile: string): boolean {
  try {
    return Date.now() - fs.statSync(lockFile).mtimeMs > STALE_AFTER_MS;
  } catch {
    return false;
  }
}

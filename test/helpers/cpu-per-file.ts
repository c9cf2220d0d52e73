import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';

/**
 * With PAYCTL_TEST_CPU=1, each test file's CPU seconds go to the run's report folder, and the
 * global setup prints the files that took most at the end (test/helpers/global-setup.ts): where
 * the time of `npm test` goes. A worker runs its files one after another, so what the worker and
 * the children it waited for (payctl processes, tmux clients, shells) used from a file's first
 * hook to its last is that file's. Daemons a file starts (a tmux server, PostgreSQL) are not
 * counted: no one waits for them.
 */
const STAT = '/proc/self/stat';

/** utime, stime, cutime and cstime of this process, in seconds (Linux only). */
function cpuSeconds(): number {
  // The fields after the command's name, which is in parentheses and may hold spaces.
  const fields = readFileSync(STAT, 'utf8').split(') ')[1]!.split(' ');
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

if (process.env.PAYCTL_TEST_CPU === '1' && existsSync(STAT)) {
  let started = 0;
  beforeAll(() => {
    started = cpuSeconds();
  });
  afterAll((suite) => {
    const record = { file: path.relative(process.cwd(), suite.file.filepath), cpu: cpuSeconds() - started };
    appendFileSync(path.join(inject('suiteReportDir'), 'cpu.ndjson'), `${JSON.stringify(record)}\n`);
  });
}

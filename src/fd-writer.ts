import { EventEmitter } from 'node:events';
import { writeSync } from 'node:fs';
import { ExitCode, PayctlError } from './errors.js';

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Stands in for process.stdout or process.stderr when they are a pipe or a file.
 * Node writes those synchronously on Linux anyway; creating the stream objects
 * loads the net and stream modules, a sixth of a short run. Writes block until the
 * reader takes them (backpressure), and a reader that has gone away (EPIPE, as
 * in `payctl customers list | head`) ends the run quietly when it is stdout.
 */
export class FdWriter extends EventEmitter {
  constructor(private readonly fd: number) {
    super();
  }

  write(chunk: string | Uint8Array): boolean {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (data.length > 0) {
      try {
        data = data.subarray(writeSync(this.fd, data));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A descriptor left non-blocking by the parent: wait for the reader.
        if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 2);
        else if (code === 'EPIPE') return this.readerGone();
        else throw new PayctlError(`cannot write to ${this.fd === 1 ? 'stdout' : 'stderr'}: ${(error as Error).message}`, ExitCode.apiRefused, { hint: 'check the file or disk the output goes to' });
      }
    }
    return true;
  }

  private readerGone(): boolean {
    if (this.fd === 1) process.exit(process.exitCode ?? 0);
    return true;
  }
}

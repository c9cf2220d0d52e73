import { main } from './main.js';

// A reader that closes the pipe early (`payctl customers list | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

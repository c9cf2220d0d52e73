// A payctl process that stays up: for each line of stdin ({ argv, env, input, startAt }) it runs
// main() of the built bundle (dist/cli.cjs, the code bin/payctl.js runs) and answers one line
// ({ code, stdout, stderr }). Races between processes cost no Node start-up per run this way.
const { Readable, Writable } = require('node:stream');
const readline = require('node:readline');
const { waitUntil } = require('./start-at.cjs');

// The bundle loaded as bin/payctl.js loads it: by the launcher's code (argv[2], its bin/dist.js), with the build's V8 code cache.
const cli = require(process.argv[2]).loadBundle().exports;

const collector = () => {
  const chunks = [];
  return { stream: new Writable({ write: (chunk, _, done) => (chunks.push(Buffer.from(chunk)), done()) }), text: () => Buffer.concat(chunks).toString('utf8') };
};

const queue = [];
let busy = false;
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  queue.push(JSON.parse(line));
  if (!busy) void next();
});

async function next() {
  busy = true;
  while (queue.length > 0) {
    const { argv, env, input, startAt } = queue.shift();
    const [stdout, stderr] = [collector(), collector()];
    const io = { stdin: Readable.from(input ? [input] : []), stdout: stdout.stream, stderr: stderr.stream, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
    // Every worker given the same startAt begins at that instant.
    if (startAt !== undefined) waitUntil(startAt);
    const code = await cli.main(argv, io, env);
    // A process starts with no open connection; so does each run here. One kept alive from an earlier run could be
    // closed by the server just as it is reused (idle past its keep-alive on a busy machine): a POST then of unknown outcome.
    cli.resetConnections();
    process.stdout.write(`${JSON.stringify({ code, stdout: stdout.text(), stderr: stderr.text() })}\n`);
  }
  busy = false;
}

import { spawn } from 'node:child_process';

/**
 * A server in a process of its own answering every request with a fixed balance, so its
 * work is not timed against payctl's. Resolves with its port and a way to stop it.
 */
export async function startBalanceServer() {
  const server = spawn(process.execPath, ['-e', `
  const body = JSON.stringify({ data: { disponiblePixBalance: 1234.56, disponibleCardBalance: 10, disponibleBilletBalance: 0, withdrawalsInProcessingBalance: 0 }, message: 'ok' });
  require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); })
    .listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));
  return { port, stop: () => server.kill() };
}

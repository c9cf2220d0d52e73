import { spawn } from 'node:child_process';

/**
 * A server in a process of its own answering `GET /customers…` with a fixed page of 20
 * customers and every other request with a fixed balance, so its work is not timed against
 * payctl's. Resolves with its port and a way to stop it.
 */
export async function startBalanceServer() {
  const server = spawn(process.execPath, ['-e', `
  const balance = JSON.stringify({ data: { disponiblePixBalance: 1234.56, disponibleCardBalance: 10, disponibleBilletBalance: 0, withdrawalsInProcessingBalance: 0 }, message: 'ok' });
  const customer = (i) => ({
    id: '00000000-0000-4000-8000-' + String(i).padStart(12, '0'), firstName: 'Cliente', lastName: 'Número ' + i,
    email: 'cliente.' + i + '@example.com', phoneNumber: '+5511987650000', document: String(10000000000 + i), birthdate: '1990-01-01',
    statusId: 'APPROVED', createdAt: '2024-01-01T00:00:00.000Z',
  });
  const customers = JSON.stringify({ data: Array.from({ length: 20 }, (_, i) => customer(i + 1)), meta: { total: 20, page: 1, limit: 20, totalPages: 1 }, message: 'ok' });
  require('node:http').createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url.startsWith('/customers') ? customers : balance);
  }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));
  return { port, stop: () => server.kill() };
}

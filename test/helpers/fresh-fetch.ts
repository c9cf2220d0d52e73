import http from 'node:http';
import https from 'node:https';

/**
 * fetch on a connection of its own, closed after the answer. Global fetch keeps connections
 * alive and reuses them; the sandbox closes idle connections first when it has many, and on a
 * busy machine the close and the reuse cross, so a test failed with "fetch failed" for a request
 * the sandbox never saw. A test's own requests are few: a connection each costs nothing.
 */
export function freshFetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array } = {}): Promise<Response> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(target, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(answer.headers)) {
          for (const one of [value ?? []].flat()) headers.append(name, one);
        }
        const status = answer.statusCode ?? 0;
        // Response refuses a body for these statuses
        const body = [204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
        resolve(new Response(body, { status, headers }));
      });
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

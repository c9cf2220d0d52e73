import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** What `--tls` serves with: a server certificate signed by an authority made for this run, whose certificate is in `caFile`. */
export interface SandboxCertificate {
  key: string;
  cert: string;
  /** The authority's certificate (PEM), for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** Removes the authority's file. */
  remove(): void;
}

const DAY_MS = 86_400_000;
/** Addresses that name no one host: no certificate names them. */
const UNSPECIFIED = new Set(['0.0.0.0', '::']);

/**
 * A certificate authority and a server certificate for 127.0.0.1, ::1, localhost
 * and the host listened on, made at each start (selfsigned, on node's WebCrypto):
 * nothing long-lived to steal, and nothing to set up. The authority's private key
 * never leaves memory; its certificate is written to a folder of its own, removed
 * when the sandbox stops.
 */
export async function makeCertificate(host: string): Promise<SandboxCertificate> {
  const { generate } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - DAY_MS);
  const notAfterDate = new Date(Date.now() + 30 * DAY_MS);
  const common = { keyType: 'ec', algorithm: 'sha256', notBeforeDate, notAfterDate } as const;
  const authority = await generate([{ name: 'commonName', value: 'payctl sandbox authority' }], {
    ...common,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const names = new Set(['localhost', '127.0.0.1', '::1']);
  if (!UNSPECIFIED.has(host)) names.add(host);
  const altNames = [...names].map((name) => (isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name }));
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    ...common,
    ca: { key: authority.private, cert: authority.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  const folder = mkdtempSync(path.join(tmpdir(), 'payctl-sandbox-ca-'));
  const caFile = path.join(folder, 'ca.pem');
  writeFileSync(caFile, authority.cert, { mode: 0o644 });
  return { key: server.private, cert: server.cert, caFile, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

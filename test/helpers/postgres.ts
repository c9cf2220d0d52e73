import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { postgresBin } from './tools.js';

export interface TestPostgres {
  /** The ledger URL payctl is given: no password in it. */
  url: string;
  /** The test role's password, for PGPASSWORD. */
  password: string;
  port: number;
  /** Runs SQL as the test role. */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Stops the server (fast: open connections are cut). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/**
 * Programs run without blocking: initdb, pg_ctl and openssl take seconds, minutes on a busy machine,
 * and a test worker whose event loop is blocked that long fails the run (vitest's worker gives up on
 * its own messages to the runner after 60 s).
 */
const runProgram = promisify(execFile);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/**
 * `ssl`: SSL on, with a self-signed certificate for 127.0.0.1 made with openssl in the
 * cluster's folder (`certificate` is its file, the authority to trust); `sslOnly`: a
 * pg_hba.conf that takes TCP connections over SSL only.
 */
export interface PostgresOptions {
  ssl?: boolean;
  sslOnly?: boolean;
}

/**
 * A throw-away PostgreSQL cluster in a temporary folder, on a free port of
 * 127.0.0.1, with password (scram) authentication for a test role that owns the
 * database `payctl`. PostgreSQL refuses to run as root, so as root the cluster is
 * made and run by the `postgres` user (its folder owned by that user).
 */
export async function startPostgres({ ssl = false, sslOnly = false }: PostgresOptions = {}): Promise<TestPostgres & { certificate?: string }> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const asRoot = process.getuid?.() === 0;
  // The postgres user must reach the folder: the suite's own temporary folder is root's alone.
  const dir = mkdtempSync(path.join(asRoot ? '/tmp' : os.tmpdir(), 'payctl-pg-'));
  chmodSync(dir, 0o700);
  const owner = asRoot ? Number((await runProgram('id', ['-u', 'postgres'])).stdout) : undefined;
  if (owner !== undefined) chownSync(dir, owner, Number((await runProgram('id', ['-g', 'postgres'])).stdout));
  const run = async (program: string, args: string[]) => {
    await runProgram(asRoot ? 'runuser' : path.join(bin, program), asRoot ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args);
  };
  const data = path.join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner !== undefined) chownSync(pwfile, owner, -1);
  await run('initdb', ['-D', data, '-U', 'ledger', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  let options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const certificate = ssl ? path.join(dir, 'server.crt') : undefined;
  if (certificate) {
    const key = path.join(dir, 'server.key');
    await runProgram('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', certificate, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1']);
    // The server refuses a key others can read.
    chmodSync(key, 0o600);
    if (owner !== undefined) for (const file of [key, certificate]) chownSync(file, owner, -1);
    options += ` -c ssl=on -c ssl_cert_file=${certificate} -c ssl_key_file=${key}`;
  }
  if (sslOnly) {
    writeFileSync(path.join(data, 'pg_hba.conf'), 'local all all scram-sha-256\nhostssl all all 127.0.0.1/32 scram-sha-256\n');
  }
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  await start();
  // The test's own connections trust the certificate: payctl's are what is tested.
  const tls = certificate ? { ssl: { rejectUnauthorized: false } } : {};
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'ledger', password, database: 'postgres', ...tls });
  await admin.connect();
  await admin.query('CREATE DATABASE payctl');
  await admin.end();
  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'ledger', password, database: 'payctl', ...tls });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    url: `postgres://ledger@127.0.0.1:${port}/payctl`,
    password,
    ...(certificate ? { certificate } : {}),
    port,
    query,
    stop,
    start,
    close: async () => {
      await stop().catch(() => undefined); // already stopped
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

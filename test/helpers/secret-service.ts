import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cleanEnv, RUN_DEADLINE_MS } from './cli.js';

export interface SecretService {
  /** DBUS_SESSION_BUS_ADDRESS of the session the keyring serves. */
  address: string;
  close(): Promise<void>;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/**
 * A Secret Service for the tests: the session's own when the tests run inside one
 * that has an unlocked keyring (.ci/run runs them under dbus-run-session), else one
 * of the test's own: a private D-Bus session (dbus-daemon) and gnome-keyring-daemon
 * on it, its keyring unlocked with a password, kept in a scratch folder. payctl
 * reaches it through DBUS_SESSION_BUS_ADDRESS.
 */
export async function startSecretService(): Promise<SecretService> {
  const session = process.env.DBUS_SESSION_BUS_ADDRESS;
  if (session && (await secretsOnBus(cleanEnv({ DBUS_SESSION_BUS_ADDRESS: session })))) return { address: session, close: async () => undefined };
  const home = mkdtempSync(path.join(tmpdir(), 'payctl-keyring-'));
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    let text = '';
    bus.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.split('\n')[0]!.trim());
    });
    bus.on('exit', () => reject(new Error('dbus-daemon ended before giving its address')));
  });
  const env = cleanEnv({ HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_RUNTIME_DIR: home, DBUS_SESSION_BUS_ADDRESS: address });
  const keyring = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
  keyring.stdin!.end('test-keyring-password');
  await waitForSecretsOnBus(env);
  return {
    address,
    close: async () => {
      await stop(keyring);
      await stop(bus);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Whether org.freedesktop.secrets has an owner on the bus: a keyring daemon is serving. */
function secretsOnBus(env: Record<string, string>): Promise<boolean> {
  const ask = ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets'];
  return new Promise<boolean>((resolve) => {
    let out = '';
    const probe = spawn('dbus-send', ask, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    probe.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    probe.on('close', () => resolve(/boolean true/.test(out)));
    probe.on('error', () => resolve(false));
  });
}

async function waitForSecretsOnBus(env: Record<string, string>): Promise<void> {
  // Polled until a deadline for a service that never comes up: on a busy machine it takes its time.
  for (const deadline = Date.now() + RUN_DEADLINE_MS; Date.now() < deadline; ) {
    if (await secretsOnBus(env)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the Secret Service did not come up on the test D-Bus session');
}

/** A Unix socket that accepts connections and never answers: a D-Bus session that hangs. */
export async function startSilentBus(): Promise<{ address: string; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-silent-bus-'));
  const socketPath = path.join(dir, 'bus');
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    address: `unix:path=${socketPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/**
 * Connections that cannot starve the sandbox. Each file descriptor is one
 * connection, and a process has few: clients that connect and then say nothing,
 * trickle their headers, or keep idle keep-alive connections open would soon take
 * them all, and then every new client is refused. So idle and slow connections are
 * timed out, and past a cap the oldest idle connection is closed to make room for
 * a new one rather than the new one being refused.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** node:http timeouts the sandbox's server is created with. */
export const SERVER_TIMEOUTS = {
  /** a request's headers must have arrived within this (slowloris) */
  headersTimeout: 10_000,
  /** a whole request, body included, must have arrived within this */
  requestTimeout: 30_000,
  /** an idle keep-alive connection is closed after this */
  keepAliveTimeout: 5_000,
  /** how often node checks the two above */
  connectionsCheckingInterval: 1_000,
};

/** A connection that has not begun a request within this is closed (node's own timeouts start with the first byte). */
export const DEFAULT_IDLE_TIMEOUT_MS = 10_000;
const CAP_WITHOUT_KNOWN_LIMIT = 1_000;
const MAX_DEFAULT_CAP = 10_000;

/** The soft limit of open files of this process, when the system says (Linux), else undefined. */
function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line && line[1] !== 'unlimited' ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Connections kept open at most, by default: three quarters of the open-file
 * limit less a margin, so that data files, postbacks and the listening socket
 * always find a descriptor.
 */
export function defaultMaxConnections(): number {
  const limit = openFileLimit();
  if (limit === undefined) return CAP_WITHOUT_KNOWN_LIMIT;
  return Math.max(16, Math.min(MAX_DEFAULT_CAP, Math.floor(limit * 0.75) - 32));
}

export interface ConnectionLimits {
  maxConnections: number;
  /** a connection that has not begun a request within this is closed */
  idleTimeoutMs: number;
  /** while answering, a connection on which no byte moves for this long is closed (a client that stopped reading) */
  stalledAnswerMs: number;
}

/**
 * Watches `server`'s connections: a connection is idle from its opening (or the
 * end of its last answer) until its next request arrives. Beyond maxConnections
 * the longest-idle connections are closed first; only when every connection is
 * busy answering is the new one closed. A connection that never begins a request
 * is closed after idleTimeoutMs, and one whose answer stops moving (its client no
 * longer reads) after stalledAnswerMs.
 */
export function guardConnections(server: Server, limits: ConnectionLimits, connectionEvent: 'connection' | 'secureConnection' = 'connection'): void {
  const open = new Set<Socket>();
  /** idle connections, longest idle first (a Map keeps insertion order) */
  const idle = new Map<Socket, NodeJS.Timeout | undefined>();
  const requestsInFlight = new Map<Socket, number>();

  const forget = (socket: Socket) => {
    clearTimeout(idle.get(socket));
    idle.delete(socket);
    open.delete(socket);
    requestsInFlight.delete(socket);
  };
  const close = (socket: Socket) => {
    forget(socket);
    socket.destroy();
  };

  // Over TLS the socket a request arrives on is the one of 'secureConnection'.
  server.on(connectionEvent, (socket: Socket) => {
    open.add(socket);
    const silent = setTimeout(() => close(socket), limits.idleTimeoutMs);
    silent.unref();
    idle.set(socket, silent);
    socket.once('close', () => forget(socket));
    // node leaves a socket whose timeout passed while answering alone; one whose answer stopped moving is closed
    socket.on('timeout', () => {
      if ((requestsInFlight.get(socket) ?? 0) > 0) close(socket);
    });
    for (const [oldest] of idle) {
      if (open.size <= limits.maxConnections) break;
      if (oldest !== socket) close(oldest);
    }
    if (open.size > limits.maxConnections) close(socket);
  });

  server.on('request', (req, res) => {
    const socket = req.socket;
    if (!open.has(socket)) return;
    clearTimeout(idle.get(socket));
    idle.delete(socket);
    requestsInFlight.set(socket, (requestsInFlight.get(socket) ?? 0) + 1);
    // once answered, node's keepAliveTimeout takes the socket's timeout over
    socket.setTimeout(limits.stalledAnswerMs);
    res.once('close', () => {
      const remaining = (requestsInFlight.get(socket) ?? 1) - 1;
      if (!open.has(socket)) return;
      requestsInFlight.set(socket, remaining);
      // node's keepAliveTimeout closes it if it stays idle; until then it is the first to go under pressure
      if (remaining === 0) idle.set(socket, undefined);
    });
  });
}

import type { AgentOptions } from 'node:http';
import { lookupOncePerRun } from './lookup.js';
import { mayHaveEffect } from './writes.js';

/**
 * Reads go on kept-alive connections, closed by payctl after 4 s idle, or a second before the
 * server's `Keep-Alive: timeout=N` says it closes them (node's Agent heeds that hint only when it
 * has a timeout of its own). The timeout only ends idle connections: an answer being waited for
 * is bounded by --timeout alone. https-proxy-agent keeps none of these options for its tunnels
 * (it replaces the agent's `options`): a tunnel stays until the server or proxy closes it, and a
 * read that meets the close is asked again.
 */
const KEPT_ALIVE: AgentOptions = { keepAlive: true, timeout: 4_000, lookup: lookupOncePerRun };

/**
 * A write (POST, PUT, PATCH, DELETE) goes on a connection opened for it, never on one kept alive.
 * A server closes an idle connection when it likes (past its keep-alive, or to make room under a
 * connection cap), and on a busy machine payctl's own idle close comes late: a request written as
 * the server closes the connection goes unanswered. A read is then asked again; a write's outcome
 * would be unknown (seen: a batch's POST in a run of twenty beside two other test suites). One
 * connection per write costs a handshake (its host is looked up once per run: lookup.ts).
 */
const CONNECTION_OF_ITS_OWN: AgentOptions = { keepAlive: false, lookup: lookupOncePerRun };

/** What a request's connection is for: reads share kept-alive ones, a write has one of its own. */
export type ConnectionUse = 'read' | 'write';
export const connectionUseOf = (method: string): ConnectionUse => (mayHaveEffect(method) ? 'write' : 'read');

/** The options of the agents that carry each use's requests. */
export const CONNECTION_OPTIONS: Readonly<Record<ConnectionUse, AgentOptions>> = { read: KEPT_ALIVE, write: CONNECTION_OF_ITS_OWN };

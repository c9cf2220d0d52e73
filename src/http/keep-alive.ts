import type { AgentOptions } from 'node:http';

/**
 * Kept-alive connections, closed by payctl after 4 s idle, or a second before the server's
 * `Keep-Alive: timeout=N` says it closes them (node's Agent heeds that hint only when it has a
 * timeout of its own). A server that closes an idle connection just as payctl writes a POST on
 * it leaves that POST's outcome unknown (seen: a batch's first POST after its confirmation, on a
 * connection idle for the 5 s node servers keep one). The timeout only ends idle connections:
 * an answer being waited for is bounded by --timeout alone.
 */
export const KEPT_ALIVE: AgentOptions = { keepAlive: true, timeout: 4_000 };

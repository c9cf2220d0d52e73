import type { Socket } from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { systemKeychain } from '../config/keychain.js';
import { usageError, type PayctlError } from '../errors.js';
import { formatCentsExact } from '../money.js';
import { formatLocalTime } from '../output/time.js';
import { userName } from '../process-io.js';
import { duplicateWindowOf } from '../withdrawal/duplicates.js';
import { checkSslMode } from './url.js';
import { LedgerUnavailable, makerOf, type Claim, type ClaimOutcome, type ClaimRequest, type Ledger, type LedgerRun } from './ledger.js';

/** The namespace of payctl's advisory locks (the first key of the two-key form). */
const LOCK_SPACE = 0x70617963; // "payc"
/** The namespace of the locks on an account's day ("payd"), apart from the runs' ids in LOCK_SPACE. */
const DAY_LOCK_SPACE = 0x70617964;
/**
 * The lock `ledger init` holds for its transaction, so that migrations from two machines run one after
 * the other: a namespace of its own ("payi"), as a key in LOCK_SPACE would be a run's id.
 */
const INIT_LOCK_SPACE = 0x70617969;
const INIT_LOCK = 0;
const DAY = "(now() AT TIME ZONE 'America/Sao_Paulo')::date";
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * Connections a run holds at most: single claims, a batch's groups of claims ahead, the
 * settlements and audit records committed behind the rows, and the intents of writes
 * without a claim go side by side rather than queue on one connection (a 500-row batch
 * at --concurrency 8 opens about 3).
 */
const MAX_CONNECTIONS = 10;

/** Versioned migrations: each runs once, in order, in `ledger init`'s one transaction. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE payctl_runs (
     id bigserial PRIMARY KEY, username text NOT NULL, host text NOT NULL, pid integer NOT NULL, started_at timestamptz NOT NULL DEFAULT now());
   CREATE TABLE payctl_claims (
     id bigserial PRIMARY KEY, account text NOT NULL, identity text NOT NULL, amount bigint NOT NULL, day date NOT NULL,
     state text NOT NULL CHECK (state IN ('claimed', 'done', 'refused', 'unknown', 'absent')),
     run_id bigint NOT NULL REFERENCES payctl_runs, username text NOT NULL, host text NOT NULL, file text,
     claimed_at timestamptz NOT NULL DEFAULT now(), settled_at timestamptz, withdrawal_id text);
   CREATE UNIQUE INDEX payctl_claims_in_flight ON payctl_claims (account, identity) WHERE state IN ('claimed', 'unknown');
   CREATE INDEX payctl_claims_identity ON payctl_claims (account, identity, claimed_at);
   CREATE TABLE payctl_daily_totals (account text NOT NULL, day date NOT NULL, total bigint NOT NULL, PRIMARY KEY (account, day));
   CREATE TABLE payctl_audit (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), username text NOT NULL, host text NOT NULL, record jsonb NOT NULL);`,
  // The twins of a batch are looked up by their withdrawal ids (claimsOf): without it, a scan of every claim the team made.
  // The day's total is the sum of its claims that may have paid, read under a lock (see claim): a row of totals that
  // every claim updated made the claims of an account wait for each other's commit.
  `CREATE INDEX payctl_claims_withdrawal ON payctl_claims (account, withdrawal_id) WHERE withdrawal_id IS NOT NULL;
   CREATE INDEX payctl_claims_day ON payctl_claims (account, day);
   DROP TABLE payctl_daily_totals;`,
  // A claim names its payment too (ClaimRequest's `payment`), so that one payment claimed as two rows that differ
  // (a reference, a postback URL) or as a row and a single withdrawal meets itself; a single's identity is its payment.
  `ALTER TABLE payctl_claims ADD COLUMN payment text;
   UPDATE payctl_claims SET payment = substr(identity, length('single ') + 1) WHERE identity LIKE 'single %';
   CREATE INDEX payctl_claims_payment ON payctl_claims (account, payment, claimed_at) WHERE payment IS NOT NULL;`,
];
export const SCHEMA_VERSION = MIGRATIONS.length;

const IN_FLIGHT = "state IN ('claimed', 'unknown')";
/** Claims that count towards their day's total: all but those that paid nothing. */
const MAY_HAVE_PAID = "state IN ('claimed', 'unknown', 'done')";

/**
 * A value as an SQL literal (node-postgres's quoting), for the strings of several statements sent
 * at once: only the simple protocol takes them, and it takes no parameters.
 */
const literal = (value: string | number | null): string => (value === null ? 'NULL' : typeof value === 'number' ? String(Math.trunc(value)) : pg.escapeLiteral(value));
const textArray = (values: readonly string[]): string => `ARRAY[${values.map(literal).join(', ')}]::text[]`;

interface Holder {
  username: string;
  host: string;
  file: string | null;
  claimed_at: Date;
  state: string;
  withdrawal_id: string | null;
  amount: string;
}

/**
 * The password: PGPASSWORD, else ~/.pgpass (or PGPASSFILE), else the keychain's
 * entry `ledger:URL`. It is handed to node-postgres only, never put in a URL.
 * node-postgres asks for it only when the server does; with none found, the
 * connection fails saying where payctl looked.
 */
function passwordOf(services: LedgerRun, url: string) {
  const parsed = new URL(url);
  const connection = {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost',
    port: parsed.port || '5432',
    database: decodeURIComponent(parsed.pathname.slice(1)),
    user: decodeURIComponent(parsed.username),
  };
  return async (): Promise<string> => {
    const env = services.env;
    if (env.PGPASSWORD) return env.PGPASSWORD;
    const { default: pgpass } = await import('pgpass');
    const fromFile = await new Promise<string | undefined>((resolve) => pgpass(connection, resolve));
    if (fromFile !== undefined) return fromFile;
    const entry = `the keychain entry ledger:${url}`;
    let keychain: string;
    try {
      const fromKeychain = await systemKeychain(env).get(`ledger:${url}`);
      if (fromKeychain !== undefined) return fromKeychain;
      keychain = entry;
    } catch (error) {
      // A keychain that cannot be read is not one without the entry: the fix is another.
      keychain = `${entry}, which could not be read (${error instanceof Error ? error.message : String(error)})`;
    }
    throw new Error(`its server asks for a password and none was found in PGPASSWORD, ${env.PGPASSFILE ? 'PGPASSFILE' : '~/.pgpass'} or ${keychain}`);
  };
}

const NO_SSL = 'The server does not support SSL connections';

/**
 * A connection to the ledger, with what failed named without any secret. `sslmode` means what
 * it means to libpq: the URL's, else PGSSLMODE, else `prefer`. node-postgres on its own takes
 * every mode but `disable` as `verify-full` (and warns on stderr) and never falls back to plain
 * text; its libpq-compatible parsing, and a second try without SSL for `prefer` and `allow`
 * (which libpq would try first without), give libpq's meaning.
 */
async function connect(services: LedgerRun, url: string): Promise<pg.Client> {
  const given = new URL(url).searchParams.get('sslmode');
  const { PGSSLMODE } = services.env;
  const mode = given !== null ? checkSslMode(`the sslmode of ${url}`, given) : PGSSLMODE ? checkSslMode('PGSSLMODE', PGSSLMODE) : 'prefer';
  const attempt = async (sslmode: string) => {
    const target = new URL(url);
    target.searchParams.set('sslmode', sslmode);
    target.searchParams.set('uselibpqcompat', 'true');
    const client = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // Set after construction: the URL's parse would replace it with its own (absent) password.
    client.password = passwordOf(services, url) as unknown as string;
    client.on('error', () => {}); // a connection lost between queries fails the next query, which says so
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  };
  try {
    return await attempt(mode === 'allow' ? 'prefer' : mode).catch((error: unknown) => {
      if ((mode === 'prefer' || mode === 'allow') && (error as Error)?.message === NO_SSL) return attempt('disable');
      throw error;
    });
  } catch (error) {
    throw new LedgerUnavailable(url, whyNoSsl(error, `sslmode=${mode}${given ? '' : ' (PGSSLMODE)'}`) ?? whyOf(error));
  }
}

/**
 * Certificates TLS could not trace to an authority this machine trusts, each in payctl's words: Node's own
 * message differs between versions (24 appends advice about --use-system-ca that contradicts sslrootcert).
 */
const UNTRUSTED = new Map([
  ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'],
  ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in the chain'],
  ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'],
  ['UNABLE_TO_GET_ISSUER_CERT', 'unable to get the issuer certificate'],
  ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'unable to get the local issuer certificate'],
  ['CERT_UNTRUSTED', 'certificate not trusted'],
]);

/** What the SSL mode in effect (`mode`, as the user set it) has to do with a failed connection, if anything. */
function whyNoSsl(error: unknown, mode: string): string | undefined {
  const { message = '', code = '' } = (error ?? {}) as { message?: string; code?: string };
  if (message === NO_SSL) return `its server does not offer SSL, which ${mode} requires`;
  const untrusted = UNTRUSTED.get(code);
  if (untrusted) return `its server's certificate is not trusted (${untrusted}), which ${mode} requires: give the authority that signed it as sslrootcert=FILE in the URL`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `its server's certificate is not for this host (${message}), which ${mode} requires`;
  // The server's pg_hba.conf takes this client only over SSL (hostssl); libpq's wording ends so.
  if (mode.startsWith('sslmode=disable') && /, no encryption$/.test(message)) return `its server takes this connection only over SSL, which ${mode} refuses`;
  return undefined;
}

const whyOf = (error: unknown): string => {
  const code = (error as { code?: string }).code;
  return (error as Error)?.message ? `${(error as Error).message}${code && !(error as Error).message.includes(code) ? ` (${code})` : ''}` : String(error);
};

async function schemaVersion(client: pg.Client): Promise<number | undefined> {
  const exists = await client.query<{ found: string | null }>("SELECT to_regclass('payctl_schema') AS found");
  if (!exists.rows[0]?.found) return undefined;
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM payctl_schema');
  return rows[0]?.version ?? undefined;
}

/** `ledger init`: the migrations not yet run, in one transaction under an advisory lock. Returns the versions before and after. */
export async function initLedger(services: LedgerRun, url: string): Promise<{ from: number; to: number }> {
  const client = await connect(services, url);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [INIT_LOCK_SPACE, INIT_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS payctl_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const from = (await schemaVersion(client)) ?? 0;
    for (const [done, migration] of MIGRATIONS.slice(from).entries()) {
      await client.query(migration);
      await client.query('INSERT INTO payctl_schema (version) VALUES ($1)', [from + done + 1]);
    }
    await client.query('COMMIT');
    return { from, to: Math.max(from, MIGRATIONS.length) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    if (error instanceof LedgerUnavailable) throw error;
    throw new LedgerUnavailable(url, whyOf(error));
  } finally {
    await client.end().catch(() => {});
  }
}

export interface LedgerStatus {
  ledger: string;
  answers: boolean;
  error?: string;
  schemaVersion: number | null;
  expectedVersion: number;
  inFlight: Array<{
    account: string; identity: string; amount: number; state: string; user: string; host: string; file: string | null; since: string; runEnded: boolean;
  }>;
}

/** `ledger status`: whether it answers, its schema version and the claims in flight. */
export async function ledgerStatus(services: LedgerRun, url: string): Promise<LedgerStatus> {
  const status: LedgerStatus = { ledger: url, answers: false, schemaVersion: null, expectedVersion: SCHEMA_VERSION, inFlight: [] };
  let client: pg.Client;
  try {
    client = await connect(services, url);
  } catch (error) {
    return { ...status, error: (error as LedgerUnavailable).message.replace(/: nothing was sent$/, '') };
  }
  try {
    status.answers = true;
    status.schemaVersion = (await schemaVersion(client)) ?? null;
    if (status.schemaVersion) {
      const { rows } = await client.query(
        `SELECT c.*, pg_try_advisory_lock(${LOCK_SPACE}, c.run_id::integer) AS ended FROM payctl_claims c WHERE ${IN_FLIGHT} ORDER BY claimed_at`,
      );
      status.inFlight = rows.map((row) => ({
        account: row.account, identity: row.identity, amount: Number(row.amount), state: row.state, user: row.username, host: row.host, file: row.file,
        since: (row.claimed_at as Date).toISOString(), runEnded: Boolean(row.ended),
      }));
    }
  } finally {
    await client.end().catch(() => {});
  }
  return status;
}

/**
 * The ledger of a run. The run is registered (user, host, pid) and holds a session
 * advisory lock on its id for as long as its connection lives: a claim whose run's
 * lock can be taken was left by a run that has ended (crashed, killed, cut off),
 * and only a reconcile settles it; a live run's claim is never touched.
 */
export async function openPostgresLedger(services: LedgerRun, url: string): Promise<Ledger> {
  const client = await connect(services, url);
  const connections = [client];
  let closing = false;
  // A connection the server closed (the database stopped, or cut it off) fails the ledger for the run at once, not
  // at its next query: a row claimed ahead is then not sent.
  const watch = (connection: pg.Client) =>
    connection.on('end', () => {
      if (!closing) broken ??= new LedgerUnavailable(url, 'the server closed the connection');
    });
  watch(client);
  // What is written behind the rows is committed before the connections close. Then each is told goodbye, and the run
  // does not wait for the server to close it (20-60 ms at the end of a batch): nothing is left to commit on it.
  const close = async () => {
    await flush().catch(() => {});
    await Promise.allSettled(opening);
    closing = true;
    for (const connection of connections) {
      void connection.end().catch(() => {});
      (connection.connection.stream as Partial<Socket>).unref?.();
    }
  };
  const username = userName(services.env);
  const host = os.hostname();
  /** A claim settled done within the profile's duplicate window refuses the same payment again, on the ledger's clock. */
  const WINDOW = `${duplicateWindowOf(services.settings()).ms / 1000} seconds`;
  let broken: LedgerUnavailable | undefined;
  // The run's connection (it holds the run's lock) and up to MAX_CONNECTIONS - 1 more, opened when all are busy.
  const idle: pg.Client[] = [client];
  const waiting: Array<(connection: pg.Client) => void> = [];
  let opened = 1;
  const opening: Array<Promise<void>> = [];
  const acquire = async (): Promise<pg.Client> => {
    const free = idle.pop();
    if (free) return free;
    const next = new Promise<pg.Client>((resolve) => waiting.push(resolve));
    if (opened < MAX_CONNECTIONS) {
      opened++;
      // Opened aside: a connection released meanwhile serves this work first. Opening one (a server
      // process, SCRAM) took 250-330 ms while a batch's first rows started, a claim 3 ms.
      const open = connect(services, url).then(
        (connection) => {
          connections.push(connection);
          watch(connection);
          release(connection);
        },
        (error: unknown) => {
          // The work waiting is served by a connection released, and fails there.
          broken ??= error instanceof LedgerUnavailable ? error : new LedgerUnavailable(url, whyOf(error));
        },
      );
      opening.push(open);
    }
    return next;
  };
  const release = (connection: pg.Client) => {
    const waiter = waiting.shift();
    if (waiter) waiter(connection);
    else idle.push(connection);
  };
  /**
   * Work on a connection of its own, in a transaction unless `single` (each of its
   * statements is one by itself); the first failure ends the ledger for the run.
   */
  const transaction = async <T>(work: (client: pg.Client) => Promise<T>, { single = false } = {}): Promise<T> => {
    if (broken) throw broken;
    let connection: pg.Client;
    try {
      connection = await acquire();
    } catch (error) {
      broken ??= error instanceof LedgerUnavailable ? error : new LedgerUnavailable(url, whyOf(error));
      throw broken;
    }
    try {
      if (broken) throw broken;
      if (!single) await connection.query('BEGIN');
      const result = await work(connection);
      if (!single) await connection.query('COMMIT');
      return result;
    } catch (error) {
      if (!single) await connection.query('ROLLBACK').catch(() => {});
      broken ??= error instanceof LedgerUnavailable ? error : new LedgerUnavailable(url, whyOf(error));
      throw broken;
    } finally {
      release(connection);
    }
  };

  /**
   * Statements committed together: those handed over while a commit runs go in the next, in the order
   * given. Each row's audit records and settlement were a commit of their own, one after another, on
   * the rows' way. `write` resolves once its statement is committed.
   */
  const grouped = () => {
    let queue: Array<{ statement: string; done: (error?: unknown) => void }> = [];
    let committing: Promise<void> | undefined;
    const commitQueued = async () => {
      while (queue.length > 0) {
        const group = queue;
        queue = [];
        const error = await transaction(
          async (connection) => {
            try {
              await connection.query(`BEGIN; ${group.map((item) => item.statement).join(';\n')}; COMMIT`);
            } catch (failure) {
              await connection.query('ROLLBACK').catch(() => {});
              throw failure;
            }
          },
          { single: true },
        ).then(() => undefined, (failure: unknown) => failure ?? new Error('failed'));
        for (const item of group) item.done(error);
      }
      committing = undefined;
    };
    return (statement: string): Promise<void> => {
      const written = new Promise<void>((resolve, reject) => queue.push({ statement, done: (error) => (error ? reject(error) : resolve()) }));
      committing ??= commitQueued();
      return written;
    };
  };
  /** Audit intents, which hold up their POST, apart from what goes behind the rows, so they never wait for its commits. */
  const writeNow = grouped();
  const writeGroupBehind = grouped();
  const pending = new Set<Promise<void>>();
  const writeBehind = (statement: string) => {
    const written = writeGroupBehind(statement);
    pending.add(written);
    void written.catch(() => {}).finally(() => pending.delete(written));
  };
  /** Commits every settlement and audit outcome handed over so far. */
  const flush = async () => {
    await Promise.all([...pending]);
  };

  /** An audit record's insert; a claim's transaction adds its condition (`AND …`) to keep its intent only with it. */
  const auditStatement = (record: object, condition = 'true') =>
    `INSERT INTO payctl_audit (username, host, record) SELECT ${literal(username)}, ${literal(host)}, ${literal(JSON.stringify(record))} WHERE ${condition}`;

  let runId: number;
  try {
    const version = await schemaVersion(client);
    if (version !== SCHEMA_VERSION) {
      throw usageError(
        version === undefined ? `the ledger ${url} has no payctl tables yet: nothing was sent` : `the ledger ${url} is at schema version ${version}, this payctl needs ${SCHEMA_VERSION}: nothing was sent`,
        version !== undefined && version > SCHEMA_VERSION ? 'upgrade payctl: a newer one has upgraded the ledger' : 'create or upgrade its tables once: payctl ledger init',
      );
    }
    const { rows: [run] } = await client.query<{ id: string }>('INSERT INTO payctl_runs (username, host, pid) VALUES ($1, $2, $3) RETURNING id', [username, host, process.pid]);
    if (!run) throw new Error('the ledger recorded no run');
    runId = Number(run.id);
    await client.query('SELECT pg_advisory_lock($1, $2::integer)', [LOCK_SPACE, runId]);
  } catch (error) {
    await close();
    if (error instanceof Error && 'exitCode' in error) throw error;
    throw new LedgerUnavailable(url, whyOf(error));
  }

  /** Sets a claim's outcome, in one statement; what was not paid (refused, absent) no longer counts towards its day's total. */
  const outcomeStatement = (claimId: number, outcome: ClaimOutcome) => {
    const [id, state, withdrawalId] = [claimId, outcome.state, outcome.state === 'done' ? outcome.withdrawalId : null].map(literal);
    return `UPDATE payctl_claims SET state = ${state}, withdrawal_id = ${withdrawalId}, settled_at = now() WHERE id = ${id}`;
  };
  const recordOutcome = (client: pg.Client, claimId: number, outcome: ClaimOutcome) => client.query(outcomeStatement(claimId, outcome));

  /** A claim's statement, its locks taken before it: inserts the claim unless held or over the day's limit, and says which. */
  const claimStatement = (request: ClaimRequest, intent: object | undefined) => {
    const { account, identity, amount, file, maxDailyTotal, payment, ownPaid, ownRows } = request;
    const [$1, $2, $3, $4, $5, $6, $7, $8, $9] = [account, identity, amount, runId, username, host, file, maxDailyTotal ?? null, payment].map(literal);
    const limited = request.maxDailyTotal !== undefined;
    const dayTotal = `(SELECT coalesce(sum(amount), 0) FROM payctl_claims WHERE account = ${$1} AND day = ${DAY} AND ${MAY_HAVE_PAID})`;
    const holds = `(${IN_FLIGHT}${request.allowDone ? '' : ` OR (state = 'done' AND claimed_at > now() - interval '${WINDOW}')`})`;
    // Another run's claim of the same payment holds it as its own identity's would; this run's, the journal's, and
    // those of the file's other rows of it (an earlier run's, in flight after a kill) are its rows.
    const twin = `payment = ${$9} AND run_id <> ${$4} AND coalesce(withdrawal_id, '') <> ALL (${textArray(ownPaid)}) AND identity <> ALL (${textArray(ownRows)})`;
    return `WITH held AS (
         SELECT * FROM payctl_claims WHERE account = ${$1} AND (identity = ${$2} OR (${twin})) AND ${holds}
         ORDER BY claimed_at DESC LIMIT 1),
       total AS (SELECT ${limited ? dayTotal : 'NULL::bigint'} AS total),
       claim AS (
         INSERT INTO payctl_claims (account, identity, payment, amount, day, state, run_id, username, host, file)
         SELECT ${$1}, ${$2}, ${$9}, ${$3}, ${DAY}, 'claimed', ${$4}, ${$5}, ${$6}, ${$7}
         WHERE NOT EXISTS (SELECT FROM held)${limited ? ` AND (SELECT total FROM total) + ${$3} <= ${$8}` : ''}
         RETURNING id)${intent ? `,
       audited AS (${auditStatement(intent, 'EXISTS (SELECT FROM claim)')})` : ''}
       SELECT (SELECT id FROM claim) AS claim_id, (SELECT total FROM total) AS day_total, held.*
       FROM (VALUES (1)) AS one LEFT JOIN held ON true`;
  };


  return {
    name: url,
    claimAll: (entries) =>
      transaction(
        async (client) => {
          // One round trip and one commit for every claim, each with its write's audit intent when given: the locks on their
          // identities, taken first, are held to the commit, so what the statements after them read of an identity is final
          // (each statement of the string reads afresh, its transaction's own claims included).
          // The day's total: a claim under a limit holds its account's day alone while it sums the day's claims
          // and adds its own; other claims share that lock, so they never wait for each other, only for it.
          // Locks are taken in the order of their keys, so that two runs claiming rows of one sheet in two orders never deadlock.
          // Literals, not parameters: only the simple protocol takes several statements at once.
          const limited = entries.some(({ request }) => request.maxDailyTotal !== undefined);
          const keys = (values: readonly string[]) => textArray([...new Set(values)]);
          // An identity's lock and its payment's: two runs claiming one payment under two identities read each other's claims.
          const claimKeys = entries.flatMap(({ request }) => [`${request.account} ${request.identity}`, `${request.account} payment ${request.payment}`]);
          const statements = [
            'BEGIN',
            `SELECT pg_advisory_xact_lock(key) FROM (SELECT DISTINCT hashtext(value) AS key FROM unnest(${keys(claimKeys)}) AS value ORDER BY 1) AS ordered`,
            `SELECT pg_advisory_xact_lock${limited ? '' : '_shared'}(${DAY_LOCK_SPACE}, key) FROM (SELECT DISTINCT hashtext(value || ' ' || ${DAY}::text) AS key FROM unnest(${keys(entries.map(({ request }) => request.account))}) AS value ORDER BY 1) AS ordered`,
            ...entries.map(({ request, intent }) => claimStatement(request, intent)),
            'COMMIT',
          ];
          let results: Array<pg.QueryResult<Holder & { claim_id: string | null; day_total: string | null }>>;
          try {
            results = (await client.query(statements.join(';\n'))) as unknown as typeof results;
          } catch (error) {
            // A statement that failed leaves the transaction open, aborted.
            await client.query('ROLLBACK').catch(() => {});
            throw error;
          }
          // BEGIN and the two locks, then each claim's one row.
          return entries.map(({ request }, i): Claim | PayctlError => {
            const row = results[3 + i]?.rows[0];
            if (row === undefined) throw new Error('the ledger answered a claim with no row');
            if (row.claim_id === null && row.state !== null) return heldError(row, url);
            if (row.claim_id === null) {
              const limit = request.maxDailyTotal;
              if (limit === undefined) throw new Error('the ledger refused a claim with neither a holder nor a daily total to exceed');
              const total = Number(row.day_total ?? 0);
              return usageError(
                `${formatCentsExact(request.amount)} would take today's total of the team's withdrawals from this account to ${formatCentsExact(total + request.amount)}, ` +
                  `above the profile's --max-daily-total ${formatCentsExact(limit)} (counted in the ledger ${url}, days in America/Sao_Paulo): nothing was sent`,
                'wait for tomorrow, or raise the limit: payctl profiles set NAME --max-daily-total CENTS',
              );
            }
            const claimId = Number(row.claim_id);
            // Behind the row: committed with the next group, and before the run reports (flush).
            return { settle: async (outcome: ClaimOutcome) => writeBehind(outcomeStatement(claimId, outcome)) };
          });
        },
        { single: true },
      ),
    settleLeftOver: async (account, identity, outcome) => {
      await transaction(async (client) => {
        const { rows } = await client.query<{ id: string; run_id: string }>(
          `SELECT id, run_id FROM payctl_claims WHERE account = $1 AND identity = $2 AND ${IN_FLIGHT} FOR UPDATE`,
          [account, identity],
        );
        for (const row of rows) {
          // A claim of a run still alive is that run's to settle.
          const { rows: free } = await client.query<{ ended: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2::integer) AS ended', [LOCK_SPACE, Number(row.run_id)]);
          if (Number(row.run_id) !== runId && !free[0]?.ended) continue;
          await recordOutcome(client, Number(row.id), outcome);
        }
      });
    },
    settleUnsent: async (file, keys) => {
      // The lock on a run's id is free once the run has ended; a live run's claims are its own to settle.
      await transaction((client) =>
        client.query(
          `UPDATE payctl_claims SET state = 'absent', settled_at = now()
           WHERE state = 'claimed' AND file = $1 AND username = $2 AND host = $3 AND run_id <> $4
             AND (account, identity) IN (SELECT * FROM unnest($5::text[], $6::text[]))
             AND pg_try_advisory_xact_lock(${LOCK_SPACE}, run_id::integer)`,
          [file, username, host, runId, keys.map((key) => key.account), keys.map((key) => key.identity)],
        ),
      );
    },
    audit: async (record, { behind = false } = {}) => {
      if (behind) writeBehind(auditStatement(record));
      else await writeNow(auditStatement(record));
    },
    flush,
    close,
    assertAnswers: () => {
      if (broken) throw broken;
    },
    claimsOf: async (account, withdrawalIds, identities) => {
      const { rows } = await transaction(() =>
        client.query<Holder & { identity: string }>(
          `SELECT * FROM payctl_claims WHERE account = $1 AND (withdrawal_id = ANY($2) OR (identity = ANY($3) AND withdrawal_id IS NULL AND ${IN_FLIGHT})) ORDER BY claimed_at DESC`,
          [account, withdrawalIds, identities],
        ),
      );
      return rows.map((row) => ({ identity: row.identity, withdrawalId: row.withdrawal_id, user: row.username, host: row.host, file: row.file }));
    },
  };
}

function heldError(holder: Holder, url: string) {
  // As payctl's tables print times: the local time zone, to the minute.
  const since = formatLocalTime(holder.claimed_at.toISOString());
  const who = makerOf({ user: holder.username, host: holder.host, file: holder.file });
  const what =
    holder.state === 'done'
      ? `was already paid by ${who} at ${since} (withdrawal ${holder.withdrawal_id ?? 'unknown'})`
      : `is claimed by ${who} since ${since}${holder.state === 'unknown' ? ', outcome unknown' : ''}`;
  return usageError(`this withdrawal of ${formatCentsExact(Number(holder.amount))} ${what}, in the team's ledger ${url}: nothing was sent`,
    holder.state === 'done' ? 'it is paid: do not send it again, unless it is meant to be paid twice (--allow-duplicate)' : 'let that run finish; a run that crashed is settled by its withdraw batch … --reconcile or payctl withdrawals get ID');
}

/** Audit records the team shares, oldest first. */
export async function teamAudit(services: LedgerRun, url: string, since: number | undefined): Promise<Array<Record<string, unknown>>> {
  const client = await connect(services, url);
  try {
    const { rows } = await client.query<{ record: Record<string, unknown> }>(
      'SELECT record FROM payctl_audit WHERE $1::timestamptz IS NULL OR at >= $1 ORDER BY id',
      [since === undefined ? null : new Date(since).toISOString()],
    );
    return rows.map((row) => row.record);
  } catch (error) {
    throw new LedgerUnavailable(url, whyOf(error));
  } finally {
    await client.end().catch(() => {});
  }
}

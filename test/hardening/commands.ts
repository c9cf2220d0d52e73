import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RecordedRequest } from '../helpers/fake-api.js';
import { fakeJwt } from '../helpers/fake-api.js';
import type { Answer } from '../helpers/fault-server.js';
import { loadCommandTree } from '../../src/commands/top-level.js';
import { optionsOf, type CommandSpec } from '../../src/commands/spec.js';

/**
 * One row per kind of command that talks to the API: how to run it without a
 * prompt, which request is the one under test, and what it changes. Adding a
 * command kind to the fault and secret suites is adding a row here.
 */
export interface CommandKind {
  kind: 'read' | 'create' | 'update' | 'delete' | 'withdraw' | 'batch' | 'login';
  /** The command path in the tree, e.g. ['customers', 'get']. */
  command: string[];
  /** Flags the row needs: the row fails, naming them, when the command lacks one. */
  needs?: string[];
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path (after the base URL) of the request under test. */
  path: RegExp;
  /** Arguments after the command path; `dir` is a scratch folder for files the command reads. */
  argv: (dir: string) => string[];
  /** stdin, for commands that read secrets from it. */
  input?: string;
  /** How many requests under test one run sends (a batch sends one per row). */
  sends?: number;
}

const uuid = () => randomUUID();
/** The split every canned subscription holds, so that remove-split finds it its own. */
const SPLIT_OF_EVERY_SUBSCRIPTION = '9d0e4f3a-6c1b-4b7e-8f2a-3c5d7e9f1a2b';

export const COMMAND_KINDS: CommandKind[] = [
  { kind: 'read', command: ['balance'], method: 'GET', path: /^\/withdrawals\/balance$/, argv: () => [] },
  { kind: 'read', command: ['customers', 'get'], method: 'GET', path: /^\/customers\/[0-9a-f-]+$/, argv: () => [uuid()] },
  {
    kind: 'login',
    command: ['auth', 'login'],
    method: 'POST',
    path: /^\/auth$/,
    argv: () => ['--client-id', 'acme', '--client-secret-stdin'],
    input: 'acme-sandbox-secret\n',
  },
  {
    kind: 'create',
    command: ['cards', 'tokenize'],
    needs: ['--card-stdin', '--customer', '--holder-name', '--exp-month', '--exp-year'],
    method: 'POST',
    path: /^\/cards\/tokenize$/,
    argv: () => ['--customer', uuid(), '--holder-name', 'ANA SILVA', '--exp-month', '12', '--exp-year', '2031', '--card-stdin'],
    input: '4111111111111111\n7391\n',
  },
  {
    kind: 'create',
    command: ['subaccounts', 'create', 'pf'],
    needs: ['--from-file'],
    method: 'POST',
    path: /^\/subaccounts\/pf$/,
    argv: (dir) => ['--from-file', writeJson(dir, 'subaccount.json', SUBACCOUNT_PF)],
  },
  {
    kind: 'create',
    command: ['subs', 'add-split'],
    needs: ['--subscription', '--receiver', '--amount'],
    method: 'POST',
    path: /^\/subscriptions\/add_split$/,
    argv: () => ['--subscription', uuid(), '--receiver', uuid(), '--amount', '100'],
  },
  {
    kind: 'update',
    command: ['customers', 'update'],
    needs: ['--first-name'],
    method: 'PUT',
    path: /^\/customers\/[0-9a-f-]+$/,
    argv: () => [uuid(), '--first-name', 'Ana'],
  },
  {
    kind: 'update',
    command: ['subs', 'update'],
    needs: ['--title'],
    method: 'PUT',
    path: /^\/subscriptions\/[0-9a-f-]+$/,
    argv: () => [uuid(), '--title', 'Plano ouro'],
  },
  { kind: 'delete', command: ['bank-accounts', 'delete'], needs: ['--yes'], method: 'DELETE', path: /^\/bank_accounts\/\d+$/, argv: () => ['7', '--yes'] },
  { kind: 'delete', command: ['subs', 'cancel'], needs: ['--yes'], method: 'DELETE', path: /^\/subscriptions\/[0-9a-f-]+$/, argv: () => [uuid(), '--yes'] },
  {
    kind: 'delete',
    command: ['subs', 'remove-split'],
    needs: ['--yes'],
    method: 'DELETE',
    path: /^\/subscriptions\/[0-9a-f-]+\/remove_split\/[0-9a-f-]+$/,
    // remove-split reads the subscription first and refuses a split that is not its own.
    argv: () => [uuid(), SPLIT_OF_EVERY_SUBSCRIPTION, '--yes'],
  },
  {
    kind: 'withdraw',
    command: ['withdraw', 'pix'],
    needs: ['--amount', '--bank-account', '--pix-key-type', '--pix-key', '--yes'],
    method: 'POST',
    path: /^\/withdrawals\/withdraw$/,
    argv: () => ['--amount', '1500', '--bank-account', '7', '--pix-key-type', 'EMAIL', '--pix-key', 'ana@example.com', '--yes'],
  },
  {
    kind: 'withdraw',
    command: ['withdraw', 'card'],
    needs: ['--amount', '--bank-account', '--yes'],
    method: 'POST',
    path: /^\/withdrawals\/withdraw$/,
    argv: () => ['--amount', '2500', '--bank-account', '7', '--yes'],
  },
  {
    kind: 'create',
    command: ['api'],
    needs: ['--data'],
    method: 'POST',
    path: /^\/withdrawals\/withdraw$/,
    argv: () => ['POST', '/withdrawals/withdraw', '--data', '{"withdrawalMethod":"boleto","amount":1500,"bankAccountId":7}'],
  },
  {
    kind: 'create',
    command: ['sandbox', 'credit'],
    needs: ['--pix'],
    method: 'POST',
    path: /^\/sandbox\/balance$/,
    argv: () => ['--pix', '1000'],
  },
  {
    kind: 'batch',
    command: ['withdraw', 'batch'],
    needs: ['--method', '--journal', '--yes'],
    method: 'POST',
    path: /^\/withdrawals\/withdraw$/,
    argv: (dir) => [writeCsv(dir), '--method', 'pix', '--journal', path.join(dir, 'journal.ndjson'), '--concurrency', '2', '--yes'],
    sends: 2,
  },
];

const SUBACCOUNT_PF = {
  name: 'Ana Silva',
  juridicDataPartner: {
    name: 'Ana',
    lastName: 'Silva',
    cpf: '52998224725',
    email: 'ana@example.com',
    birthdate: '1990-04-12',
    contactPhone: '11912345678',
    monthRevenue: 5000,
    jobOccupation: 'Designer',
    fullnameMom: 'Maria Silva',
  },
  addresses: [
    {
      addressType: 'RESPONSIBLE',
      zipcode: 1310100,
      street: 'Avenida Paulista',
      streetNumber: 1000,
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
      complement: 'ap 1',
      reference: 'perto do metrô',
    },
  ],
  accountBank: { holderName: 'Ana Silva', bankCode: '341', accountType: 'CHECKING', accountNumber: '123456', routingNumber: '0001', document: '52998224725' },
};

function writeJson(dir: string, name: string, value: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

function writeCsv(dir: string): string {
  const file = path.join(dir, 'withdrawals.csv');
  writeFileSync(file, 'amount,bank_account_id,pix_key_type,pix_key\n1500,7,EMAIL,ana@example.com\n2500,7,EMAIL,bia@example.com\n');
  return file;
}

const COMMANDS = await loadCommandTree();

/** The spec of a command path, or undefined when the tree has no such command. */
export function findCommand(pathInTree: readonly string[]): CommandSpec | undefined {
  let level: readonly CommandSpec[] = COMMANDS;
  let found: CommandSpec | undefined;
  for (const name of pathInTree) {
    found = level.find((spec) => spec.name === name);
    if (!found) return undefined;
    level = found.subcommands ?? [];
  }
  return found;
}

/**
 * What the tree lacks for the row to run: the command itself, or flags it needs. A row whose
 * command or flag was renamed must fail, not skip: a skipped row is a fault matrix that
 * silently stopped running.
 */
export function missingForRow(row: CommandKind): string[] {
  const spec = findCommand(row.command);
  if (!spec?.load) return [`the command payctl ${row.command.join(' ')}`];
  const flags = optionsOf(spec).flatMap((option) => option.flags.split(/[ ,]+/));
  return (row.needs ?? []).filter((needed) => !flags.includes(needed)).map((flag) => `the flag ${flag}`);
}

export const rowName = (row: CommandKind) => `${row.kind}: payctl ${row.command.join(' ')}`;

export const liveToken = () => fakeJwt(Math.floor(Date.now() / 1000) + 3600);

/** Plausible API answers, for the reads a command makes around the request under test. */
export function normalAnswer(request: RecordedRequest): Answer {
  const ok = (data: unknown, extra: object = {}): Answer => ({ status: 200, body: { data, message: 'ok', ...extra } });
  const id = request.url.split('?')[0]!.split('/').pop()!;
  const now = new Date().toISOString();
  const body = safeJson(request.body);
  if (request.url.startsWith('/withdrawals/balance') || request.url.startsWith('/sandbox/balance')) {
    return ok({ disponiblePixBalance: 1000, disponibleCardBalance: 20, disponibleBilletBalance: 0, withdrawalsInProcessingBalance: 0 });
  }
  if (request.url.startsWith('/auth')) return ok({ accessToken: liveToken(), tokenType: 'Bearer', expiresIn: 3600 });
  if (request.url.startsWith('/bank_accounts')) {
    const account = {
      id: 7,
      holderName: 'Ana Silva',
      bankCode: '341',
      routingNumber: '0001',
      accountNumber: '123456',
      document: '52998224725',
      accountType: 'CHECKING',
      status: 'APPROVED',
      createdAt: now,
    };
    if (request.method === 'DELETE') return ok({ message: 'bank account removed' });
    return /\/bank_accounts\/?$|\?/.test(request.url) ? ok([account], { meta: { total: 1, page: 1, limit: 20, totalPages: 1 } }) : ok(account);
  }
  if (request.url.startsWith('/withdrawals/withdraw')) {
    return ok({
      id: uuid(),
      amount: body.amount ?? 1500,
      liquidAmount: 1450,
      status: 'PENDING',
      pixKeyType: body.pixKeyType ?? 'EMAIL',
      pixKey: body.pixKey ?? 'ana@example.com',
      createdAt: now,
      updatedAt: now,
    });
  }
  if (request.url.startsWith('/withdrawals?') || request.url === '/withdrawals') return ok([], { meta: { total: 0 } });
  if (request.url.startsWith('/cards/tokenize')) {
    return ok({
      id: uuid(),
      customerId: body.customerId,
      holderName: body.holderName,
      first4Digits: '4111',
      last4Digits: '1111',
      expirationMonth: '12',
      expirationYear: '2031',
      cardBrand: 'visa',
      isActive: true,
      isVerified: false,
      postalCodeCheck: false,
      securityCodeCheck: false,
      addressCheck: false,
    });
  }
  if (request.url.startsWith('/subaccounts')) return ok({ id: uuid(), ...body, status: 'PENDING' });
  if (request.url.startsWith('/customers')) {
    return ok({
      id,
      firstName: body.firstName ?? 'Ana',
      lastName: 'Silva',
      email: 'ana@example.com',
      phoneNumber: '11912345678',
      document: '52998224725',
      birthdate: '1990-04-12',
      statusId: 'APPROVED',
      createdAt: now,
    });
  }
  if (request.url.startsWith('/subscriptions/add_split')) {
    return ok({
      id: uuid(),
      subaccountId: body.subaccountId,
      splitType: 'AMOUNT',
      splitPercentage: null,
      splitAmount: body.splitAmount ?? 100,
      liquidAmount: 96,
      chargebackLiable: false,
    });
  }
  if (request.url.includes('/remove_split/')) return ok({ message: 'split removed' });
  if (request.url.startsWith('/subscriptions')) {
    if (request.method === 'DELETE') return ok({ id, status: 'DELETED' });
    return ok({
      id,
      customerId: uuid(),
      tokenizedCardId: uuid(),
      title: body.title ?? 'Plano',
      amount: 5000,
      setupAmount: 0,
      frequency: 30,
      dueDate: '2030-01-01',
      expirationDate: '2031-01-01',
      tolerancePeriod: 0,
      status: 'ACTIVE',
      splits: [
        {
          id: SPLIT_OF_EVERY_SUBSCRIPTION,
          subaccountId: '4a5985bd-26fb-48ab-920a-a6b9ec714126',
          splitType: 'AMOUNT',
          splitPercentage: null,
          splitAmount: 100,
          liquidAmount: 96,
          chargebackLiable: false,
        },
      ],
      createdAt: now,
      updatedAt: now,
      canceledAt: null,
    });
  }
  return { status: 404, body: { data: { message: 'no such route', returnCode: -7008 } } };
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A stack frame line, the mark of an exception that escaped to the user. */
export const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|<anonymous>\)?)$/m;

/** Runs `work` on each item with at most `limit` running at once. */
export async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

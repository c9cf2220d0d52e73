import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compiledOperations, type CompiledOperation } from '../../src/sandbox/openapi.js';
import { Router } from '../../src/sandbox/router.js';
import { ROOT } from './cli.js';
import { fakeJwt, startFakeApi, type FakeApi, type RecordedRequest } from './fake-api.js';

/**
 * An API server on 127.0.0.1 that answers every operation payctl calls with a
 * plausible answer of the document's shape, then bent by a variant: fields
 * absent, null, of another type, unknown values and fields, empty lists, broken
 * envelopes, HTML. The variants say what the real platform may do differently
 * from the sandbox; the suite in test/variants checks what payctl makes of each.
 */

/** The ids the fixtures use, so that commands can name them. */
export const IDS = {
  customer: '0c5a5e1e-0000-4000-8000-000000000001',
  card: '0c5a5e1e-0000-4000-8000-000000000002',
  subscription: '0c5a5e1e-0000-4000-8000-000000000003',
  split: '0c5a5e1e-0000-4000-8000-000000000004',
  subaccount: '0c5a5e1e-0000-4000-8000-000000000005',
  withdrawal: '0c5a5e1e-0000-4000-8000-000000000006',
  bankAccount: 7,
} as const;

const CREATED = '2024-05-01T12:00:00.000Z';

const customer = () => ({
  id: IDS.customer, firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com', phoneNumber: '+5511912345678', document: '52998224725',
  birthdate: '1990-04-12', statusId: 'APPROVED', createdAt: CREATED,
  address: { statusId: 'APPROVED', zipcode: 1310100, street: 'Avenida Paulista', streetNumber: 1000, complement: 'ap 1', reference: 'perto do metrô', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP' },
});

const tokenizedCard = () => ({
  id: IDS.card, customerId: IDS.customer, holderName: 'ANA SILVA', first4Digits: '4111', last4Digits: '1111', expirationMonth: '12', expirationYear: '2031',
  cardBrand: 'visa', isActive: true, isVerified: false, postalCodeCheck: false, securityCodeCheck: false, addressCheck: false,
});

const subaccount = () => ({
  id: IDS.subaccount, name: 'Ana Silva ME', status: 'APPROVED', createdAt: CREATED,
  juridicDataPartner: { name: 'Ana', lastName: 'Silva', cpf: '52998224725', email: 'ana@example.com', birthdate: '1990-04-12', contactPhone: '+5511912345678', monthRevenue: 5000, jobOccupation: 'Designer', fullnameMom: 'Maria Silva' },
  addresses: [{ addressType: 'RESPONSIBLE', zipcode: 1310100, street: 'Avenida Paulista', streetNumber: 1000, neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', complement: 'ap 1', reference: 'perto do metrô' }],
  accountBank: { holderName: 'Ana Silva', bankCode: '341', accountType: 'CHECKING', accountNumber: '123456', routingNumber: '0001', document: '52998224725' },
});

const split = () => ({ id: IDS.split, subaccountId: IDS.subaccount, splitType: 'AMOUNT', splitPercentage: null, splitAmount: 1000, liquidAmount: 960, chargebackLiable: false });
const percentageSplit = () => ({ id: '0c5a5e1e-0000-4000-8000-000000000007', subaccountId: IDS.subaccount, splitType: 'PERCENTAGE', splitPercentage: 12.5, splitAmount: null, liquidAmount: 600, chargebackLiable: true });

const subscriptionFields = () => ({
  id: IDS.subscription, customerId: IDS.customer, title: 'Plano Ouro', amount: 5000, setupAmount: 0, frequency: 30, duration: 12, dueDate: '2030-01-01',
  expirationDate: '2031-01-01', tolerancePeriod: 0, status: 'ACTIVE', createdAt: CREATED, updatedAt: CREATED, canceledAt: null,
});
const subscription = () => ({ ...subscriptionFields(), tokenizedCardId: IDS.card, splits: [split(), percentageSplit()] });
const subscriptionListItem = () => {
  const { id: _id, ...listed } = split();
  return { ...subscriptionFields(), cardId: IDS.card, splits: [listed] };
};

const bankAccount = () => ({ id: IDS.bankAccount, holderName: 'Ana Silva', bankCode: '341', routingNumber: '0001', accountNumber: '123456', document: '52998224725', accountType: 'CHECKING', status: 'APPROVED', createdAt: CREATED });

/** A PIX withdrawal; listed ones are of another amount than any a command here makes, so they are no duplicate. */
const withdrawal = (amount = 777) => ({
  id: IDS.withdrawal, amount, liquidAmount: amount - 50, status: 'PENDING', withdrawalPaymentType: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com',
  bankAccountId: IDS.bankAccount, postbackUrl: 'https://example.com/hook', createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
});

const balances = () => ({ disponiblePixBalance: 1000.5, disponibleCardBalance: 250, disponibleBilletBalance: 0, withdrawalsInProcessingBalance: 12.34 });

const pageMeta = (total: number) => ({ total, page: 1, limit: 20, totalPages: 1 });

export interface Envelope {
  data: unknown;
  meta?: unknown;
  message: string;
}

const single = (data: unknown): Envelope => ({ data, message: 'ok' });
const list = (items: unknown[], meta: unknown = pageMeta(items.length)): Envelope => ({ data: items, meta, message: 'ok' });

/** The plausible answer of each operation payctl calls, of the document's shape. */
const BASE: Record<string, (request: RecordedRequest) => Envelope> = {
  auth: () => single({ accessToken: fakeJwt(Math.floor(Date.now() / 1000) + 3600), tokenType: 'Bearer', expiresIn: 3600 }),
  tokenizeCard: () => single(tokenizedCard()),
  getCard: () => single({ ...tokenizedCard(), createdAt: CREATED }),
  createSubaccountPf: () => single({ ...subaccount(), status: 'PENDING' }),
  createSubaccountPj: () => single({ ...subaccount(), status: 'PENDING' }),
  listCustomers: () => list([customer(), { ...customer(), id: '0c5a5e1e-0000-4000-8000-000000000011', firstName: 'Bia', email: 'bia@example.com' }]),
  getCustomer: () => single(customer()),
  updateCustomer: () => single(customer()),
  listSubscriptions: () => list([subscriptionListItem(), { ...subscriptionListItem(), id: '0c5a5e1e-0000-4000-8000-000000000013', status: 'SUSPENDED' }]),
  addSplit: () => single(split()),
  getSubscription: () => single(subscription()),
  updateSubscription: () => single(subscription()),
  cancelSubscription: () => single({ id: IDS.subscription, status: 'DELETED' }),
  removeSplit: () => single({ message: 'split removed' }),
  listBankAccounts: () => list([bankAccount()]),
  getBankAccount: () => single(bankAccount()),
  deleteBankAccount: () => single({ message: 'bank account removed' }),
  withdraw: (request) => {
    const body = JSON.parse(request.body) as { amount: number; withdrawalMethod: string; pixKeyType?: string; pixKey?: string };
    const created = { ...withdrawal(body.amount), status: 'PENDING', withdrawalPaymentType: body.withdrawalMethod.toUpperCase() };
    if (body.withdrawalMethod !== 'pix') {
      delete (created as Partial<typeof created>).pixKeyType;
      delete (created as Partial<typeof created>).pixKey;
    }
    return single(created);
  },
  listWithdrawals: () => list([withdrawal()], { total: 1 }),
  getBalance: () => single(balances()),
  getWithdrawal: () => single(withdrawal()),
  sandboxListSubaccounts: () => list([subaccount()]),
  sandboxApproveSubaccount: () => single(subaccount()),
  sandboxSettleWithdrawal: () => single({ ...withdrawal(), status: 'COMPLETED' }),
  sandboxCreditBalance: () => single(balances()),
};

/** What the server sends for one answer. */
export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** A way the platform's answers may differ from the document, applied to every success answer of a run. */
export interface Variant {
  name: string;
  answer(operation: CompiledOperation, envelope: Envelope): RawAnswer;
}

const json = (status: number, body: unknown): RawAnswer => ({ status, contentType: 'application/json', text: JSON.stringify(body) });

/** A variant that rewrites the envelope of every success answer. */
export const bodyVariant = (name: string, rewrite: (envelope: Envelope, operation: CompiledOperation) => unknown): Variant => ({
  name,
  answer: (operation, envelope) => json(operation.successStatus, rewrite(envelope, operation)),
});

/** A variant that answers every success with this raw text. */
export const textVariant = (name: string, contentType: string, text: string): Variant => ({
  name,
  answer: (operation) => ({ status: operation.successStatus, contentType, text }),
});

const operations = compiledOperations();
const router = new Router(operations);

/** `METHOD /path/{param}` of an operation, as payctl's messages name it. */
export const routeOf = (operation: CompiledOperation) => `${operation.method} ${operation.pathTemplate}`;
export const operationById = (id: string) => operations.find((operation) => operation.operationId === id)!;

/** The untouched answer of an operation to a request: the fixtures the suite checks against the document. */
export function baseAnswer(operationId: string, request: RecordedRequest): Envelope {
  const make = BASE[operationId];
  if (!make) throw new Error(`the variant API has no answer for ${operationId}`);
  return make(request);
}

export interface VariantApi extends FakeApi {
  /** The operations of the requests received, in order. */
  operations(): string[];
}

/** Starts a variant API on a free port of 127.0.0.1. */
export async function startVariantApi(variant: Variant): Promise<VariantApi> {
  const api = await startFakeApi((request, response) => {
    const pathname = request.url.split('?')[0]!;
    const match = router.match(request.method, pathname);
    if (match.kind !== 'found') {
      const text = JSON.stringify({ data: { message: `no route ${request.method} ${pathname}`, returnCode: -7008 } });
      response.writeHead(404, { 'content-type': 'application/json' }).end(text);
      return;
    }
    const answer = variant.answer(match.operation, baseAnswer(match.operation.operationId, request));
    response.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': Buffer.byteLength(answer.text), date: new Date().toUTCString() });
    response.end(answer.text);
  });
  return {
    ...api,
    operations: () => api.requests.map((request) => router.operationOf(request.method, request.url)?.operationId ?? 'unknown'),
  };
}

/** src/api/needs.json: the fields payctl says it needs from each operation's answer. */
export const NEEDS: Readonly<Record<string, readonly string[]>> = JSON.parse(readFileSync(path.join(ROOT, 'src/api/needs.json'), 'utf8'));

/** A needs path split into steps: property names and `[]` for every item. */
export const stepsOf = (needPath: string) => needPath.replace(/\?$/, '').match(/\[\]|[A-Za-z0-9_]+/g) ?? [];

interface NeedsNode {
  children: Map<string, NeedsNode>;
  items?: NeedsNode;
}

function needsTree(paths: readonly string[]): NeedsNode {
  const root: NeedsNode = { children: new Map() };
  for (const needPath of paths) {
    let node = root;
    for (const step of stepsOf(needPath)) {
      const next: NeedsNode = (step === '[]' ? node.items : node.children.get(step)) ?? { children: new Map() };
      if (step === '[]') node.items = next;
      else node.children.set(step, next);
      node = next;
    }
  }
  return root;
}

/** Marks a field to be left out of the answer. */
export const ABSENT = Symbol('absent');
type Replace = (value: unknown, field: string) => unknown;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Replaces, at every depth, each field payctl does not need from this operation (a needed object's other fields too). */
export function replaceUnneeded(data: unknown, operationId: string, replace: Replace): unknown {
  const walk = (value: unknown, node: NeedsNode): unknown => {
    if (Array.isArray(value)) return node.items ? value.map((item) => walk(item, node.items!)) : value;
    if (!isPlainObject(value)) return value;
    const result: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const child = node.children.get(key);
      const replaced = child ? walk(inner, child) : replace(inner, key);
      if (replaced !== ABSENT) result[key] = replaced;
    }
    return result;
  };
  return walk(data, needsTree(NEEDS[operationId] ?? []));
}

/** Replaces the value at a needs path (`[]` steps: the first item), leaving the rest as it was. */
export function replaceAt(data: unknown, needPath: string, replace: (value: unknown) => unknown): unknown {
  const steps = stepsOf(needPath);
  const walk = (value: unknown, index: number): unknown => {
    if (index === steps.length) return replace(value);
    const step = steps[index]!;
    if (step === '[]') return Array.isArray(value) && value.length > 0 ? [walk(value[0], index + 1), ...value.slice(1)] : value;
    if (!isPlainObject(value)) return value;
    const replaced = walk(value[step], index + 1);
    const { [step]: _old, ...rest } = value;
    return replaced === ABSENT ? rest : { ...value, [step]: replaced };
  };
  return walk(data, 0);
}

/** A value of another JSON type than `value`: numbers where strings were and the reverse, arrays where objects were and the reverse. */
export function otherType(value: unknown): unknown {
  if (typeof value === 'string') return /^\d+$/.test(value) ? Number(value) : value.length;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return String(value);
  if (value === null) return {};
  if (Array.isArray(value)) return { items: value };
  if (isPlainObject(value)) return [value];
  return null;
}

/** Values outside each enumeration of the document (`CPF` is the reference's own sample key type). */
export const UNKNOWN_VALUES: Readonly<Record<string, string>> = {
  status: 'ON_HOLD', statusId: 'BLOCKED', splitType: 'MIXED', pixKeyType: 'CPF', withdrawalPaymentType: 'TED',
  accountType: 'SAVINGS_PLUS', addressType: 'BILLING', tokenType: 'MAC', state: 'XX',
};

/** Unknown enumeration values and unknown fields at every depth, the envelope included. */
export function withUnknowns(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withUnknowns);
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) result[key] = typeof inner === 'string' && key in UNKNOWN_VALUES ? UNKNOWN_VALUES[key] : withUnknowns(inner);
  result.addedByTheApi = { note: 'a field payctl has never heard of', list: [1, 'two', null] };
  return result;
}

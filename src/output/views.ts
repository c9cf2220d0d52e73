import { getPath } from './paths.js';

/**
 * How each resource is shown: the fields `--fields` accepts (dot paths) and the
 * columns a list shows by default. json/ndjson/csv/tsv keep the raw values;
 * a field's kind only changes how a table cell reads, and how it is fitted:
 *
 * - `id`: never cut (a cut id cannot be typed back);
 * - `cents`, `reais` (money as `R$ 1.234,56`), `status`, `boolean`, `list` (a count), `days`,
 *   `time` (local, `2026-11-23 16:45`), `cpf`, `cnpj`, `document` (CPF or CNPJ by
 *   length), `cep`, `phone`, `pixKey` (by its shape): kept whole while they read as
 *   such a value, since a cut amount or document misleads;
 * - none: text, cut with `…` when the table is too wide.
 */
export type ColumnKind = 'id' | 'cents' | 'reais' | 'status' | 'boolean' | 'list' | 'days' | 'time' | 'cpf' | 'cnpj' | 'document' | 'cep' | 'phone' | 'pixKey';

export interface Column {
  field: string;
  /** The column's title, in words (default: the field's name split into words). */
  header?: string;
  /** Overrides the view's `kinds` for this column. */
  kind?: ColumnKind;
  /**
   * When a table cannot fit the terminal even with its text columns cut, columns
   * are left out, the highest `hide` first; a column without it is always shown.
   */
  hide?: number;
  /** Shown only where the table fits with no column cut: left out (the highest `hide` first) before any is. */
  spare?: boolean;
  /** A column a table computes from the item (a customer's whole name), where no one field holds what people read. */
  value?: (item: unknown) => unknown;
}

export interface View {
  /** Plural noun, for "no customers" and "showing 20 of 250 customers" (its singular drops the final "s"). */
  noun: string;
  fields: readonly string[];
  columns: readonly Column[];
  /**
   * The columns a table shows by default, where they differ from those csv and tsv
   * write (which scripts read, so they stay as they were): chosen so that at 80
   * columns a list shows what its reader needs.
   */
  tableColumns?: readonly Column[];
  /** How each field reads in a table, in a list's columns and a single resource's lines (default: text). */
  kinds?: Readonly<Record<string, ColumnKind>>;
}

/** Text of several fields joined by a space, the empty ones left out; undefined (a table's `-`) when all are. */
const joined = (item: unknown, fields: readonly string[]) =>
  fields.map((field) => getPath(item, field)).filter((value) => typeof value === 'string' && value !== '').join(' ') || undefined;

/** The kind of a field in a view: its column's, else the view's. */
export const kindOf = (view: View | undefined, field: string): ColumnKind | undefined =>
  view?.columns.find((column) => column.field === field)?.kind ?? view?.kinds?.[field];

const ADDRESS_FIELDS = ['zipcode', 'street', 'streetNumber', 'complement', 'reference', 'neighborhood', 'city', 'state'];
const prefixed = (prefix: string, names: readonly string[]) => names.map((name) => `${prefix}.${name}`);

export const cardView: View = {
  noun: 'cards',
  fields: [
    'id', 'customerId', 'holderName', 'first4Digits', 'last4Digits', 'expirationMonth', 'expirationYear', 'cardBrand',
    'isActive', 'isVerified', 'postalCodeCheck', 'securityCodeCheck', 'addressCheck', 'createdAt',
  ],
  columns: [
    { field: 'id' },
    { field: 'holderName', header: 'holder', hide: 2 },
    { field: 'cardBrand', header: 'brand', hide: 3 },
    { field: 'last4Digits', header: 'last 4', hide: 1 },
    { field: 'isActive', header: 'active', hide: 4 },
  ],
  kinds: {
    id: 'id', customerId: 'id', isActive: 'boolean', isVerified: 'boolean', postalCodeCheck: 'boolean', securityCodeCheck: 'boolean', addressCheck: 'boolean',
    createdAt: 'time',
  },
};

export const customerView: View = {
  noun: 'customers',
  fields: [
    'id', 'firstName', 'lastName', 'email', 'phoneNumber', 'document', 'birthdate', 'statusId', 'createdAt',
    'address', 'address.statusId', ...prefixed('address', ADDRESS_FIELDS),
  ],
  columns: [
    { field: 'id' },
    { field: 'firstName', header: 'first name' },
    { field: 'lastName', header: 'last name', hide: 2 },
    { field: 'email', hide: 1 },
    { field: 'document', hide: 3 },
    { field: 'statusId', header: 'status', hide: 4 },
  ],
  // A support agent's columns: who (one name, as people say it), how to reach them, their document.
  tableColumns: [
    { field: 'id' },
    { field: 'name', value: (item) => joined(item, ['firstName', 'lastName']) },
    { field: 'email', hide: 1 },
    { field: 'document', hide: 2 },
    { field: 'statusId', header: 'status', hide: 3, spare: true },
  ],
  kinds: {
    id: 'id', phoneNumber: 'phone', document: 'document', statusId: 'status', createdAt: 'time', 'address.statusId': 'status', 'address.zipcode': 'cep',
  },
};

const PARTNER_FIELDS = ['name', 'lastName', 'cpf', 'email', 'birthdate', 'contactPhone', 'monthRevenue', 'jobOccupation', 'fullnameMom'];
const LEGAL_FIELDS = ['cnpj', 'contactPhone', 'fantasyName', 'socialReason', 'avgAnualBilling', 'searchingServices', 'socialMedia'];
const ACCOUNT_BANK_FIELDS = ['holderName', 'bankCode', 'accountType', 'accountNumber', 'routingNumber', 'document'];

export const subaccountView: View = {
  noun: 'sub-accounts',
  fields: [
    'id', 'name', 'status', 'juridicDataPartner', ...prefixed('juridicDataPartner', PARTNER_FIELDS),
    'juridicLegalData', ...prefixed('juridicLegalData', LEGAL_FIELDS), 'addresses',
    'accountBank', ...prefixed('accountBank', ACCOUNT_BANK_FIELDS),
  ],
  columns: [{ field: 'id' }, { field: 'name', hide: 1 }, { field: 'status', hide: 2 }],
  kinds: {
    id: 'id', status: 'status', addresses: 'list',
    'juridicDataPartner.cpf': 'cpf', 'juridicDataPartner.contactPhone': 'phone', 'juridicDataPartner.monthRevenue': 'reais',
    'juridicLegalData.cnpj': 'cnpj', 'juridicLegalData.contactPhone': 'phone', 'juridicLegalData.avgAnualBilling': 'reais',
    'accountBank.document': 'document',
  },
};

/**
 * `subaccounts list` where the platform has no list of them: the sub-accounts this
 * profile knows, with the name and status last seen and how payctl came to know each.
 */
export const knownSubaccountView: View = {
  noun: 'sub-accounts',
  fields: [...subaccountView.fields, 'seenAs'],
  columns: [{ field: 'id' }, { field: 'name', hide: 1 }, { field: 'status', hide: 2 }, { field: 'seenAs', header: 'known from', hide: 3 }],
  kinds: subaccountView.kinds,
};

const SPLIT_FIELDS = ['id', 'subaccountId', 'splitType', 'splitPercentage', 'splitAmount', 'liquidAmount', 'chargebackLiable'];

export const splitView: View = {
  noun: 'splits',
  fields: SPLIT_FIELDS,
  columns: [
    { field: 'id' },
    { field: 'subaccountId', header: 'sub-account', hide: 5 },
    { field: 'splitType', header: 'type', hide: 4 },
    { field: 'splitPercentage', header: 'percent', hide: 2 },
    { field: 'splitAmount', header: 'amount', hide: 1 },
    { field: 'liquidAmount', header: 'net', hide: 3 },
    { field: 'chargebackLiable', header: 'chargeback', hide: 6 },
  ],
  kinds: { id: 'id', subaccountId: 'id', splitAmount: 'cents', liquidAmount: 'cents', chargebackLiable: 'boolean' },
};

export const subscriptionView: View = {
  noun: 'subscriptions',
  fields: [
    'id', 'customerId', 'tokenizedCardId', 'cardId', 'title', 'amount', 'setupAmount', 'frequency', 'duration', 'dueDate', 'expirationDate',
    'tolerancePeriod', 'status', 'splits', 'createdAt', 'updatedAt', 'canceledAt',
  ],
  columns: [
    { field: 'id' },
    { field: 'title', hide: 1 },
    { field: 'amount', hide: 2 },
    { field: 'frequency', header: 'every', hide: 5, spare: true },
    { field: 'status', hide: 3 },
    { field: 'splits', hide: 6, spare: true },
    { field: 'createdAt', header: 'created at', hide: 4 },
  ],
  kinds: {
    id: 'id', customerId: 'id', tokenizedCardId: 'id', cardId: 'id', amount: 'cents', setupAmount: 'cents', frequency: 'days', status: 'status', splits: 'list',
    createdAt: 'time', updatedAt: 'time', canceledAt: 'time',
  },
};

/** A customer's subscriptions under `customers get`: the card each charges by its brand and last digits. */
export const customerSubscriptionView: View = {
  noun: 'subscriptions',
  fields: [...subscriptionView.fields, 'card'],
  // The customer's own list: the card where the creation time was.
  columns: [
    ...subscriptionView.columns.filter((column) => column.field !== 'splits' && column.field !== 'createdAt'),
    { field: 'card', hide: 4 },
    { field: 'splits', hide: 6 },
  ],
  kinds: subscriptionView.kinds,
};

/** Splits in a table: the receiving sub-account by name (by id when payctl does not know it), kept before its id. */
export const splitTableView: View = {
  ...splitView,
  fields: [...SPLIT_FIELDS, 'subaccountName'],
  // The receiver by name and what it gets come first; its id, the split's type (read from its value) and chargeback only where there is room.
  columns: [
    { field: 'id' },
    // By id where payctl knows no name: a receiver is never left out.
    { field: 'subaccountName', header: 'receiver', value: (split) => getPath(split, 'subaccountName') ?? getPath(split, 'subaccountId') },
    ...splitView.columns.slice(1).map((column) => (['subaccountId', 'splitType', 'chargebackLiable'].includes(column.field) ? { ...column, spare: true } : column)),
  ],
};

export const bankAccountView: View = {
  noun: 'bank accounts',
  fields: ['id', 'holderName', 'bankCode', 'routingNumber', 'accountNumber', 'document', 'accountType', 'status', 'createdAt'],
  columns: [
    { field: 'id' },
    { field: 'holderName', header: 'holder', hide: 4 },
    { field: 'bankCode', header: 'bank', hide: 2 },
    { field: 'routingNumber', header: 'branch', hide: 3 },
    { field: 'accountNumber', header: 'account', hide: 1 },
    { field: 'accountType', header: 'type', hide: 5 },
    { field: 'status', hide: 6 },
  ],
  kinds: { id: 'id', document: 'document', status: 'status', createdAt: 'time' },
};

/** Where a withdrawal's money went: its PIX key, else the bank account it was paid into. */
function withdrawalDestination(item: unknown): unknown {
  const pixKey = getPath(item, 'pixKey');
  if (typeof pixKey === 'string' && pixKey !== '') return pixKey;
  const account = getPath(item, 'bankAccountId');
  return account === undefined || account === null ? undefined : `bank account ${String(account)}`;
}

export const withdrawalView: View = {
  noun: 'withdrawals',
  fields: ['id', 'amount', 'liquidAmount', 'status', 'withdrawalPaymentType', 'bankAccountId', 'pixKeyType', 'pixKey', 'postbackUrl', 'createdAt', 'updatedAt'],
  columns: [
    { field: 'id' },
    { field: 'amount', hide: 1 },
    { field: 'liquidAmount', header: 'net', hide: 6 },
    { field: 'status', hide: 2 },
    { field: 'withdrawalPaymentType', header: 'method', hide: 4 },
    { field: 'pixKey', header: 'pix key', hide: 5 },
    { field: 'createdAt', header: 'created at', hide: 3 },
  ],
  // Finance's columns: how much, where it went (the PIX key, else the bank account), its status and when.
  tableColumns: [
    { field: 'id' },
    { field: 'amount' },
    { field: 'liquidAmount', header: 'net', hide: 6, spare: true },
    { field: 'withdrawalPaymentType', header: 'method', hide: 5, spare: true },
    { field: 'destination', kind: 'pixKey', value: withdrawalDestination, hide: 2 },
    { field: 'status', hide: 1 },
    { field: 'createdAt', header: 'created at', hide: 3 },
  ],
  kinds: { id: 'id', amount: 'cents', liquidAmount: 'cents', status: 'status', bankAccountId: 'id', pixKey: 'pixKey', createdAt: 'time', updatedAt: 'time' },
};

export const balanceView: View = {
  noun: 'balances',
  fields: ['disponiblePixBalance', 'disponibleCardBalance', 'disponibleBilletBalance', 'withdrawalsInProcessingBalance'],
  columns: [
    { field: 'disponiblePixBalance', header: 'pix available' },
    { field: 'disponibleCardBalance', header: 'card available' },
    { field: 'disponibleBilletBalance', header: 'boleto available' },
    { field: 'withdrawalsInProcessingBalance', header: 'in processing' },
  ],
  kinds: { disponiblePixBalance: 'reais', disponibleCardBalance: 'reais', disponibleBilletBalance: 'reais', withdrawalsInProcessingBalance: 'reais' },
};

/** A plain message answer, such as the one a delete returns. */
export const messageView: View = {
  noun: 'messages',
  fields: ['message', 'id', 'status'],
  columns: [{ field: 'message' }],
  kinds: { id: 'id', status: 'status' },
};

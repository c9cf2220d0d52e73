/**
 * How each resource is shown: the fields `--fields` accepts (dot paths) and the
 * columns a list shows by default. json/ndjson/csv/tsv keep the raw values;
 * `kind` only changes how a table cell reads.
 */
export type ColumnKind = 'cents' | 'reais' | 'status' | 'boolean' | 'list';

export interface Column {
  field: string;
  header?: string;
  kind?: ColumnKind;
}

export interface View {
  /** Plural noun for notes such as "no customers". */
  noun: string;
  fields: readonly string[];
  columns: readonly Column[];
  /** How fields of a single resource read in a table (defaults to plain). */
  kinds?: Readonly<Record<string, ColumnKind>>;
}

const ADDRESS_FIELDS = ['zipcode', 'street', 'streetNumber', 'complement', 'reference', 'neighborhood', 'city', 'state'];
const prefixed = (prefix: string, names: readonly string[]) => names.map((name) => `${prefix}.${name}`);

export const cardView: View = {
  noun: 'cards',
  fields: [
    'id',
    'customerId',
    'holderName',
    'first4Digits',
    'last4Digits',
    'expirationMonth',
    'expirationYear',
    'cardBrand',
    'isActive',
    'isVerified',
    'postalCodeCheck',
    'securityCodeCheck',
    'addressCheck',
    'createdAt',
  ],
  columns: [{ field: 'id' }, { field: 'holderName' }, { field: 'cardBrand' }, { field: 'last4Digits' }, { field: 'isActive', kind: 'boolean' }],
};

export const customerView: View = {
  noun: 'customers',
  fields: [
    'id',
    'firstName',
    'lastName',
    'email',
    'phoneNumber',
    'document',
    'birthdate',
    'statusId',
    'createdAt',
    'address',
    'address.statusId',
    ...prefixed('address', ADDRESS_FIELDS),
  ],
  columns: [
    { field: 'id' },
    { field: 'firstName' },
    { field: 'lastName' },
    { field: 'email' },
    { field: 'document' },
    { field: 'statusId', header: 'status', kind: 'status' },
  ],
  kinds: { statusId: 'status', 'address.statusId': 'status' },
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
  columns: [{ field: 'id' }, { field: 'name' }, { field: 'status', kind: 'status' }],
  kinds: { status: 'status', addresses: 'list' },
};

const SPLIT_FIELDS = ['id', 'subaccountId', 'splitType', 'splitPercentage', 'splitAmount', 'liquidAmount', 'chargebackLiable'];

export const splitView: View = {
  noun: 'splits',
  fields: SPLIT_FIELDS,
  columns: [
    { field: 'id' },
    { field: 'subaccountId' },
    { field: 'splitType', header: 'type' },
    { field: 'splitPercentage', header: 'percentage' },
    { field: 'splitAmount', header: 'amount', kind: 'cents' },
    { field: 'liquidAmount', header: 'liquid', kind: 'cents' },
    { field: 'chargebackLiable', kind: 'boolean' },
  ],
  kinds: { splitAmount: 'cents', liquidAmount: 'cents' },
};

export const subscriptionView: View = {
  noun: 'subscriptions',
  fields: [
    'id',
    'customerId',
    'tokenizedCardId',
    'cardId',
    'title',
    'amount',
    'setupAmount',
    'frequency',
    'duration',
    'dueDate',
    'expirationDate',
    'tolerancePeriod',
    'status',
    'splits',
    'createdAt',
    'updatedAt',
    'canceledAt',
  ],
  columns: [
    { field: 'id' },
    { field: 'title' },
    { field: 'amount', kind: 'cents' },
    { field: 'frequency' },
    { field: 'status', kind: 'status' },
    { field: 'splits', kind: 'list' },
    { field: 'createdAt' },
  ],
  kinds: { amount: 'cents', setupAmount: 'cents', status: 'status', splits: 'list' },
};

export const bankAccountView: View = {
  noun: 'bank accounts',
  fields: ['id', 'holderName', 'bankCode', 'routingNumber', 'accountNumber', 'document', 'accountType', 'status', 'createdAt'],
  columns: [
    { field: 'id' },
    { field: 'holderName' },
    { field: 'bankCode' },
    { field: 'routingNumber' },
    { field: 'accountNumber' },
    { field: 'accountType' },
    { field: 'status', kind: 'status' },
  ],
  kinds: { status: 'status' },
};

export const withdrawalView: View = {
  noun: 'withdrawals',
  fields: ['id', 'amount', 'liquidAmount', 'status', 'withdrawalPaymentType', 'bankAccountId', 'pixKeyType', 'pixKey', 'postbackUrl', 'createdAt', 'updatedAt'],
  columns: [
    { field: 'id' },
    { field: 'amount', kind: 'cents' },
    { field: 'liquidAmount', header: 'liquid', kind: 'cents' },
    { field: 'status', kind: 'status' },
    { field: 'withdrawalPaymentType', header: 'method' },
    { field: 'pixKey' },
    { field: 'createdAt' },
  ],
  kinds: { amount: 'cents', liquidAmount: 'cents', status: 'status' },
};

export const balanceView: View = {
  noun: 'balances',
  fields: ['disponiblePixBalance', 'disponibleCardBalance', 'disponibleBilletBalance', 'withdrawalsInProcessingBalance'],
  columns: [
    { field: 'disponiblePixBalance', header: 'pix available', kind: 'reais' },
    { field: 'disponibleCardBalance', header: 'card available', kind: 'reais' },
    { field: 'disponibleBilletBalance', header: 'boleto available', kind: 'reais' },
    { field: 'withdrawalsInProcessingBalance', header: 'in processing', kind: 'reais' },
  ],
  kinds: { disponiblePixBalance: 'reais', disponibleCardBalance: 'reais', disponibleBilletBalance: 'reais', withdrawalsInProcessingBalance: 'reais' },
};

/** A plain message answer, such as the one a delete returns. */
export const messageView: View = { noun: 'messages', fields: ['message', 'id', 'status'], columns: [{ field: 'message' }] };

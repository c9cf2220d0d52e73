/**
 * Deterministic seed data. Every record comes from a PRNG stream named after its
 * company and kind (and, for customers, index), and every timestamp from
 * SEED_EPOCH, so the same seed gives byte-identical data, and changing the
 * customer count leaves the other kinds alone.
 */
import type {
  BankAccount, BrazilianState, Card, Customer, PixKeyType, Split, Subaccount, SubaccountAddress, Subscription, SubscriptionStatus, Withdrawal,
  WithdrawalPaymentType,
} from '../api/types.js';
import { splitAllowanceCents, splitGrossCents, splitLiquidCents } from './fees.js';
import { withdrawalLiquidCents } from '../withdrawal/fees.js';
import { hashString, permute48, Prng, unpermute48 } from './random.js';
import { BRAZILIAN_AREA_CODES, cardBrand, completeCnpj, completeCpf, isoDay, passesLuhn } from '../validation/rules.js';
import {
  companyFromSnapshot, CustomerDirectory, emptyAccount, IndexedList, MAIN_ACCOUNT_KEY,
  type Account, type Company, type CompanySnapshot, type CustomerDirectorySnapshot,
} from './store.js';

export const SEED_EPOCH_MS = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;

export interface SeedConfig {
  seed: number;
  /** customers of acme; globex always has GLOBEX_CUSTOMERS */
  customers: number;
}

export const SEEDED_COMPANIES = [
  { clientId: 'acme', clientSecret: 'acme-sandbox-secret', name: 'Acme Pagamentos Ltda', shortName: 'Acme' },
  { clientId: 'globex', clientSecret: 'globex-sandbox-secret', name: 'Globex Comércio S.A.', shortName: 'Globex' },
] as const;
type CompanySpec = (typeof SEEDED_COMPANIES)[number];

const GLOBEX_CUSTOMERS = 120;
const SUBSCRIPTIONS_PER_COMPANY = { acme: 80, globex: 64 } as const;
/** Only the first customers get cards, so the others need not be generated at start. */
const CUSTOMERS_WITH_CARDS = 160;

const FIRST_NAMES = [
  'Ana', 'Bruno', 'Carla', 'Diego', 'Eduarda', 'Felipe', 'Gabriela', 'Heitor', 'Isabela', 'João',
  'Larissa', 'Marcos', 'Natália', 'Otávio', 'Paula', 'Rafael', 'Sofia', 'Thiago', 'Vitória', 'Wagner',
];
const LAST_NAMES = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes',
  'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa',
];
const STREETS = [
  'Rua das Flores', 'Avenida Paulista', 'Rua XV de Novembro', 'Avenida Brasil', 'Rua da Consolação',
  'Rua Augusta', 'Avenida Atlântica', 'Rua Sete de Setembro', 'Avenida Afonso Pena', 'Rua Oscar Freire',
];
const NEIGHBORHOODS = ['Centro', 'Jardins', 'Copacabana', 'Savassi', 'Boa Viagem', 'Moinhos de Vento', 'Batel', 'Pituba', 'Meireles', 'Asa Sul'];
const CITIES: ReadonlyArray<[string, BrazilianState]> = [
  ['São Paulo', 'SP'], ['Rio de Janeiro', 'RJ'], ['Belo Horizonte', 'MG'], ['Recife', 'PE'], ['Porto Alegre', 'RS'],
  ['Curitiba', 'PR'], ['Salvador', 'BA'], ['Fortaleza', 'CE'], ['Brasília', 'DF'], ['Florianópolis', 'SC'],
];
const COMPLEMENTS = ['', 'Apto 12', 'Apto 301', 'Casa 2', 'Sala 804', 'Bloco B'];
const REFERENCES = ['', 'Próximo ao mercado', 'Em frente à praça', 'Ao lado da farmácia'];
const PLAN_NAMES = [
  'Plano Básico', 'Plano Pro', 'Plano Premium', 'Clube do Café', 'Academia Fit',
  'Streaming Família', 'Revista Digital', 'Cesta Orgânica', 'Curso de Inglês', 'Seguro Celular',
];
const FREQUENCIES: ReadonlyArray<[number, string]> = [[7, 'Semanal'], [15, 'Quinzenal'], [30, 'Mensal'], [30, 'Mensal'], [90, 'Trimestral'], [365, 'Anual']];
const PLAN_AMOUNTS = [990, 1990, 2990, 4990, 9990, 14990, 29990];
const CARD_PREFIXES = ['4', '4', '51', '53', '55', '2221', '6362', '34', '606282'];
const BANK_CODES = ['001', '033', '104', '237', '260', '341', '077', '336'];
const SUBSCRIPTION_STATUS_CYCLE: readonly SubscriptionStatus[] = ['ACTIVE', 'ACTIVE', 'ACTIVE', 'ACTIVE', 'ACTIVE', 'SUSPENDED', 'EXPIRED', 'DELETED'];
const SETTLED_POSTBACK_URL = 'https://hooks.example.com/payctl/withdrawals';

const at = (offsetMs: number) => new Date(SEED_EPOCH_MS + offsetMs).toISOString();
const asciiLower = (text: string) => text.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
/** e-mail spelling of each name, computed once rather than per customer */
const EMAIL_NAMES = new Map([...FIRST_NAMES, ...LAST_NAMES].map((name) => [name, asciiLower(name)]));
const pad2 = (value: number) => (value < 10 ? `0${value}` : String(value));
const randomBirthdate = (prng: Prng, fromYear: number, toYear: number) => `${prng.int(fromYear, toYear)}-${pad2(prng.int(1, 12))}-${pad2(prng.int(1, 28))}`;

function fakeCardNumber(prng: Prng): string {
  const prefix = prng.pick(CARD_PREFIXES);
  const length = prefix === '34' ? 15 : 16;
  const body = prefix + prng.digits(length - prefix.length - 1);
  for (let check = 0; check <= 9; check++) if (passesLuhn(body + check)) return body + check;
  throw new Error('unreachable: one check digit always passes Luhn');
}

const CUSTOMER_STREAM = (clientId: string) => `${clientId}/customers`;
/** Stream of seeded customer `index`: each customer has its own, so any one can be generated alone. */
const customerPrng = (seed: number, clientId: string, index: number) => new Prng(seed, CUSTOMER_STREAM(clientId), index);
const customerIdKey = (seed: number, clientId: string) => hashString(CUSTOMER_STREAM(clientId)) ^ seed;

/**
 * The id of seeded customer `index`: random-looking, from its stream, except the
 * last 12 hex digits, which are the index permuted. So an id leads back to its
 * index without a 100,000-entry map (see seededCustomerIndex).
 */
function seededCustomerId(seed: number, clientId: string, index: number): string {
  const tail = permute48(index, customerIdKey(seed, clientId)).toString(16).padStart(12, '0');
  return customerPrng(seed, clientId, index).uuid().slice(0, 24) + tail;
}

/** The index of the seeded customer with this id, or undefined when the id is not one. */
function seededCustomerIndex(seed: number, clientId: string, count: number, id: string): number | undefined {
  const tail = id.slice(24);
  if (!/^[0-9a-f]{12}$/.test(tail)) return undefined;
  const index = unpermute48(parseInt(tail, 16), customerIdKey(seed, clientId));
  return index < count && seededCustomerId(seed, clientId, index) === id ? index : undefined;
}

/** Seeded customer `index`, generated on demand (see CustomerDirectory). */
function seededCustomer(seed: number, clientId: string, index: number): Customer {
  const prng = customerPrng(seed, clientId, index);
  prng.uuid(); // the id's draw, replaced by seededCustomerId
  const id = seededCustomerId(seed, clientId, index);
  const firstName = prng.pick(FIRST_NAMES);
  const lastName = prng.pick(LAST_NAMES);
  const [city, state] = prng.pick(CITIES);
  const isCompany = index % 15 === 14;
  return {
    id,
    firstName,
    lastName,
    email: `${EMAIL_NAMES.get(firstName)}.${EMAIL_NAMES.get(lastName)}.${index + 1}@example.com`,
    phoneNumber: `+55${prng.pick(BRAZILIAN_AREA_CODES)}9${prng.digits(8)}`,
    document: isCompany ? completeCnpj(prng.digits(8) + '0001') : completeCpf(prng.digits(9)),
    birthdate: randomBirthdate(prng, 1950, 2004),
    // every tenth customer has no address yet (the field is absent): its first address must be complete
    ...(index % 10 === 9
      ? {}
      : {
          address: {
            statusId: 'APPROVED',
            zipcode: prng.int(1_000_000, 99_999_999),
            street: prng.pick(STREETS),
            streetNumber: prng.int(1, 3000),
            complement: prng.pick(COMPLEMENTS),
            reference: prng.pick(REFERENCES),
            neighborhood: prng.pick(NEIGHBORHOODS),
            city,
            state,
          },
        }),
    statusId: 'APPROVED',
    createdAt: at(index * 300_000 + prng.int(0, 299_000)),
  };
}

/** The customers of a seeded company: `count` seeded ones (generated when first read) plus `saved` state. */
function customerDirectory(config: SeedConfig, clientId: string, count: number, saved?: CustomerDirectorySnapshot): CustomerDirectory {
  return new CustomerDirectory(
    count,
    (id) => seededCustomerIndex(config.seed, clientId, count, id),
    (index) => seededCustomer(config.seed, clientId, index),
    saved,
  );
}

const seededCustomerCount = (config: SeedConfig, clientId: string) => (clientId === 'acme' ? config.customers : GLOBEX_CUSTOMERS);

function seedCards(prng: Prng, customers: CustomerDirectory): Card[] {
  const cards: Card[] = [];
  const holders = customers.page(1, CUSTOMERS_WITH_CARDS);
  holders.forEach((customer, i) => {
    const count = i % 4 === 0 ? 2 : 1;
    for (let n = 0; n < count; n++) {
      const number = fakeCardNumber(prng);
      const verified = prng.chance(0.8);
      cards.push({
        id: prng.uuid(),
        customerId: customer.id,
        holderName: `${customer.firstName} ${customer.lastName}`.toUpperCase(),
        first4Digits: number.slice(0, 4),
        last4Digits: number.slice(-4),
        expirationMonth: String(prng.int(1, 12)).padStart(2, '0'),
        expirationYear: String(prng.int(2027, 2033)),
        cardBrand: cardBrand(number),
        isActive: prng.chance(0.95),
        isVerified: verified,
        postalCodeCheck: verified,
        securityCodeCheck: verified,
        addressCheck: verified && prng.chance(0.7),
        createdAt: new Date(Date.parse(customer.createdAt) + (n + 1) * 3_600_000).toISOString(),
      });
    }
  });
  return cards;
}

function seedBankAccount(prng: Prng, id: number, holderName: string, document: string, createdAtMs: number): BankAccount {
  return {
    id,
    holderName,
    bankCode: prng.pick(BANK_CODES),
    routingNumber: prng.digits(4),
    accountNumber: `${prng.digits(prng.int(5, 8))}-${prng.digits(1)}`,
    document,
    accountType: prng.chance(0.8) ? 'CHECKING' : 'SAVINGS',
    status: 'APPROVED',
    createdAt: at(createdAtMs),
  };
}

function subaccountAddress(prng: Prng, addressType: SubaccountAddress['addressType']): SubaccountAddress {
  const [city, state] = prng.pick(CITIES);
  return {
    addressType,
    zipcode: prng.int(1_000_000, 99_999_999),
    street: prng.pick(STREETS),
    streetNumber: prng.int(1, 3000),
    neighborhood: prng.pick(NEIGHBORHOODS),
    city,
    state,
    complement: prng.pick(COMPLEMENTS),
    reference: prng.pick(REFERENCES),
  };
}

/** Three sub-accounts: an APPROVED PF, an APPROVED PJ and a PENDING PF. */
function seedSubaccounts(prng: Prng, spec: CompanySpec): Subaccount[] {
  const kinds = [
    { name: `${spec.shortName} Loja Norte`, legal: false, status: 'APPROVED' },
    { name: `${spec.shortName} Serviços Digitais Ltda`, legal: true, status: 'APPROVED' },
    { name: `${spec.shortName} Loja Sul`, legal: false, status: 'PENDING' },
  ] as const;
  return kinds.map((kind, i) => {
    const firstName = prng.pick(FIRST_NAMES);
    const lastName = prng.pick(LAST_NAMES);
    const cpf = completeCpf(prng.digits(9));
    const cnpj = completeCnpj(prng.digits(8) + '0001');
    const phone = `+55${prng.pick(BRAZILIAN_AREA_CODES)}9${prng.digits(8)}`;
    const subaccount: Subaccount = {
      id: prng.uuid(),
      name: kind.name,
      juridicDataPartner: {
        name: firstName,
        lastName,
        cpf,
        email: `${EMAIL_NAMES.get(firstName)}.${EMAIL_NAMES.get(lastName)}@${spec.clientId}.example.com`,
        birthdate: randomBirthdate(prng, 1960, 1995),
        contactPhone: phone,
        monthRevenue: prng.int(5, 80) * 1000,
        jobOccupation: 'Empresário',
        fullnameMom: `${prng.pick(FIRST_NAMES)} ${prng.pick(LAST_NAMES)} ${lastName}`,
      },
      addresses: [subaccountAddress(prng, kind.legal ? 'COMMERCIAL' : 'RESPONSIBLE')],
      accountBank: {
        holderName: kind.legal ? kind.name : `${firstName} ${lastName}`,
        bankCode: prng.pick(BANK_CODES),
        accountType: 'CHECKING',
        accountNumber: `${prng.digits(7)}-${prng.digits(1)}`,
        routingNumber: prng.digits(4),
        document: kind.legal ? cnpj : cpf,
      },
      status: kind.status,
      createdAt: at((i + 1) * 7 * DAY_MS),
    };
    if (kind.legal) {
      subaccount.juridicLegalData = {
        cnpj,
        contactPhone: phone,
        fantasyName: kind.name.replace(/ Ltda$/, ''),
        socialReason: kind.name,
        avgAnualBilling: prng.int(100, 5000) * 1000 + 0.5,
        searchingServices: 'Assinaturas e split de pagamentos',
        socialMedia: `@${spec.clientId}digital`,
      };
    }
    return subaccount;
  });
}

function pixKeyFor(prng: Prng, type: PixKeyType, spec: CompanySpec): string {
  switch (type) {
    case 'DOCUMENT_CPF':
      return completeCpf(prng.digits(9));
    case 'DOCUMENT_CNPJ':
      return completeCnpj(prng.digits(8) + '0001');
    case 'EMAIL':
      return `financeiro@${spec.clientId}.example.com`;
    case 'PHONE':
      return `+55${prng.pick(BRAZILIAN_AREA_CODES)}9${prng.digits(8)}`;
    case 'RANDOM':
      return prng.uuid();
  }
}

/**
 * Withdrawals of an account, oldest first; the first `pendingCount` newest ones are
 * PENDING and their amounts are in the processing balance, as if requested by the API.
 */
function seedWithdrawals(prng: Prng, spec: CompanySpec, account: Account, count: number, pendingCount: number, startMs: number): void {
  const bankAccounts = account.bankAccounts.all();
  const PAYMENT_TYPES: readonly WithdrawalPaymentType[] = ['PIX', 'PIX', 'PIX', 'CARD', 'BOLETO'];
  const PIX_TYPES: readonly PixKeyType[] = ['DOCUMENT_CPF', 'DOCUMENT_CNPJ', 'EMAIL', 'PHONE', 'RANDOM'];
  for (let i = 0; i < count; i++) {
    const paymentType = prng.pick(PAYMENT_TYPES);
    const amount = prng.int(10, 1500) * 100;
    const pending = i >= count - pendingCount;
    const status = pending ? 'PENDING' : prng.chance(0.8) ? 'COMPLETED' : 'FAILED';
    const pixKeyType = paymentType === 'PIX' ? prng.pick(PIX_TYPES) : undefined;
    const createdMs = startMs + i * 2 * DAY_MS + prng.int(0, DAY_MS);
    const withdrawal: Withdrawal = {
      id: prng.uuid(),
      amount,
      liquidAmount: withdrawalLiquidCents(paymentType, amount),
      status,
      withdrawalPaymentType: paymentType,
      ...(pixKeyType && { pixKeyType, pixKey: pixKeyFor(prng, pixKeyType, spec) }),
      bankAccountId: prng.pick(bankAccounts).id,
      // settled seed withdrawals show an address; pending ones have none, so settling them posts nowhere
      ...(!pending && { postbackUrl: SETTLED_POSTBACK_URL }),
      createdAt: at(createdMs),
      updatedAt: at(createdMs + (pending ? 0 : prng.int(60_000, DAY_MS))),
    };
    account.withdrawals.add(withdrawal);
    if (pending) account.balance.processing += amount;
  }
}

function seedSplits(prng: Prng, index: number, amount: number, receivers: readonly Subaccount[]): Split[] {
  const splits: Split[] = [];
  const [first, second] = receivers;
  const addSplit = (split: Omit<Split, 'id' | 'liquidAmount'>) =>
    splits.push({ id: prng.uuid(), ...split, liquidAmount: splitLiquidCents(splitGrossCents(split, amount)) });
  // at most 20% of the allowance plus 30% of the amount: always within the allowance for these plan amounts
  if (index % 3 === 0 && first) {
    const splitAmount = Math.max(1, Math.floor(splitAllowanceCents(amount) * prng.int(5, 20) / 100));
    addSplit({ subaccountId: first.id, splitType: 'AMOUNT', splitAmount, splitPercentage: null, chargebackLiable: prng.chance(0.5) });
  }
  if (index % 4 === 1 && second) {
    const splitPercentage = prng.pick([5, 10, 12.5, 15, 20.25, 30]);
    addSplit({ subaccountId: second.id, splitType: 'PERCENTAGE', splitAmount: null, splitPercentage, chargebackLiable: prng.chance(0.5) });
  }
  return splits;
}

function seedSubscriptions(prng: Prng, count: number, cards: readonly Card[], receivers: readonly Subaccount[]): Subscription[] {
  const subscriptions: Subscription[] = [];
  for (let i = 0; i < count; i++) {
    const card = cards[(i * 7) % cards.length];
    const status = SUBSCRIPTION_STATUS_CYCLE[i % SUBSCRIPTION_STATUS_CYCLE.length];
    if (!card || !status) throw new Error('subscriptions need at least one card and one status to cycle through');
    const [frequency, frequencyName] = prng.pick(FREQUENCIES);
    const amount = prng.pick(PLAN_AMOUNTS);
    const duration = prng.chance(0.4) ? prng.int(3, 24) : undefined;
    const createdMs = i * 4 * DAY_MS + prng.int(0, DAY_MS);
    const canceledMs = status === 'DELETED' ? createdMs + 30 * DAY_MS : null;
    const expirationMs = status === 'EXPIRED' ? createdMs + 120 * DAY_MS : duration !== undefined ? createdMs + duration * frequency * DAY_MS : undefined;
    subscriptions.push({
      id: prng.uuid(),
      customerId: card.customerId,
      tokenizedCardId: card.id,
      title: `${prng.pick(PLAN_NAMES)} ${frequencyName}`,
      amount,
      setupAmount: prng.chance(0.3) ? prng.pick([990, 1990, 4990]) : 0,
      frequency,
      ...(duration !== undefined && { duration }),
      dueDate: isoDay(new Date(SEED_EPOCH_MS + createdMs + frequency * DAY_MS)),
      ...(expirationMs !== undefined && { expirationDate: isoDay(new Date(SEED_EPOCH_MS + expirationMs)) }),
      tolerancePeriod: prng.pick([0, 3, 5, 7]),
      status,
      splits: seedSplits(prng, i, amount, receivers),
      createdAt: at(createdMs),
      updatedAt: at(canceledMs ?? createdMs + prng.int(0, 10) * DAY_MS),
      canceledAt: canceledMs === null ? null : at(canceledMs),
    });
  }
  return subscriptions;
}

/** The seeded state of the company `spec`, at `companyIndex` of SEEDED_COMPANIES. */
function seedCompany(config: SeedConfig, spec: CompanySpec, companyIndex: number): Company {
  const stream = (kind: string) => new Prng(config.seed, `${spec.clientId}/${kind}`);
  const idPrng = stream('company');
  const companyId = idPrng.uuid();

  const customers = customerDirectory(config, spec.clientId, seededCustomerCount(config, spec.clientId));
  const cards = seedCards(stream('cards'), customers);
  const subaccounts = seedSubaccounts(stream('subaccounts'), spec);
  const approved = subaccounts.filter((subaccount) => subaccount.status === 'APPROVED');
  const subscriptions = seedSubscriptions(stream('subscriptions'), SUBSCRIPTIONS_PER_COMPANY[spec.clientId], cards, approved);

  // Bank account ids of company n are 1000 * (n + 1) + k: stable and disjoint between companies.
  const bankPrng = stream('bank-accounts');
  let nextBankAccountId = 1000 * (companyIndex + 1) + 1;
  const companyDocument = completeCnpj(bankPrng.digits(8) + '0001');
  const account = emptyAccount(MAIN_ACCOUNT_KEY, { pix: 2_500_000 + bankPrng.int(0, 99) * 100, card: 1_200_000, billet: 800_000, processing: 0 });
  for (let k = 0; k < 3; k++) account.bankAccounts.add(seedBankAccount(bankPrng, nextBankAccountId++, spec.name, companyDocument, k * DAY_MS));

  const subaccountAccounts = new Map<string, Account>();
  const approvedAccounts: Account[] = [];
  for (const subaccount of subaccounts) {
    const isApproved = subaccount.status === 'APPROVED';
    const subaccountAccount = emptyAccount(subaccount.id, isApproved ? { pix: 300_000, card: 150_000, billet: 50_000, processing: 0 } : undefined);
    const { holderName, document } = subaccount.accountBank;
    const createdMs = Date.parse(subaccount.createdAt) - SEED_EPOCH_MS;
    subaccountAccount.bankAccounts.add({
      ...seedBankAccount(bankPrng, nextBankAccountId++, holderName, document, createdMs),
      ...subaccount.accountBank,
      status: 'APPROVED',
    });
    subaccountAccount.bankAccounts.add(seedBankAccount(bankPrng, nextBankAccountId++, holderName, document, createdMs + DAY_MS));
    subaccountAccounts.set(subaccount.id, subaccountAccount);
    if (isApproved) approvedAccounts.push(subaccountAccount);
  }

  const withdrawalPrng = stream('withdrawals');
  seedWithdrawals(withdrawalPrng, spec, account, 12, 3, 30 * DAY_MS);
  for (const approvedAccount of approvedAccounts) seedWithdrawals(withdrawalPrng, spec, approvedAccount, 4, 1, 60 * DAY_MS);

  return {
    id: companyId,
    clientId: spec.clientId,
    clientSecret: spec.clientSecret,
    name: spec.name,
    account,
    subaccounts: new IndexedList(subaccounts),
    subaccountAccounts,
    customers,
    cards: new IndexedList(cards),
    subscriptions: new IndexedList(subscriptions),
  };
}

/** The seeded state of a seeded company (POST /sandbox/reset). */
export function reseedCompany(config: SeedConfig, company: Company): Company {
  const companyIndex = SEEDED_COMPANIES.findIndex((spec) => spec.clientId === company.clientId);
  const spec = SEEDED_COMPANIES[companyIndex];
  if (!spec) throw new Error(`${company.clientId} is not a seeded company`);
  return seedCompany(config, spec, companyIndex);
}

export const seedCompanies = (config: SeedConfig): Company[] => SEEDED_COMPANIES.map((spec, index) => seedCompany(config, spec, index));

/** A company from a data file: its customers are regenerated from the seed, with the saved ones on top. */
export const restoreCompany = (config: SeedConfig, snapshot: CompanySnapshot): Company =>
  companyFromSnapshot(snapshot, customerDirectory(config, snapshot.clientId, seededCustomerCount(config, snapshot.clientId), snapshot.customers));

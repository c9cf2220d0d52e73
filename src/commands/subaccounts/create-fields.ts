import { ADDRESS_TYPES, BANK_ACCOUNT_TYPES } from '../../api/types.js';
import type { BodyField } from '../shared/body-fields.js';

const PARTNER = [
  { path: 'juridicDataPartner.name', key: 'partnerName', label: 'Partner first name', kind: 'text', max: 60, required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.lastName', key: 'partnerLastName', label: 'Partner last name', kind: 'text', max: 60, required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.cpf', key: 'partnerCpf', label: 'Partner CPF', kind: 'cpf', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.email', key: 'partnerEmail', label: 'Partner e-mail', kind: 'email', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.birthdate', key: 'partnerBirthdate', label: 'Partner birthdate (YYYY-MM-DD)', kind: 'birthdate', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.contactPhone', key: 'partnerContactPhone', label: 'Partner phone', kind: 'phone', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.monthRevenue', key: 'partnerMonthRevenue', label: 'Monthly revenue in reais', kind: 'reais', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.jobOccupation', key: 'partnerJobOccupation', label: 'Partner occupation', kind: 'text', max: 80, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.fullnameMom', key: 'partnerFullnameMom', label: "Partner's mother's full name", kind: 'text', max: 120, section: 'Partner (person responsible)' },
] as const satisfies readonly BodyField[];

const LEGAL = [
  { path: 'juridicLegalData.cnpj', key: 'legalCnpj', label: 'Company CNPJ', kind: 'cnpj', required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.contactPhone', key: 'legalContactPhone', label: 'Company phone', kind: 'phone', required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.fantasyName', key: 'legalFantasyName', label: 'Trade name (nome fantasia)', kind: 'text', max: 120, required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.socialReason', key: 'legalSocialReason', label: 'Legal name (razão social)', kind: 'text', max: 120, required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.avgAnualBilling', key: 'legalAvgAnualBilling', label: 'Average annual billing in reais', kind: 'reais', required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.searchingServices', key: 'legalSearchingServices', label: 'Services sought', kind: 'text', max: 200, section: 'Legal data (company)' },
  { path: 'juridicLegalData.socialMedia', key: 'legalSocialMedia', label: 'Social media', kind: 'text', max: 200, section: 'Legal data (company)' },
] as const satisfies readonly BodyField[];

const address = (addressType: string) =>
  [
    { path: 'addresses.0.addressType', key: 'addressType', label: 'Address type', kind: 'choice', choices: ADDRESS_TYPES, default: addressType, section: 'Address' },
    { path: 'addresses.0.zipcode', key: 'addressZipcode', label: 'CEP', kind: 'cep', required: true, section: 'Address' },
    { path: 'addresses.0.street', key: 'addressStreet', label: 'Street', kind: 'text', max: 120, required: true, section: 'Address' },
    { path: 'addresses.0.streetNumber', key: 'addressStreetNumber', label: 'Number', kind: 'streetNumber', required: true, section: 'Address' },
    { path: 'addresses.0.neighborhood', key: 'addressNeighborhood', label: 'Neighbourhood (bairro)', kind: 'text', max: 80, required: true, section: 'Address' },
    { path: 'addresses.0.city', key: 'addressCity', label: 'City', kind: 'text', max: 80, required: true, section: 'Address' },
    { path: 'addresses.0.state', key: 'addressState', label: 'State (UF)', kind: 'uf', required: true, section: 'Address' },
    { path: 'addresses.0.complement', key: 'addressComplement', label: 'Complement', kind: 'textOrEmpty', max: 120, section: 'Address' },
    { path: 'addresses.0.reference', key: 'addressReference', label: 'Reference', kind: 'textOrEmpty', max: 120, section: 'Address' },
  ] as const satisfies readonly BodyField[];

const BANK = [
  { path: 'accountBank.holderName', key: 'bankHolderName', label: 'Account holder name', kind: 'text', max: 120, required: true, section: 'Bank account' },
  { path: 'accountBank.document', key: 'bankDocument', label: "Holder's CPF or CNPJ", kind: 'document', required: true, section: 'Bank account' },
  { path: 'accountBank.bankCode', key: 'bankCode', label: 'Bank code (3 digits)', kind: 'bankCode', required: true, section: 'Bank account' },
  { path: 'accountBank.routingNumber', key: 'bankRoutingNumber', label: 'Branch (agência)', kind: 'routingNumber', required: true, section: 'Bank account' },
  { path: 'accountBank.accountNumber', key: 'bankAccountNumber', label: 'Account number', kind: 'accountNumber', required: true, section: 'Bank account' },
  { path: 'accountBank.accountType', key: 'bankAccountType', label: 'Account type', kind: 'choice', choices: BANK_ACCOUNT_TYPES, required: true, section: 'Bank account' },
] as const satisfies readonly BodyField[];

const NAME = { path: 'name', key: 'name', label: 'Sub-account name', kind: 'text', max: 120, required: true, section: 'Sub-account' } as const satisfies BodyField;

/** Every body field of `subaccounts create pf`, in the order the wizard asks them. */
export const PF_FIELDS = [NAME, ...PARTNER, ...address('RESPONSIBLE'), ...BANK] as const;
/** Every body field of `subaccounts create pj`, in the order the wizard asks them. */
export const PJ_FIELDS = [NAME, ...PARTNER, ...LEGAL, ...address('COMMERCIAL'), ...BANK] as const;

import { ADDRESS_TYPES, BANK_ACCOUNT_TYPES } from '../../api/types.js';
import type { SubaccountKind } from '../../api/subaccounts.js';
import type { BodyField } from '../shared/body-fields.js';

const PARTNER: BodyField[] = [
  { path: 'juridicDataPartner.name', flag: '--partner-name', label: 'Partner first name', kind: 'text', max: 60, required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.lastName', flag: '--partner-last-name', label: 'Partner last name', kind: 'text', max: 60, required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.cpf', flag: '--partner-cpf', label: 'Partner CPF', kind: 'cpf', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.email', flag: '--partner-email', label: 'Partner e-mail', kind: 'email', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.birthdate', flag: '--partner-birthdate', label: 'Partner birthdate (YYYY-MM-DD)', kind: 'birthdate', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.contactPhone', flag: '--partner-contact-phone', label: 'Partner phone', kind: 'phone', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.monthRevenue', flag: '--partner-month-revenue', label: 'Monthly revenue in reais', kind: 'reais', required: true, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.jobOccupation', flag: '--partner-job-occupation', label: 'Partner occupation', kind: 'text', max: 80, section: 'Partner (person responsible)' },
  { path: 'juridicDataPartner.fullnameMom', flag: '--partner-fullname-mom', label: "Partner's mother's full name", kind: 'text', max: 120, section: 'Partner (person responsible)' },
];

const LEGAL: BodyField[] = [
  { path: 'juridicLegalData.cnpj', flag: '--legal-cnpj', label: 'Company CNPJ', kind: 'cnpj', required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.contactPhone', flag: '--legal-contact-phone', label: 'Company phone', kind: 'phone', required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.fantasyName', flag: '--legal-fantasy-name', label: 'Trade name (nome fantasia)', kind: 'text', max: 120, required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.socialReason', flag: '--legal-social-reason', label: 'Legal name (razão social)', kind: 'text', max: 120, required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.avgAnualBilling', flag: '--legal-avg-anual-billing', label: 'Average annual billing in reais', kind: 'reais', required: true, section: 'Legal data (company)' },
  { path: 'juridicLegalData.searchingServices', flag: '--legal-searching-services', label: 'Services sought', kind: 'text', max: 200, section: 'Legal data (company)' },
  { path: 'juridicLegalData.socialMedia', flag: '--legal-social-media', label: 'Social media', kind: 'text', max: 200, section: 'Legal data (company)' },
];

const address = (addressType: string): BodyField[] => [
  { path: 'addresses.0.addressType', flag: '--address-type', label: 'Address type', kind: 'choice', choices: ADDRESS_TYPES, default: addressType, section: 'Address' },
  { path: 'addresses.0.zipcode', flag: '--address-zipcode', label: 'CEP', kind: 'cep', required: true, section: 'Address' },
  { path: 'addresses.0.street', flag: '--address-street', label: 'Street', kind: 'text', max: 120, required: true, section: 'Address' },
  { path: 'addresses.0.streetNumber', flag: '--address-street-number', label: 'Number', kind: 'streetNumber', required: true, section: 'Address' },
  { path: 'addresses.0.neighborhood', flag: '--address-neighborhood', label: 'Neighbourhood (bairro)', kind: 'text', max: 80, required: true, section: 'Address' },
  { path: 'addresses.0.city', flag: '--address-city', label: 'City', kind: 'text', max: 80, required: true, section: 'Address' },
  { path: 'addresses.0.state', flag: '--address-state', label: 'State (UF)', kind: 'uf', required: true, section: 'Address' },
  { path: 'addresses.0.complement', flag: '--address-complement', label: 'Complement', kind: 'text', max: 120, section: 'Address' },
  { path: 'addresses.0.reference', flag: '--address-reference', label: 'Reference', kind: 'text', max: 120, section: 'Address' },
];

const BANK: BodyField[] = [
  { path: 'accountBank.holderName', flag: '--bank-holder-name', label: 'Account holder name', kind: 'text', max: 120, required: true, section: 'Bank account' },
  { path: 'accountBank.document', flag: '--bank-document', label: "Holder's CPF or CNPJ", kind: 'document', required: true, section: 'Bank account' },
  { path: 'accountBank.bankCode', flag: '--bank-code', label: 'Bank code (3 digits)', kind: 'bankCode', required: true, section: 'Bank account' },
  { path: 'accountBank.routingNumber', flag: '--bank-routing-number', label: 'Branch (agência)', kind: 'routingNumber', required: true, section: 'Bank account' },
  { path: 'accountBank.accountNumber', flag: '--bank-account-number', label: 'Account number', kind: 'accountNumber', required: true, section: 'Bank account' },
  { path: 'accountBank.accountType', flag: '--bank-account-type', label: 'Account type', kind: 'choice', choices: BANK_ACCOUNT_TYPES, required: true, section: 'Bank account' },
];

const NAME: BodyField = { path: 'name', flag: '--name', label: 'Sub-account name', kind: 'text', max: 120, required: true, section: 'Sub-account' };

/** Every body field of `subaccounts create pf|pj`, in the order the wizard asks them. */
export function subaccountFields(kind: SubaccountKind): BodyField[] {
  return kind === 'pf'
    ? [NAME, ...PARTNER, ...address('RESPONSIBLE'), ...BANK]
    : [NAME, ...PARTNER, ...LEGAL, ...address('COMMERCIAL'), ...BANK];
}

import { randomUUID } from 'node:crypto';
import type { BankAccount, CreateSubaccountPfRequest, CreateSubaccountPjRequest, Subaccount } from '../../api/types.js';
import { findOrFail, pagedReply, single, type CompanyRequest, type Reply } from '../context.js';
import { ApiError } from '../errors.js';
import { isPlausibleBirthdate, isValidCnpj, isValidCpf, isValidCpfOrCnpj } from '../../validation/rules.js';
import { emptyAccount } from '../store.js';

export const findSubaccount = ({ company }: CompanyRequest, id: unknown) => findOrFail(company.subaccounts, id, 'subaccountNotFound', 'sub-account');

/** Document and date rules of a sub-account body, beyond its schema. */
function checkSubaccountRules(body: CreateSubaccountPfRequest | CreateSubaccountPjRequest, now: Date): void {
  const fail = (message: string) => {
    throw new ApiError('validation', message);
  };
  if (!isValidCpf(body.juridicDataPartner.cpf)) fail('juridicDataPartner.cpf must be a valid CPF');
  if (!isPlausibleBirthdate(body.juridicDataPartner.birthdate, now)) fail('juridicDataPartner.birthdate must be a real date between 1900-01-01 and today');
  if ('juridicLegalData' in body && !isValidCnpj(body.juridicLegalData.cnpj)) fail('juridicLegalData.cnpj must be a valid CNPJ');
  if (!isValidCpfOrCnpj(body.accountBank.document)) fail('accountBank.document must be a valid CPF or CNPJ');
}

/**
 * A new PENDING sub-account with an empty account; its accountBank also becomes
 * the first bank account of that account, so it can receive withdrawals once funded.
 */
function createSubaccount({ company, body, now, services, changes }: CompanyRequest): Reply {
  const request = body as CreateSubaccountPfRequest | CreateSubaccountPjRequest;
  checkSubaccountRules(request, now);
  const subaccount: Subaccount = { id: randomUUID(), ...request, status: 'PENDING', createdAt: now.toISOString() };
  const account = emptyAccount(subaccount.id);
  const bankAccount: BankAccount = { id: services.store.allocateBankAccountId(), ...request.accountBank, status: 'APPROVED', createdAt: subaccount.createdAt };
  account.bankAccounts.add(bankAccount);
  company.subaccounts.add(subaccount);
  company.subaccountAccounts.set(subaccount.id, account);
  changes.subaccount(subaccount);
  changes.bankAccount(account, bankAccount);
  return single(subaccount, 'Sub-account created');
}

export const createSubaccountPf = createSubaccount;
export const createSubaccountPj = createSubaccount;

export const sandboxListSubaccounts = ({ company, query }: CompanyRequest): Reply => pagedReply(company.subaccounts, query, 'Sub-accounts listed');

/** Idempotent: approving an APPROVED sub-account answers it unchanged. */
export function sandboxApproveSubaccount(request: CompanyRequest): Reply {
  const subaccount = findSubaccount(request, request.params.subaccountId);
  if (subaccount.status !== 'APPROVED') {
    subaccount.status = 'APPROVED';
    request.changes.subaccount(subaccount);
  }
  return single(subaccount, 'Sub-account approved');
}

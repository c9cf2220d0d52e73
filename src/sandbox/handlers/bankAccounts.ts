import type { BankAccount, CreateBankAccountRequest } from '../../api/types.js';
import { findOrFail, pagedReply, single, type CompanyRequest, type Reply } from '../context.js';
import { ApiError } from '../errors.js';
import { isValidCpfOrCnpj } from '../../validation/rules.js';

/** A bank account of the context's account (main or sub-account); any other is -7100. */
export const findBankAccount = ({ account }: CompanyRequest, id: unknown) => findOrFail(account.bankAccounts, id, 'bankAccountNotFound', 'bank account');

export const listBankAccounts = ({ account, query }: CompanyRequest): Reply => pagedReply(account.bankAccounts, query, 'Bank accounts listed');

export const getBankAccount = (request: CompanyRequest): Reply => single(findBankAccount(request, request.params.bankAccountId), 'Bank account found');

/** Refused while a PENDING withdrawal still goes to the account. */
export function deleteBankAccount(request: CompanyRequest): Reply {
  const bankAccount = findBankAccount(request, request.params.bankAccountId);
  const inUse = request.account.withdrawals.all().some((withdrawal) => withdrawal.status === 'PENDING' && withdrawal.bankAccountId === bankAccount.id);
  if (inUse) throw new ApiError('bankAccountInUse', `bank account ${bankAccount.id} has PENDING withdrawals`);
  request.account.bankAccounts.remove(bankAccount.id);
  request.changes.bankAccountRemoved(request.account, bankAccount.id);
  return single({ message: 'Bank account deleted' }, 'Bank account deleted');
}

export function sandboxCreateBankAccount({ account, body, now, services, changes }: CompanyRequest): Reply {
  const request = body as CreateBankAccountRequest;
  if (!isValidCpfOrCnpj(request.document)) throw new ApiError('validation', 'document must be a valid CPF or CNPJ');
  const bankAccount: BankAccount = { id: services.store.allocateBankAccountId(), ...request, status: 'APPROVED', createdAt: now.toISOString() };
  account.bankAccounts.add(bankAccount);
  changes.bankAccount(account, bankAccount);
  return single(bankAccount, 'Bank account created');
}

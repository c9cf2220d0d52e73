/** operationId of the OpenAPI document → handler. The server refuses to start if the two disagree. */
import type { CompanyRequest, PublicRequest, Reply } from '../context.js';
import { auth } from './auth.js';
import { deleteBankAccount, getBankAccount, listBankAccounts, sandboxCreateBankAccount } from './bankAccounts.js';
import { getCard, tokenizeCard } from './cards.js';
import { getCustomer, listCustomers, sandboxCreateCustomer, updateCustomer } from './customers.js';
import { sandboxReset } from './reset.js';
import { createSubaccountPf, createSubaccountPj, sandboxApproveSubaccount, sandboxListSubaccounts } from './subaccounts.js';
import {
  addSplit,
  cancelSubscription,
  getSubscription,
  listSubscriptions,
  removeSplit,
  sandboxCreateSubscription,
  updateSubscription,
} from './subscriptions.js';
import { getBalance, getWithdrawal, listWithdrawals, sandboxCreditBalance, sandboxSettleWithdrawal, withdraw } from './withdrawals.js';

/** Operations without a bearer token (`security: []`). */
export const publicHandlers: Record<string, (request: PublicRequest) => Reply> = { auth };

export const companyHandlers: Record<string, (request: CompanyRequest) => Reply> = {
  tokenizeCard,
  getCard,
  createSubaccountPf,
  createSubaccountPj,
  listCustomers,
  getCustomer,
  updateCustomer,
  listSubscriptions,
  getSubscription,
  updateSubscription,
  cancelSubscription,
  addSplit,
  removeSplit,
  listBankAccounts,
  getBankAccount,
  deleteBankAccount,
  withdraw,
  listWithdrawals,
  getWithdrawal,
  getBalance,
  sandboxListSubaccounts,
  sandboxApproveSubaccount,
  sandboxSettleWithdrawal,
  sandboxCreditBalance,
  sandboxCreateCustomer,
  sandboxCreateBankAccount,
  sandboxCreateSubscription,
  sandboxReset,
};

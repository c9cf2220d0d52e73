import type { Context } from '../../context.js';
import type { CommandInput } from '../spec.js';
import { runWithdraw } from './single.js';

export const run = (ctx: Context, input: CommandInput) => runWithdraw(ctx, 'boleto', input);

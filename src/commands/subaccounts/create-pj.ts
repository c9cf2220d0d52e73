import type { Context } from '../../context.js';
import type { CommandInput } from '../spec.js';
import { runCreate } from './create.js';

export const run = (ctx: Context, input: CommandInput) => runCreate(ctx, 'pj', input);

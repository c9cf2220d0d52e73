/**
 * Colour rules of the contract, decided here because chalk 5 does not honour
 * NO_COLOR itself: `--no-color` wins, then FORCE_COLOR forces colour, then
 * NO_COLOR, TERM=dumb or a stdout that is not a terminal turn it off.
 */
export function colorEnabled(flagAllowsColor: boolean, env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): boolean {
  if (!flagAllowsColor) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stdoutIsTTY;
}

const STATUS_COLORS: Record<string, 'green' | 'yellow' | 'red' | 'gray'> = {
  ACTIVE: 'green',
  APPROVED: 'green',
  COMPLETED: 'green',
  PENDING: 'yellow',
  SUSPENDED: 'yellow',
  FAILED: 'red',
  DELETED: 'gray',
  EXPIRED: 'gray',
};

export interface Painter {
  status(value: string): string;
  header(value: string): string;
  dim(value: string): string;
}

const plain: Painter = { status: (v) => v, header: (v) => v, dim: (v) => v };

export async function createPainter(enabled: boolean): Promise<Painter> {
  if (!enabled) return plain;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return {
    status: (value) => {
      const color = STATUS_COLORS[value];
      return color ? chalk[color](value) : value;
    },
    header: (value) => chalk.bold(value),
    dim: (value) => chalk.gray(value),
  };
}

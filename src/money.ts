/** `R$ 1.234,56` from integer cents, as Brazilian finance staff read money. */
export function formatCents(cents: number): string {
  if (!Number.isFinite(cents)) return String(cents);
  const negative = cents < 0;
  const absolute = Math.abs(Math.round(cents));
  const reais = Math.floor(absolute / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const centavos = String(absolute % 100).padStart(2, '0');
  return `${negative ? '-' : ''}R$ ${reais},${centavos}`;
}

/** Money as finance staff check it before it moves: the reais and the cents the API receives. */
export const formatCentsExact = (cents: number): string => `${formatCents(cents)} (${cents} cents)`;

/** Balances are the only money the API gives in decimal reais. */
export const reaisToCents = (reais: number): number => Math.round(reais * 100);

export const formatReais = (reais: number): string => formatCents(reaisToCents(reais));

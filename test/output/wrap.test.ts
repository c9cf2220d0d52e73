import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { wrapLabelled } from '../../src/output/wrap.js';

describe('a confirmation line fitted to the terminal', () => {
  const to = '  to:           bank account 1001: Acme Pagamentos Ltda · bank 336 · branch 0110 · account 86348265-0 (CHECKING)';

  it('is kept as it is when it fits', () => {
    expect(wrapLabelled('  amount:       R$ 150,00 (15000 cents)', 80)).toEqual(['  amount:       R$ 150,00 (15000 cents)']);
  });

  it('continues its value under itself, broken between words, every line within the width', () => {
    const lines = wrapLabelled(to, 80);
    expect(lines).toEqual([
      '  to:           bank account 1001: Acme Pagamentos Ltda · bank 336 · branch 0110',
      '                · account 86348265-0 (CHECKING)',
    ]);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(to.replace(/\s+/g, ' '));
  });

  it('breaks a word wider than the room where it must, and wide characters by their columns', () => {
    const key = `  PIX key:      EMAIL ${'a'.repeat(90)}@example.com`;
    const lines = wrapLabelled(key, 60);
    expect(lines.every((line) => stringWidth(line) <= 60)).toBe(true);
    expect(lines.length).toBeGreaterThan(2);
    // Nothing lost or added but the breaks and the indents.
    expect(lines.join('').replace(/\s+/g, '')).toBe(key.replace(/\s+/g, ''));
    const wide = wrapLabelled(`  to:           ${'銀行口座'.repeat(12)}`, 40);
    expect(wide.every((line) => stringWidth(line) <= 40)).toBe(true);
    expect(wide.slice(1).every((line) => line.startsWith(' '.repeat(16)))).toBe(true);
  });

  it('indents by four when the label takes more than half the line', () => {
    const lines = wrapLabelled(`  a very long label indeed:   ${'word '.repeat(12).trim()}`, 40);
    expect(lines.every((line) => stringWidth(line) <= 40)).toBe(true);
    expect(lines.slice(1).every((line) => /^ {4}\S/.test(line))).toBe(true);
  });
});

import Table from 'cli-table3';
import { describe, expect, it } from 'vitest';
import { renderTable, type TableColumn } from '../../src/output/table.js';
import { fitLine, textWidth } from '../../src/output/width.js';
import { clip } from '../../src/text.js';

/**
 * Widths as terminals draw them (test/interactive/widths.test.ts reads them off tmux's
 * screen): each character in its own cells, marks that combine in none, an emoji sequence
 * as one picture two columns wide; and no cut inside a grapheme cluster.
 */

const DEVANAGARI = 'अनुष्का Zoë';
const FAMILY = '👨‍👩‍👧‍👦';
const FLAG = '🇧🇷';
const COMBINING = 'Zoe\u0308 Ba\u0301tista';

describe('textWidth', () => {
  it('counts what a terminal draws: Devanagari vowel signs that take room, emoji sequences as two, combining marks as none', () => {
    expect(textWidth(DEVANAGARI)).toBe(9);
    expect(textWidth('क्षि')).toBe(3);
    expect(textWidth(FAMILY)).toBe(2);
    expect(textWidth(FLAG)).toBe(2);
    expect(textWidth('👍🏽')).toBe(2);
    expect(textWidth(COMBINING)).toBe(11);
    expect(textWidth('山田太郎')).toBe(8);
    expect(textWidth('\u001b[1mbold\u001b[22m')).toBe(4);
  });
});

describe('fitLine', () => {
  it('cuts between grapheme clusters, within the width as the terminal draws it', () => {
    for (const text of [`${FAMILY}${FAMILY}${FAMILY} Lima`, `Sofia ${DEVANAGARI} da Silva`, `${FLAG}${FLAG}${FLAG}${FLAG}`, `${COMBINING} ${COMBINING}`]) {
      for (let width = 1; width <= textWidth(text); width++) {
        const fitted = fitLine(text, width);
        expect(textWidth(fitted), `${text} at ${width}`).toBeLessThanOrEqual(width);
        // What is kept is whole clusters of the text: the text starts with it, and no cluster of it was split.
        const kept = fitted.endsWith('…') ? fitted.slice(0, -1) : fitted;
        expect(text.startsWith(kept)).toBe(true);
        expect([...new Intl.Segmenter().segment(text)].some(({ index }) => index === kept.length) || kept === text).toBe(true);
      }
    }
  });
});

describe('clip (a value quoted in an error)', () => {
  it('keeps whole clusters: no emoji half, no lone surrogate', () => {
    const quoted = clip(FAMILY.repeat(61));
    expect(quoted).toBe(`${FAMILY.repeat(57)}...`);
    expect(JSON.stringify(quoted)).not.toMatch(/\\ud[89a-f]/i);
    expect(clip('🦄'.repeat(60))).toBe('🦄'.repeat(60));
  });

  it('counts clusters longer than the part of the text it looks at first, and quotes a 100,000-character value by its start', () => {
    const long = `e${'\u0301'.repeat(500)}`;
    expect(clip(long.repeat(61))).toBe(`${long.repeat(57)}...`);
    expect(clip(long.repeat(60))).toBe(long.repeat(60));
    expect(clip('x'.repeat(100_000))).toBe(`${'x'.repeat(57)}...`);
  });
});

describe('payctl draws its tables itself: cli-table3, given payctl\'s widths, misaligns a Devanagari name', () => {
  const columns: TableColumn[] = [
    { title: 'NAME', fit: 'text', align: 'left' },
    { title: 'STATUS', fit: 'whole', align: 'left' },
  ];
  const names = ['Ana Silva', `Sofia ${DEVANAGARI}`, `Lima ${FAMILY}`, `Souza ${FLAG}`, COMBINING];
  const rows = names.map((name) => [{ text: name }, { text: 'APPROVED' }]);
  /** Where STATUS starts on each line, as the terminal draws the text before it. */
  const statusColumns = (lines: readonly string[]) => lines.map((line) => textWidth(line.slice(0, line.lastIndexOf('APPROVED') >= 0 ? line.lastIndexOf('APPROVED') : line.indexOf('STATUS'))));

  it('payctl\'s printer: STATUS starts in one column on every row', () => {
    const lines = renderTable(columns, rows, 80, (text) => text).text.split('\n').slice(0, -1);
    const starts = statusColumns(lines);
    expect(new Set(starts).size, lines.join('\n')).toBe(1);
  });

  it('cli-table3 with the same widths, no borders, no colour: the Devanagari row\'s STATUS is cut though it fits, and its STATUS starts two columns early (string-width 4 counts each vowel sign and virama as a column)', () => {
    const payctlLines = renderTable(columns, rows, 80, (text) => text).text.split('\n');
    const nameWidth = payctlLines[0]!.indexOf('STATUS') - 2;
    const empty = Object.fromEntries(
      ['top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right', 'left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid', 'middle'].map((key) => [key, '']),
    );
    const table = new Table({ chars: empty, style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 }, colWidths: [nameWidth + 2, 'APPROVED'.length + 2] });
    table.push(['NAME', 'STATUS'], ...rows.map((row) => row.map((cell) => cell.text)));
    const lines = table.toString().split('\n');
    const starts = statusColumns(lines);
    const devanagari = names.indexOf(`Sofia ${DEVANAGARI}`) + 1;
    // payctl shows the name whole in its width; cli-table3 counts it 2 wider than that, so it cuts it, and pads the cut name short.
    expect(payctlLines[devanagari]).toContain(`Sofia ${DEVANAGARI}`);
    expect(lines[devanagari], lines.join('\n')).toMatch(/^Sofia अनुष्का …/);
    expect(starts, lines.join('\n')).toEqual(lines.map((_, i) => (i === devanagari ? nameWidth : nameWidth + 2)));
  });
});

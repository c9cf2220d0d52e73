import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderFields, renderTable, type Cell, type TableColumn } from '../../src/output/table.js';
import { fitLine } from '../../src/output/width.js';

const plainHeader = (text: string) => text;
const cells = (...texts: string[]): Cell[] => texts.map((text) => ({ text }));
const linesOf = (text: string) => text.split('\n').slice(0, -1);
const widest = (text: string) => Math.max(...linesOf(text).map((line) => stringWidth(line)));

const UUID = 'cf8d9d49-daa5-46e0-8d2d-716ef16f5d00';
const CUSTOMER_COLUMNS: TableColumn[] = [
  { title: 'ID', fit: 'id', align: 'left' },
  { title: 'FIRST NAME', fit: 'text', align: 'left' },
  { title: 'LAST NAME', fit: 'text', align: 'left', hide: 2 },
  { title: 'EMAIL', fit: 'text', align: 'left', hide: 1 },
  { title: 'DOCUMENT', fit: 'whole', align: 'left', hide: 3 },
  { title: 'STATUS', fit: 'whole', align: 'left', hide: 4 },
];
const customerRow = (first: string, last: string, email: string) => cells(UUID, first, last, email, '407.715.946-66', 'APPROVED');

describe('renderTable', () => {
  it('writes rows at their natural widths, two spaces apart, with no blanks at line ends, when they fit', () => {
    const { text, hidden } = renderTable(CUSTOMER_COLUMNS, [customerRow('Sofia', 'Lima', 'sofia@example.com')], 200, plainHeader);
    expect(hidden).toEqual([]);
    expect(linesOf(text)).toEqual([
      'ID                                    FIRST NAME  LAST NAME  EMAIL              DOCUMENT        STATUS',
      `${UUID}  Sofia       Lima       sofia@example.com  407.715.946-66  APPROVED`,
    ]);
  });

  it('at 80 columns cuts text with …, keeps ids and documents whole, and leaves out the least needed columns first', () => {
    const rows = [customerRow('Larissa', 'Ferreira', 'larissa.ferreira.2@example.com'), customerRow('Sofia', 'Lima', 'sofia.lima.1@example.com')];
    const { text, hidden } = renderTable(CUSTOMER_COLUMNS, rows, 80, plainHeader);
    expect(widest(text)).toBeLessThanOrEqual(80);
    expect(hidden).toEqual(['DOCUMENT', 'STATUS']);
    const [header, first] = linesOf(text);
    expect(header).toMatch(/^ID +FIRST NAME +LAST NAME +EMAIL$/);
    expect(first!.startsWith(`${UUID}  Larissa`)).toBe(true);
    expect(first).toMatch(/ larissa\.ferreira\.2\S*…$/);
  });

  it('at a terminal (shortIds): ids by their first 8 characters where whole they would push out or cut other columns, whole where all fits', () => {
    const rows = [customerRow('Larissa', 'Ferreira', 'larissa.ferreira.2@example.com')];
    const narrow = renderTable(CUSTOMER_COLUMNS, rows, 80, plainHeader, { shortIds: true });
    expect(narrow.hidden).toEqual([]);
    // Whole ids left DOCUMENT and STATUS out at 80 columns (above); by 8 characters every column shows.
    expect(linesOf(narrow.text)[1]).toMatch(/^cf8d9d49  Larissa +Ferreira +larissa\.ferreira\.2\S*…  407\.715\.946-66  APPROVED$/);
    expect(narrow.ids).toEqual([{ id: UUID, column: 0 }]);
    expect(linesOf(renderTable(CUSTOMER_COLUMNS, rows, 200, plainHeader, { shortIds: true }).text)[1]!.startsWith(`${UUID}  `)).toBe(true);
  });

  it('leaves spare columns out, the highest hide first, before it cuts any other', () => {
    const columns: TableColumn[] = [
      { title: 'ID', fit: 'id', align: 'left' },
      { title: 'EMAIL', fit: 'text', align: 'left', hide: 1 },
      { title: 'STATUS', fit: 'whole', align: 'left', hide: 2, spare: true },
    ];
    const { text, hidden } = renderTable(columns, [cells('cf8d9d49', 'larissa.ferreira.2@example.com', 'APPROVED')], 45, plainHeader);
    expect(hidden).toEqual(['STATUS']);
    expect(linesOf(text)[1]).toBe('cf8d9d49  larissa.ferreira.2@example.com');
  });

  it('at 100 columns keeps the document and cuts the e-mail instead', () => {
    const rows = [customerRow('Larissa', 'Ferreira', 'larissa.ferreira.2@example.com')];
    const { text, hidden } = renderTable(CUSTOMER_COLUMNS, rows, 100, plainHeader);
    expect(widest(text)).toBeLessThanOrEqual(100);
    expect(hidden).toEqual(['STATUS']);
    expect(linesOf(text)[1]).toContain('407.715.946-66');
    expect(linesOf(text)[1]).toMatch(/larissa\.ferreira\.2@exa[^ ]*…/);
  });

  it('counts wide characters as the terminal shows them', () => {
    const rows = [customerRow('山田', '太郎', 'taro@example.jp'), customerRow('Zoë 👩🏽‍💻', 'Ñandú', 'zoe@example.com')];
    for (const width of [60, 70, 80, 90, 120]) {
      const { text } = renderTable(CUSTOMER_COLUMNS, rows, width, plainHeader);
      expect(widest(text), text).toBeLessThanOrEqual(width);
      // Columns line up: every row's e-mail (when shown) starts at the same terminal column.
      const starts = linesOf(text).map((line) => stringWidth(line.slice(0, line.search(/[a-z]+@|EMAIL/))));
      if (linesOf(text)[0]!.includes('EMAIL')) expect(new Set(starts).size, text).toBe(1);
    }
  });

  it('aligns money on its last digit, and cuts text before it cuts money', () => {
    const columns: TableColumn[] = [
      { title: 'ID', fit: 'id', align: 'left' },
      { title: 'TITLE', fit: 'text', align: 'left' },
      { title: 'AMOUNT', fit: 'whole', align: 'right' },
    ];
    const rows = [cells(UUID, 'Plano Premium Mensal com muitos extras', 'R$ 9,90'), cells(UUID, 'Clube', 'R$ 1.234,56')];
    expect(linesOf(renderTable(columns, rows, 72, plainHeader).text)).toEqual([
      'ID                                    TITLE                       AMOUNT',
      `${UUID}  Plano Premium Mensal…      R$ 9,90`,
      `${UUID}  Clube                  R$ 1.234,56`,
    ]);
    // Narrower than a readable title allows, with nothing to leave out: the title gives way, the amounts stay.
    expect(linesOf(renderTable(columns, rows, 56, plainHeader).text)).toEqual([
      'ID                                    TITLE       AMOUNT',
      `${UUID}  Plan…      R$ 9,90`,
      `${UUID}  Clube  R$ 1.234,56`,
    ]);
  });

  it('cuts a value of a kind kept whole when it is far wider than such a value (text a server sent instead)', () => {
    const columns: TableColumn[] = [
      { title: 'ID', fit: 'id', align: 'left' },
      { title: 'STATUS', fit: 'whole', align: 'left' },
    ];
    const { text } = renderTable(columns, [cells(UUID, 'X'.repeat(300))], 80, plainHeader);
    expect(widest(text)).toBe(80);
    expect(linesOf(text)[1]).toMatch(/^cf8d9d49\S+ {2}X+…$/);
  });

  it('never cuts an id: only ids wider than the terminal make a line run over', () => {
    const columns: TableColumn[] = [
      { title: 'ID', fit: 'id', align: 'left' },
      { title: 'NAME', fit: 'text', align: 'left' },
    ];
    const { text } = renderTable(columns, [cells(UUID, 'Sofia')], 30, plainHeader);
    expect(linesOf(text)[1]!.startsWith(UUID)).toBe(true);
  });

  it('colours after fitting, so the colour codes do not count as width', () => {
    const columns: TableColumn[] = [
      { title: 'ID', fit: 'id', align: 'left' },
      { title: 'STATUS', fit: 'whole', align: 'left' },
      { title: 'NOTE', fit: 'text', align: 'left' },
    ];
    const red = (text: string) => `\u001b[31m${text}\u001b[39m`;
    const { text } = renderTable(columns, [[{ text: UUID }, { text: 'FAILED', paint: red }, { text: 'n'.repeat(100) }]], 60, red);
    const plain = text.replace(/\u001b\[\d+m/g, '');
    expect(widest(plain)).toBe(60);
    expect(text).toContain(`${red('FAILED')}  nnn`);
  });

  it('fits any table: every line within the width, every id whole (random tables)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pieces = ['a', 'Ç', '山', '👍', ' ', 'é', 'x'];
    const word = (length: number) => Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    for (let run = 0; run < 200; run++) {
      const count = 2 + Math.floor(random() * 6);
      const columns: TableColumn[] = Array.from({ length: count }, (_, i) => ({
        title: `C${i}`,
        fit: i === 0 ? 'id' : (['text', 'whole', 'id'] as const)[Math.floor(random() * 3)]!,
        align: i > 0 && random() < 0.5 ? 'right' : 'left',
        hide: i === 0 ? undefined : Math.floor(random() * 10),
      }));
      const rows = Array.from({ length: 1 + Math.floor(random() * 5) }, () => columns.map((column, i) => ({ text: i === 0 ? `id-${run}-${word(2)}` : word(Math.floor(random() * (column.fit === 'id' ? 12 : 60))) })));
      const width = 40 + Math.floor(random() * 120);
      const { text } = renderTable(columns, rows, width, plainHeader);
      const lines = linesOf(text);
      expect(lines).toHaveLength(rows.length + 1);
      lines.slice(1).forEach((line, r) => expect(line.startsWith(rows[r]![0]!.text)).toBe(true));
      // The id columns shown, with their gaps, are the only thing that may run over.
      const idsWidth = columns.reduce((sum, column, i) => sum + (column.fit === 'id' ? Math.max(...[column.title, ...rows.map((row) => row[i]!.text)].map((t) => stringWidth(t))) + 2 : 0), 0);
      if (idsWidth <= width) expect(widest(text), text).toBeLessThanOrEqual(width);
    }
  });
});

describe('renderFields', () => {
  it('writes `label  value` lines, wrapping long values under the value column', () => {
    const long = 'Rua das Flores, 1594, Sala 804, bloco B, perto da padaria do Seu Joaquim, Meireles, Rio de Janeiro';
    const text = renderFields(
      [
        { label: { text: 'id' }, value: { text: UUID } },
        { label: { text: 'address street' }, value: { text: long } },
        { label: { text: 'reference' }, value: { text: '' } },
      ],
      60,
    );
    const lines = linesOf(text);
    expect(lines[0]).toBe(`id              ${UUID}`);
    expect(lines[1]!.startsWith('address street  Rua das Flores')).toBe(true);
    expect(lines[2]!.startsWith(' '.repeat(16))).toBe(true);
    expect(lines).toContain('reference');
    expect(widest(text)).toBeLessThanOrEqual(60);
    expect(lines.slice(1, -1).map((line) => line.slice(16)).join(' ')).toBe(long);
  });
});

describe('fitLine', () => {
  it('cuts a pick-list label to the width with …, wide characters counted as they show', () => {
    expect(fitLine('Acme Pagamentos Ltda · bank 336 · branch 0110', 20)).toBe('Acme Pagamentos Ltd…');
    expect(stringWidth(fitLine('山田太郎 '.repeat(10), 21))).toBeLessThanOrEqual(21);
    expect(fitLine('short', 20)).toBe('short');
  });
});

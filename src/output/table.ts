import type { Fit } from './cells.js';
import { fitLine, textWidth } from './width.js';
import { wrapText } from './wrap.js';

/**
 * Tables fitted to the terminal's width, the way gh's table printer fits them:
 * each column's natural width is measured (in terminal columns, as
 * src/output/width.ts counts them), columns are two spaces apart, and
 * when a row is too wide its text columns share what is left fairly (one
 * narrower than its share keeps its width) and are cut with `…`; ids are never
 * cut, and values of bounded width (money, times, documents, statuses) are kept
 * whole. Beyond gh, which lets such a row run over the edge: when even that does
 * not fit with every cut column still readable, columns are left out, least
 * needed first, until it does. Only an id wider than the terminal runs over.
 */

export interface TableColumn {
  title: string;
  fit: Fit;
  align: 'left' | 'right';
  /** Left out when the table cannot fit, the highest first; undefined: always shown. */
  hide?: number;
  /** Left out (the highest `hide` first) where the table does not fit whole, before any column is cut. */
  spare?: boolean;
}

export interface Cell {
  text: string;
  /** Colour, added after the text is fitted so widths count only what shows. */
  paint?: (text: string) => string;
}

export interface RenderedTable {
  /** The lines, each ending in a newline. */
  text: string;
  /** Titles of the columns left out to fit. */
  hidden: string[];
  /** The UUIDs in the id columns shown (whole, however they were shown), each with its column's index. */
  ids: Array<{ id: string; column: number }>;
}

export interface TableOptions {
  /**
   * Whether a UUID may be shown by its first characters (`SHORT_ID_LENGTH`) when
   * the table does not fit with them whole: at a terminal, where a person reads
   * the other columns they would push out.
   */
  shortIds?: boolean;
}

/** How many characters of a UUID a narrow table shows: enough to tell apart those one person sees. */
export const SHORT_ID_LENGTH = 8;
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const shortened = (text: string) => text.replace(UUIDS, (id) => id.slice(0, SHORT_ID_LENGTH));

/**
 * What a cut column keeps, so that what is left of it still reads: half its
 * width, at least 10 and at most 20 terminal columns (all of it when narrower).
 */
const keptWhenCut = (natural: number) => Math.min(natural, Math.max(10, Math.min(20, Math.ceil(natural / 2))));
/** A value of a kind kept whole that is wider than this is not what its kind says (say, a long text from a server): it is cut like text. */
const MAX_WHOLE_WIDTH = 24;
const GAP = 2;

interface Measured {
  natural: number;
  fit: Fit;
}

/** The columns shown, in order, each with its width. */
type Layout<C> = Array<{ column: C; width: number }>;

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const isFixed = (column: Measured) => column.fit === 'id' || (column.fit === 'whole' && column.natural <= MAX_WHOLE_WIDTH);

/**
 * Widths for columns in `room` terminal columns, or undefined when the fixed
 * ones and what each cut one must keep (`kept`) do not fit. What is left after
 * the fixed columns is shared fairly: every text column gets up to the same
 * width (a narrower one keeps its own, one that must keep more keeps that),
 * and the columns cut get what remains, one column each, from the first.
 */
function share<C extends Measured>(columns: readonly C[], room: number, kept: (natural: number) => number): Layout<C> | undefined {
  const left = room - sum(columns.filter(isFixed).map((column) => column.natural));
  const open = columns.filter((column) => !isFixed(column));
  const shareAt = (column: Measured, level: number) => Math.min(column.natural, Math.max(kept(column.natural), level));
  const at = (level: number) => open.map((column) => shareAt(column, level));
  if (sum(at(0)) > left) return undefined;
  const widest = Math.max(0, ...open.map((column) => column.natural));
  let level = 0;
  while (level < widest && sum(at(level + 1)) <= left) level++;
  let spare = left - sum(at(level));
  return columns.map((column) => {
    if (isFixed(column)) return { column, width: column.natural };
    const base = shareAt(column, level);
    const extra = Math.min(spare, column.natural - base);
    spare -= extra;
    return { column, width: base + extra };
  });
}

/** The columns shown and their widths, for a table `width` columns wide. */
function layout<C extends Measured & { hide?: number; spare?: boolean }>(columns: readonly C[], width: number): Layout<C> {
  let shown = [...columns];
  // A column without `hide` never outranks another, nor is outranked: NaN compares false, as undefined does.
  const highest = (among: readonly C[]) => among.reduce((a, b) => ((b.hide ?? NaN) > (a.hide ?? NaN) ? b : a));
  const wholeWidth = () => sum(shown.map((column) => column.natural)) + GAP * (shown.length - 1);
  for (let spare = shown.filter((column) => column.spare); spare.length > 0 && wholeWidth() > width; spare = spare.filter((column) => shown.includes(column))) {
    const next = highest(spare);
    shown = shown.filter((column) => column !== next);
  }
  for (;;) {
    const room = width - GAP * (shown.length - 1);
    const widths = share(shown, room, keptWhenCut);
    if (widths) return widths;
    const hideable = shown.filter((column) => column.hide !== undefined);
    if (hideable.length === 0) {
      // Nothing left to leave out: text is cut as far as it takes, then values kept whole too; ids never.
      const asText = shown.map((column) => (column.fit === 'id' ? column : { ...column, fit: 'text' as const }));
      return share(shown, room, () => 1) ?? share(asText, room, () => 1) ?? asText.map((column) => ({ column, width: column.fit === 'id' ? column.natural : 1 }));
    }
    const next = highest(hideable);
    shown = shown.filter((column) => column !== next);
  }
}

function pad(text: string, width: number, align: 'left' | 'right'): { before: string; after: string } {
  const room = ' '.repeat(Math.max(0, width - textWidth(text)));
  return align === 'right' ? { before: room, after: '' } : { before: '', after: room };
}

/** A list as a table `width` columns wide, a header row first. */
export function renderTable(
  columns: readonly TableColumn[],
  rows: readonly (readonly Cell[])[],
  width: number,
  paintHeader: (text: string) => string,
  { shortIds = false }: TableOptions = {},
): RenderedTable {
  const header: Cell[] = columns.map((column) => ({ text: column.title, paint: paintHeader }));
  // A row shorter than the columns shows its missing cells blank.
  const cellOf = (row: readonly Cell[], index: number): Cell => row[index] ?? { text: '' };
  const measure = (table: readonly (readonly Cell[])[]) =>
    columns.map((column, index) => ({ ...column, index, natural: Math.max(...table.map((row) => textWidth(cellOf(row, index).text))) }));
  let all: ReadonlyArray<readonly Cell[]> = [header, ...rows];
  let measured = measure(all);
  // Whole ids while the columns that are not spare fit as they are; else their first characters, so that they push none out nor cut it.
  const needed = measured.filter((column) => !column.spare);
  if (shortIds && sum(needed.map((column) => column.natural)) + GAP * (needed.length - 1) > width) {
    all = [header, ...rows.map((row) => row.map((cell, i) => (columns[i]?.fit === 'id' ? { ...cell, text: shortened(cell.text) } : cell)))];
    measured = measure(all);
  }
  const shown = layout(measured, width);
  const lines = all.map((row) =>
    shown
      .map(({ column, width: columnWidth }, n) => {
        const cell = cellOf(row, column.index);
        const text = fitLine(cell.text, columnWidth);
        const { before, after } = pad(text, columnWidth, column.align);
        // The last column is not padded: no line ends in blanks.
        return `${before}${cell.paint ? cell.paint(text) : text}${n < shown.length - 1 ? after : ''}`;
      })
      .join(' '.repeat(GAP)),
  );
  const ids = shown
    .filter(({ column }) => column.fit === 'id')
    .flatMap(({ column: { index } }) =>
      rows.flatMap((row) => [...cellOf(row, index).text.matchAll(UUIDS)].map(([id]) => ({ id: id.toLowerCase(), column: index }))),
    );
  const hidden = measured.filter((column) => !shown.some((placed) => placed.column.index === column.index)).map((column) => column.title);
  return { text: lines.map((line) => `${line}\n`).join(''), hidden, ids };
}

/** Text of payctl's own (a note under a table) as lines of at most `width` columns, broken between words. */
export const wrapLines = wrapText;

/** The label column of a single resource takes at most this share of the width; the value gets the rest. */
const MAX_LABEL_SHARE = 0.4;
const MIN_VALUE_WIDTH = 20;

/**
 * A single resource as `label  value` lines `width` columns wide: labels cut if
 * they must, values wrapped (never cut: a person reading one resource wants all
 * of it), their continuation lines under the value column.
 */
export function renderFields(fields: ReadonlyArray<{ label: Cell; value: Cell }>, width: number): string {
  const labelWidth = Math.min(Math.max(0, ...fields.map((field) => textWidth(field.label.text))), Math.floor(width * MAX_LABEL_SHARE));
  const valueWidth = Math.max(width - labelWidth - 2, MIN_VALUE_WIDTH);
  const indent = ' '.repeat(labelWidth + 2);
  return fields
    .map(({ label, value }) => {
      const labelText = fitLine(label.text, labelWidth);
      const head = `${label.paint ? label.paint(labelText) : labelText}${pad(labelText, labelWidth, 'left').after}  `;
      const lines = wrapText(value.text, valueWidth);
      return `${lines.map((line, n) => `${n === 0 ? head : indent}${value.paint ? value.paint(line) : line}`.trimEnd()).join('\n')}\n`;
    })
    .join('');
}

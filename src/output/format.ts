import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { usageError } from '../errors.js';
import { createPainter, type Painter } from './color.js';
import { formatCents, formatReais } from './money.js';
import { getPath, leafPaths, pickPaths } from './paths.js';
import { jsonText, visible } from './sanitize.js';
import type { Column, ColumnKind, View } from './views.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputOptions {
  format: OutputFormat;
  /** Raw `--fields` value. */
  fields?: string;
  color: boolean;
  /** Whether stdout is a terminal: csv and tsv written there have their server text made visible. */
  terminal: boolean;
  /** The separator of csv output (`--csv-separator`, else the profile's), checked when first asked for. */
  csvSeparator: () => string;
}

/** The separators `--csv-separator` takes: one character, or a tab also as `tab` or `\\t` (easier to type in a shell). */
const CSV_SEPARATORS: Readonly<Record<string, string>> = { ',': ',', ';': ';', '|': '|', '\t': '\t', tab: '\t', '\\t': '\t' };

/** Checks a csv separator from `origin` (a flag or a profile setting); anything else is a usage error naming it. */
export function parseCsvSeparator(origin: string, raw: unknown, hint?: string): string {
  const separator = typeof raw === 'string' ? CSV_SEPARATORS[raw] : undefined;
  if (separator === undefined) {
    throw usageError(`${origin} is ${JSON.stringify(raw)}, not a csv separator: use one of , ; | or tab`, hint);
  }
  return separator;
}

/** Parses `--fields` against the fields a view knows; an unknown one is a usage error listing the valid ones. */
export function parseFields(raw: string | undefined, known: readonly string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const fields = raw.split(',').map((field) => field.trim());
  if (fields.some((field) => field === '')) throw usageError(`--fields "${raw}" has an empty field name: give comma-separated names, e.g. --fields id,email`);
  if (known) {
    const unknown = fields.filter((field) => !known.includes(field));
    if (unknown.length > 0) {
      throw usageError(`--fields: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; valid fields: ${known.join(', ')}`);
    }
  }
  return fields;
}

/** Writes and waits when the pipe is full, so a large export does not pile up in memory. */
export async function writeOut(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * Writes a list item by item: json, ndjson, csv and tsv stream (memory does not grow
 * with the list); a table needs every row to align, so it is written at the end.
 */
export interface ListWriter {
  write(items: readonly unknown[]): Promise<void>;
  end(): Promise<void>;
  /** Ends output cut short by a failure: a json array stays unclosed so no reader takes it for complete. */
  abort(): Promise<void>;
  readonly count: number;
}

export class Output {
  private painter?: Painter;
  private csvSeparator?: string;

  constructor(
    private readonly stdout: Writable,
    private readonly stderr: Writable,
    readonly options: OutputOptions,
  ) {}

  get format(): OutputFormat {
    return this.options.format;
  }

  get isJson(): boolean {
    return this.format === 'json' || this.format === 'ndjson';
  }

  /** Validates `--fields` for a view (and the csv separator, for csv) before anything is sent. */
  fieldsFor(view: View | undefined): string[] | undefined {
    if (this.format === 'csv') this.csvSeparator ??= this.options.csvSeparator();
    return parseFields(this.options.fields, view?.fields);
  }

  async item(view: View | undefined, item: unknown): Promise<void> {
    const fields = this.fieldsFor(view);
    const selected = fields ? pickPaths(item, fields) : item;
    switch (this.format) {
      case 'json':
        return writeOut(this.stdout, `${jsonText(selected, 2)}\n`);
      case 'ndjson':
        return writeOut(this.stdout, `${jsonText(selected)}\n`);
      case 'csv': {
        const columns = fields ?? leafPaths(item);
        const writer = this.list({ noun: view?.noun ?? 'items', fields: columns, columns: columns.map((field) => ({ field })) }, columns);
        await writer.write([item]);
        return writer.end();
      }
      case 'tsv': {
        // A single resource reads as `field<TAB>value` lines.
        const cell = this.tsvCell();
        return writeOut(this.stdout, (fields ?? leafPaths(item)).map((field) => `${cell(field)}\t${cell(getPath(item, field))}\n`).join(''));
      }
      case 'table':
        return this.keyValueTable(view, item, fields);
    }
  }

  /** A list writer; `explicitFields` overrides `--fields` (used by `item`). */
  list(view: View, explicitFields?: string[]): ListWriter {
    const fields = explicitFields ?? this.fieldsFor(view);
    const columns: Column[] = fields
      ? fields.map((field) => view.columns.find((c) => c.field === field) ?? { field, kind: view.kinds?.[field] })
      : [...view.columns];
    const out = this.stdout;
    let count = 0;
    const project = (item: unknown) => (fields ? pickPaths(item, fields) : item);
    switch (this.format) {
      case 'json': {
        let started = false;
        return {
          get count() {
            return count;
          },
          async write(items) {
            for (const item of items) {
              await writeOut(out, `${started ? ',\n' : '[\n'}${indent(jsonText(project(item), 2))}`);
              started = true;
              count++;
            }
          },
          end: () => writeOut(out, started ? '\n]\n' : '[]\n'),
          abort: () => writeOut(out, '\n'),
        };
      }
      case 'ndjson':
        return {
          get count() {
            return count;
          },
          async write(items) {
            if (items.length === 0) return;
            count += items.length;
            await writeOut(out, items.map((item) => `${jsonText(project(item))}\n`).join(''));
          },
          end: async () => undefined,
          abort: async () => undefined,
        };
      case 'csv':
      case 'tsv': {
        const header = columns.map((c) => c.field);
        const separator = this.format === 'csv' ? (this.csvSeparator ??= this.options.csvSeparator()) : '\t';
        const cell = this.format === 'csv' ? (value: unknown) => csvCell(value, separator, this.options.terminal) : this.tsvCell();
        const rowsText = (rows: unknown[][]) => rows.map((row) => `${row.map(cell).join(separator)}\n`).join('');
        // TSV has no header row; csv's is written before the first row, or alone at the end.
        let headerWritten = this.format === 'tsv';
        return {
          get count() {
            return count;
          },
          async write(items) {
            const rows = items.map((item) => columns.map((c) => getPath(item, c.field)));
            if (!headerWritten) rows.unshift(header);
            headerWritten = true;
            count += items.length;
            await writeOut(out, rowsText(rows));
          },
          end: async () => {
            if (!headerWritten) await writeOut(out, rowsText([header]));
          },
          abort: async () => undefined,
        };
      }
      case 'table': {
        const rows: unknown[] = [];
        return {
          get count() {
            return count;
          },
          async write(items) {
            rows.push(...items);
            count += items.length;
          },
          end: () => this.table(view, columns, rows),
          abort: () => this.table(view, columns, rows),
        };
      }
    }
  }

  /** One line on stderr, its server text made visible. */
  async note(text: string): Promise<void> {
    await writeOut(this.stderr, `${visible(text)}\n`);
  }

  /** How a tsv cell is written: raw into a pipe (the API's value), made visible at a terminal. */
  private tsvCell(): (value: unknown) => string {
    return this.options.terminal ? (value) => visible(tsvCell(rawCell(value))) : (value) => tsvCell(rawCell(value));
  }

  private async getPainter(): Promise<Painter> {
    this.painter ??= await createPainter(this.options.color);
    return this.painter;
  }

  private async table(view: View, columns: Column[], rows: unknown[]): Promise<void> {
    if (rows.length === 0) {
      await this.note(`no ${view.noun}`);
      return;
    }
    const painter = await this.getPainter();
    const Table = await loadTable();
    const table = new Table({ head: columns.map((c) => painter.header(visible(columnTitle(c)))), ...BORDERLESS });
    for (const row of rows) table.push(columns.map((c) => displayCell(getPath(row, c.field), c.kind, painter)));
    await writeOut(this.stdout, `${trimLines(table.toString())}\n`);
  }

  private async keyValueTable(view: View | undefined, item: unknown, fields: string[] | undefined): Promise<void> {
    const painter = await this.getPainter();
    const Table = await loadTable();
    const table = new Table(BORDERLESS);
    for (const field of fields ?? leafPaths(item)) {
      const label = view?.columns.find((c) => c.field === field)?.header ?? field;
      table.push([painter.header(visible(label)), displayCell(getPath(item, field), view?.kinds?.[field], painter)]);
    }
    await writeOut(this.stdout, `${trimLines(table.toString())}\n`);
  }
}

/** cli-table3 without borders, and with `style` emptied so it writes no colour codes of its own. */
const BORDERLESS = {
  chars: {
    top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
    left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
  },
  style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
};

async function loadTable() {
  const module = await import('cli-table3');
  return module.default;
}

/** A column's title as people read it: `holderName` is HOLDER NAME, `address.city` ADDRESS CITY. */
const columnTitle = (column: Column) =>
  (column.header ?? column.field.replace(/\./g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2')).toUpperCase();

const trimLines = (text: string) => text.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '').join('\n');
const indent = (text: string) => text.split('\n').map((l) => `  ${l}`).join('\n');

function rawCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** What starts a formula in a spreadsheet: =, +, -, @, tab, CR, and the full-width forms some spreadsheets normalise. */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

/**
 * A csv cell for spreadsheets: text a spreadsheet would run as a formula gets a
 * leading `'` (the API's numbers never do, so -12.5 stays); a cell holding the
 * separator, a quote, a line break or surrounding blanks is quoted (RFC 4180).
 * At a terminal, text is also made visible. (Written here rather than with
 * csv-stringify, which made a 20,000-row export 1.4 times slower.)
 */
function csvCell(value: unknown, separator: string, terminal: boolean): string {
  let text = terminal ? visible(rawCell(value)) : rawCell(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return text.includes(separator) || /["\n\r]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** TSV has no quoting: tabs and line breaks inside a value are escaped so each row stays one line. */
function tsvCell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** A table cell as people read it: server text made visible before it is coloured, so widths count what shows. */
function displayCell(value: unknown, kind: ColumnKind | undefined, painter: Painter): string {
  if (value === null || value === undefined) return painter.dim('-');
  switch (kind) {
    case 'cents':
      return typeof value === 'number' ? formatCents(value) : visible(rawCell(value));
    case 'reais':
      return typeof value === 'number' ? formatReais(value) : visible(rawCell(value));
    case 'status':
      return painter.status(visible(rawCell(value)));
    case 'boolean':
      return value ? 'yes' : 'no';
    case 'list':
      return Array.isArray(value) ? String(value.length) : visible(rawCell(value));
    default:
      return visible(rawCell(value));
  }
}

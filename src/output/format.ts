import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { usageError } from '../errors.js';
import { createPainter, type Painter } from './color.js';
import { formatCents, formatReais } from './money.js';
import { getPath, leafPaths, pickPaths } from './paths.js';
import type { Column, ColumnKind, View } from './views.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputOptions {
  format: OutputFormat;
  /** Raw `--fields` value. */
  fields?: string;
  color: boolean;
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

  /** Validates `--fields` for a view before anything is sent. */
  fieldsFor(view: View | undefined): string[] | undefined {
    return parseFields(this.options.fields, view?.fields);
  }

  async item(view: View | undefined, item: unknown): Promise<void> {
    const fields = this.fieldsFor(view);
    const selected = fields ? pickPaths(item, fields) : item;
    switch (this.format) {
      case 'json':
        return writeOut(this.stdout, `${JSON.stringify(selected, null, 2)}\n`);
      case 'ndjson':
        return writeOut(this.stdout, `${JSON.stringify(selected)}\n`);
      case 'csv': {
        const columns = fields ?? leafPaths(item);
        const writer = this.list({ noun: view?.noun ?? 'items', fields: columns, columns: columns.map((field) => ({ field })) }, columns);
        await writer.write([item]);
        return writer.end();
      }
      case 'tsv':
        // A single resource reads as `field<TAB>value` lines.
        return writeOut(this.stdout, (fields ?? leafPaths(item)).map((field) => `${field}\t${tsvCell(rawCell(getPath(item, field)))}\n`).join(''));
      case 'table':
        return this.keyValueTable(view, item, fields);
    }
  }

  /** A list writer; `explicitFields` overrides `--fields` (used by `item`). */
  list(view: View, explicitFields?: string[]): ListWriter {
    const fields = explicitFields ?? this.fieldsFor(view);
    const columns: Column[] = fields ? fields.map((field) => view.columns.find((c) => c.field === field) ?? { field, kind: view.kinds?.[field] }) : [...view.columns];
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
              await writeOut(out, `${started ? ',\n' : '[\n'}${indent(JSON.stringify(project(item), null, 2))}`);
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
            await writeOut(out, items.map((item) => `${JSON.stringify(project(item))}\n`).join(''));
          },
          end: async () => undefined,
          abort: async () => undefined,
        };
      case 'csv':
      case 'tsv': {
        const csv = this.format === 'csv';
        const line = (values: string[]) => `${values.map(csv ? csvCell : tsvCell).join(csv ? ',' : '\t')}\n`;
        let headerWritten = !csv;
        return {
          get count() {
            return count;
          },
          async write(items) {
            let text = headerWritten ? '' : line(columns.map((c) => c.field));
            headerWritten = true;
            for (const item of items) text += line(columns.map((c) => rawCell(getPath(item, c.field))));
            count += items.length;
            await writeOut(out, text);
          },
          end: async () => {
            if (!headerWritten) await writeOut(out, line(columns.map((c) => c.field)));
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

  async note(text: string): Promise<void> {
    await writeOut(this.stderr, `${text}\n`);
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
    const table = new Table({ head: columns.map((c) => painter.header(columnTitle(c))), ...BORDERLESS });
    for (const row of rows) table.push(columns.map((c) => displayCell(getPath(row, c.field), c.kind, painter)));
    await writeOut(this.stdout, `${trimLines(table.toString())}\n`);
  }

  private async keyValueTable(view: View | undefined, item: unknown, fields: string[] | undefined): Promise<void> {
    const painter = await this.getPainter();
    const Table = await loadTable();
    const table = new Table(BORDERLESS);
    for (const field of fields ?? leafPaths(item)) {
      const label = view?.columns.find((c) => c.field === field)?.header ?? field;
      table.push([painter.header(label), displayCell(getPath(item, field), view?.kinds?.[field], painter)]);
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

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** TSV has no quoting: tabs and line breaks inside a value are escaped so each row stays one line. */
function tsvCell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function displayCell(value: unknown, kind: ColumnKind | undefined, painter: Painter): string {
  if (value === null || value === undefined) return painter.dim('-');
  switch (kind) {
    case 'cents':
      return typeof value === 'number' ? formatCents(value) : String(value);
    case 'reais':
      return typeof value === 'number' ? formatReais(value) : String(value);
    case 'status':
      return painter.status(String(value));
    case 'boolean':
      return value ? 'yes' : 'no';
    case 'list':
      return Array.isArray(value) ? String(value.length) : rawCell(value);
    default:
      return typeof value === 'object' ? JSON.stringify(value) : stripControl(String(value));
  }
}

/** Server text shown on a terminal must not carry escape sequences of its own. */
const stripControl = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');

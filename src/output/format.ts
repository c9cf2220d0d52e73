import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { usageError } from '../errors.js';
import { alignOf, cellText, fitOf, rawText } from './cells.js';
import { createPainter, type Painter } from './color.js';
import { listFooter, type ListSummary } from './footer.js';
import { writeThroughPager } from './pager.js';
import type { JqFilter } from './jq.js';
import { getPath, leafPaths, pickPaths } from './paths.js';
import { jsonText, visible } from './sanitize.js';
import type { Cell, TableColumn } from './table.js';
import { kindOf, type Column, type ColumnKind, type View } from './views.js';
import { isUuid } from '../validation/rules.js';

/** An id a table showed, remembered so its first characters can name it (config/shown-ids.ts). */
export interface ShownId {
  id: string;
  /** What the id names, for a message listing several: `customer`, `sub-account`. */
  what: string;
}

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv', 'xlsx'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputOptions {
  format: OutputFormat;
  /** Raw `--fields` value. */
  fields?: string;
  /** `--jq`: the flag as typed and its expression, compiled by `prepareJq` before anything is sent. */
  jq?: { flag: string; expression: string };
  color: boolean;
  /** Whether stdout is a terminal: csv and tsv written there have their server text made visible. */
  terminal: boolean;
  /** The file `--out` names: -o xlsx writes its workbook there instead of to stdout. */
  out?: string;
  /** The separator of csv output (`--csv-separator`, else the profile's), checked when first asked for. */
  csvSeparator: () => string;
  /** The width tables are fitted to, in terminal columns. */
  width: number;
  /** The terminal's height, when known: a table longer than the screen goes through the pager (none when unknown). */
  height?: number;
  /** The pager command, when tables may go through one (`choosePager`). */
  pager?: string;
  /** The run's environment: the pager runs with it, and --jq's `$ENV` is it. */
  env: NodeJS.ProcessEnv;
  /** Takes Ctrl-C away from payctl while the pager runs (it is the pager's); returns what gives it back. */
  holdCtrlC: () => () => void;
}

/** The separators `--csv-separator` takes: one character, or a tab also as `tab` or `\\t` (easier to type in a shell). */
const OUTPUT_CSV_SEPARATORS: Readonly<Record<string, string>> = { ',': ',', ';': ';', '|': '|', '\t': '\t', tab: '\t', '\\t': '\t' };

/** Checks a csv separator from `origin` (a flag or a profile setting); anything else is a usage error naming it. */
export function parseCsvSeparator(origin: string, raw: unknown, hint?: string): string {
  const separator = typeof raw === 'string' ? OUTPUT_CSV_SEPARATORS[raw] : undefined;
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
export async function writeOut(stream: Writable, text: string | Uint8Array): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * Writes a list item by item: json, ndjson, csv and tsv stream (memory does not grow
 * with the list); a table needs every row to align, so it is written at the end.
 */
export interface ListWriter {
  write(items: readonly unknown[]): Promise<void>;
  /** Ends the list; a table then says on stderr how many of how many it showed (`summary`: what the list knows of the whole). */
  end(summary?: ListSummary): Promise<void>;
  /** Ends output cut short by a failure: a json array stays unclosed so no reader takes it for complete. */
  abort(): Promise<void>;
  readonly count: number;
}

export class Output {
  private painter?: Painter;
  private csvSeparator?: string;
  private jqFilter?: JqFilter;

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

  /**
   * Compiles `--jq`, when given (a usage error when it does not compile). Every run
   * does this before its command sends anything; jq is loaded only then.
   */
  async prepareJq(): Promise<void> {
    const { jq } = this.options;
    if (!jq || this.jqFilter) return;
    const { compileJq } = await import('./jq.js');
    this.jqFilter = await compileJq(jq.flag, jq.expression, this.options.terminal, this.options.env);
  }

  /**
   * A JSON document as this run prints it: through `--jq` when given, else as
   * JSON (indented with -o json, on one line with -o ndjson).
   */
  document(value: unknown): Promise<void> {
    return this.documents([value]);
  }

  /** JSON documents, one after the other, in one write. */
  documents(values: readonly unknown[]): Promise<void> {
    const { jqFilter } = this;
    const indent = this.format === 'ndjson' ? undefined : 2;
    return writeOut(this.stdout, jqFilter ? jqFilter.apply(values) : values.map((value) => `${jsonText(value ?? null, indent)}\n`).join(''));
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
      case 'ndjson':
        return this.document(selected);
      case 'csv':
      case 'xlsx': {
        // One row under the header; a workbook's cells typed by the view's kinds.
        const columns = fields ?? leafPaths(item);
        const writer = this.list(view ?? { noun: 'items', fields: columns, columns: [] }, columns);
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
    const columns: Column[] = fields ? fields.map((field) => view.columns.find((c) => c.field === field) ?? { field }) : [...view.columns];
    const out = this.stdout;
    let count = 0;
    const project = (item: unknown) => (fields ? pickPaths(item, fields) : item);
    switch (this.format) {
      case 'json': {
        if (this.jqFilter) return this.filteredList(this.jqFilter, project);
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
          write: async (items) => {
            if (items.length === 0) return;
            count += items.length;
            // Each line is a JSON document: --jq filters each.
            await this.documents(items.map(project));
          },
          end: async () => undefined,
          abort: async () => undefined,
        };
      case 'csv':
      case 'tsv': {
        const header = columns.map((c) => c.field);
        const separator = this.format === 'csv' ? (this.csvSeparator ??= this.options.csvSeparator()) : '\t';
        const cell = this.format === 'csv' ? (value: unknown) => csvCell(value, separator, this.options.terminal) : this.tsvCell();
        // A file for pt-BR spreadsheets starts with a BOM: Excel reads it as UTF-8 only then (José, not JosÃ©).
        const bom = separator === ';' && !this.options.terminal ? '\uFEFF' : '';
        const rowsText = (rows: unknown[][]) => rows.map((row) => `${row.map(cell).join(separator)}\n`).join('');
        // TSV has no header row; csv's is written before the first row, or alone at the end.
        let headerWritten = this.format === 'tsv';
        return {
          get count() {
            return count;
          },
          async write(items) {
            const rows = items.map((item) => columns.map((c) => getPath(item, c.field)));
            const first = !headerWritten;
            if (first) rows.unshift(header);
            headerWritten = true;
            count += items.length;
            await writeOut(out, `${first ? bom : ''}${rowsText(rows)}`);
          },
          end: async () => {
            if (!headerWritten) await writeOut(out, `${bom}${rowsText([header])}`);
          },
          abort: async () => undefined,
        };
      }
      case 'xlsx': {
        // A workbook is one zip written at the end; a list cut short writes none.
        const rows: unknown[][] = [];
        return {
          get count() {
            return rows.length;
          },
          async write(items) {
            for (const item of items) rows.push(columns.map((column) => getPath(item, column.field)));
          },
          end: () => this.workbook(view, columns, rows),
          abort: async () => undefined,
        };
      }
      case 'table': {
        const rows: unknown[] = [];
        // Columns the user picked are left out from the last when the table cannot fit; the first never is.
        const tableColumns = fields ? columns.map((column, i) => ({ ...column, hide: i === 0 ? undefined : i })) : [...(view.tableColumns ?? columns)];
        return {
          get count() {
            return count;
          },
          async write(items) {
            rows.push(...items);
            count += items.length;
          },
          end: async (summary) => {
            await this.table(view, tableColumns, rows);
            for (const line of listFooter(view.noun, rows.length, summary, this.options.width)) await this.note(line);
          },
          // A list cut short by a failure: its caller says how much was written.
          abort: () => this.table(view, tableColumns, rows),
        };
      }
    }
  }

  /**
   * A json list through --jq: the filter takes the whole array, as `payctl … --json | jq`
   * would, so it runs once the list is complete; a list cut short prints nothing.
   */
  private filteredList(jq: JqFilter, project: (item: unknown) => unknown): ListWriter {
    const items: unknown[] = [];
    return {
      get count() {
        return items.length;
      },
      async write(page) {
        for (const item of page) items.push(project(item));
      },
      end: () => writeOut(this.stdout, jq.apply([items])),
      abort: async () => undefined,
    };
  }

  /** Writes a workbook of `rows` to the --out file, else to stdout; ExcelJS is loaded only here. */
  private async workbook(view: View, columns: readonly Column[], rows: ReadonlyArray<readonly unknown[]>): Promise<void> {
    const { saveWorkbook, workbookOf } = await import('./xlsx.js');
    const bytes = await workbookOf(view.noun, columns.map((column) => ({ field: column.field, kind: kindOf(view, column.field) })), rows);
    if (this.options.out === undefined) await writeOut(this.stdout, bytes);
    else await saveWorkbook(this.options.out, bytes);
  }

  /** One line on stderr, its server text made visible. */
  async note(text: string): Promise<void> {
    await writeOut(this.stderr, `${visible(text)}\n`);
  }

  /** How a tsv cell is written: raw into a pipe (the API's value), made visible at a terminal. */
  private tsvCell(): (value: unknown) => string {
    return this.options.terminal ? (value) => visible(tsvCell(rawText(value))) : (value) => tsvCell(rawText(value));
  }

  private async getPainter(): Promise<Painter> {
    this.painter ??= await createPainter(this.options.color);
    return this.painter;
  }

  /** A cell of a table: formatted by its kind, coloured by its status, a dim `-` when there is no value. */
  private cell(value: unknown, kind: ColumnKind | undefined, painter: Painter): Cell {
    const text = cellText(value, kind);
    if (text === undefined) return { text: '-', paint: painter.dim };
    return kind === 'status' ? { text, paint: painter.status } : { text };
  }

  private async table(view: View, columns: Column[], rows: unknown[]): Promise<void> {
    if (rows.length === 0) return;
    const painter = await this.getPainter();
    const { renderTable, wrapLines } = await import('./table.js');
    const kinds = columns.map((column) => column.kind ?? kindOf(view, column.field));
    const tableColumns: TableColumn[] = columns.map((column, i) => {
      const kind = kinds[i];
      return { title: visible(columnWords(column).toUpperCase()), fit: fitOf(kind), align: alignOf(kind), hide: column.hide, spare: column.spare };
    });
    const cells = rows.map((row) => columns.map((column, i) => this.cell(column.value ? column.value(row) : getPath(row, column.field), kinds[i], painter)));
    // Into a pipe ids stay whole, whatever the width: what reads them there may be a program.
    const { text, hidden, ids } = renderTable(tableColumns, cells, this.options.width, painter.header, { shortIds: this.options.terminal });
    await this.writeTable(text);
    await this.idsShown(
      ids.flatMap(({ id, column }) => {
        const shown = columns[column];
        return shown ? [{ id, what: whatId(view, shown) }] : [];
      }),
    );
    if (hidden.length > 0) {
      const note = `not shown at ${this.options.width} columns: ${hidden.join(', ')} (pick columns with --fields)`;
      for (const line of wrapLines(note, this.options.width)) await this.note(line);
    }
  }

  private async keyValueTable(view: View | undefined, item: unknown, fields: string[] | undefined): Promise<void> {
    const painter = await this.getPainter();
    const { renderFields } = await import('./table.js');
    const shown = fields ?? leafPaths(item);
    const lines = shown.map((field) => ({
      label: { text: visible(columnWords(view?.columns.find((c) => c.field === field) ?? { field })), paint: painter.header },
      value: this.cell(getPath(item, field), kindOf(view, field), painter),
    }));
    await this.writeTable(renderFields(lines, this.options.width));
    await this.idsShown(
      shown.flatMap((field) => {
        const value = getPath(item, field);
        return kindOf(view, field) === 'id' && typeof value === 'string' && isUuid(value) ? [{ id: value.toLowerCase(), what: whatId(view, { field }) }] : [];
      }),
    );
  }

  /**
   * Ids a person was shown in a table: remembered (`onIdsShown`, set for a command's
   * run) so that the first characters of one can stand for it in a later command.
   */
  onIdsShown?: (ids: readonly ShownId[]) => Promise<void>;

  private async idsShown(ids: readonly ShownId[]): Promise<void> {
    if (ids.length > 0) await this.onIdsShown?.(ids);
  }

  /**
   * A table at a terminal: through the pager when it is longer than the screen
   * and there is one; else, or when the pager cannot be run, written directly.
   * A terminal that does not say its height (a pseudo-terminal a program made)
   * gets no pager: nobody may be there to page.
   */
  private async writeTable(text: string): Promise<void> {
    const { pager, height } = this.options;
    // Room is left for the footer and the shell's prompt.
    const long = height !== undefined && (text.match(/\n/g)?.length ?? 0) > height - 2;
    if (pager && long) {
      if (await writeThroughPager(pager, text, this.options.env, this.options.holdCtrlC)) return;
    }
    await writeOut(this.stdout, text);
  }
}

/** What an id names, for a message that lists ids: the view's resource for its `id`, else the column's words (`customer id`). */
const whatId = (view: View | undefined, column: Column) =>
  column.field === 'id' && view ? view.noun.replace(/ies$/, 'y').replace(/s$/, '') : columnWords(column);

/** A column's title in words (its header, else its field's name): `holderName` is "holder name", `address.city` "address city". */
const columnWords = (column: Column) => column.header ?? column.field.replace(/\./g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

const indent = (text: string) => text.split('\n').map((l) => `  ${l}`).join('\n');

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
  let text = terminal ? visible(rawText(value)) : rawText(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return text.includes(separator) || /["\n\r]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** TSV has no quoting: tabs and line breaks inside a value are escaped so each row stays one line. */
function tsvCell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

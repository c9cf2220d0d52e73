import { parse } from 'csv-parse/sync';

/** One data row of a batch file: its cells by header name, as text, and the line (or sheet row) it starts on, for messages. */
export interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

/** A batch file's rows, read from a CSV file or a workbook's sheet. */
export interface CsvTable {
  /** Column names, trimmed and in lower case. */
  header: string[];
  rows: CsvRow[];
  /** How the file was read, for messages: `separator ";"`, `sheet "Folha1"`. */
  source: string;
  /** What messages call a row's place: a CSV's line, a sheet's row. */
  rowWord: 'line' | 'row';
  /** Rows that could not be read, each with its line. */
  problems: string[];
}

export const BATCH_FILE_SEPARATORS = [',', ';'] as const;
export type BatchFileSeparator = (typeof BATCH_FILE_SEPARATORS)[number];

/**
 * A CSV as spreadsheets save it (csv-parse): comma or semicolon separated (pt-BR
 * spreadsheets use `;`), quoted cells, CRLF or LF line ends, with or without a
 * UTF-8 BOM; blank lines are skipped; cells are trimmed. Without a separator given,
 * it is the one that splits the header row into more of `knownColumns`. A quote
 * error throws with its line; a row whose cell count differs from the header's is
 * a problem naming its line.
 */
export function parseCsv(text: string, knownColumns: readonly string[], separator?: BatchFileSeparator): CsvTable {
  const content = text.replace(/^\uFEFF/, '');
  const chosen = separator ?? detectSeparator(content.split(/\r?\n/, 1)[0] ?? '', knownColumns);
  let records: RecordWithLine[];
  try {
    // csv-parse's types do not follow `info: true`, which makes each record `{ record, info }`.
    const parsed: unknown[] = parse(content, { delimiter: chosen, info: true, skip_empty_lines: true, relax_column_count: true });
    records = parsed.map(recordWithLine);
  } catch (error) {
    throw new Error(`the CSV cannot be read: ${(error as Error).message}`);
  }
  const [headerRecord, ...dataRecords] = records;
  if (!headerRecord) throw new Error('the file is empty: the first line must name the columns');
  const header = headerRecord.record.map((cell) => cell.trim().toLowerCase());
  const problems: string[] = [];
  const rows: CsvRow[] = [];
  for (const { record, info } of dataRecords) {
    // info.lines is the record's last line; quoted cells may hold line breaks.
    const line = info.lines - record.reduce((breaks, cell) => breaks + (cell.match(/\n/g)?.length ?? 0), 0);
    if (record.length === 1 && record[0]?.trim() === '') continue;
    if (record.length !== header.length) {
      problems.push(`line ${line} has ${record.length} cells, the header has ${header.length} (separator "${chosen}")`);
      continue;
    }
    rows.push({ line, cells: Object.fromEntries(header.map((name, i) => [name, record[i]?.trim() ?? ''])) });
  }
  return { header, rows, source: `separator "${chosen}"`, rowWord: 'line', problems };
}

interface RecordWithLine {
  record: string[];
  info: { lines: number };
}

function recordWithLine(value: unknown): RecordWithLine {
  const record: unknown = value !== null && typeof value === 'object' ? Reflect.get(value, 'record') : undefined;
  const lines: unknown = value !== null && typeof value === 'object' ? Reflect.get(Reflect.get(value, 'info') ?? {}, 'lines') : undefined;
  if (!Array.isArray(record) || !record.every((cell) => typeof cell === 'string') || typeof lines !== 'number') {
    throw new Error('csv-parse gave a record without its line');
  }
  return { record, info: { lines } };
}

function detectSeparator(headerLine: string, knownColumns: readonly string[]): BatchFileSeparator {
  const known = (separator: string) => headerLine.split(separator).filter((name) => knownColumns.includes(name.trim().replace(/^"|"$/g, '').toLowerCase())).length;
  return known(';') > known(',') ? ';' : ',';
}

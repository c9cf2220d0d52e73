/** One data row of a CSV file: its cells by header name, and the line it starts on (for messages). */
export interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

/**
 * RFC 4180 CSV: comma-separated, double quotes around cells that hold commas,
 * quotes or line breaks, CRLF or LF line ends, a UTF-8 BOM ignored. Blank lines
 * are skipped. Throws with the line number on a malformed quote or a row whose
 * cell count differs from the header's.
 */
export function parseCsv(text: string): CsvTable {
  const records = splitRecords(text.replace(/^\uFEFF/, ''));
  const headerRecord = records.shift();
  if (!headerRecord) throw new Error('the file is empty: the first line must name the columns');
  const header = headerRecord.cells.map((cell) => cell.trim().toLowerCase());
  const rows = records.map(({ line, cells }) => {
    if (cells.length !== header.length) throw new Error(`line ${line} has ${cells.length} cells, the header has ${header.length}`);
    return { line, cells: Object.fromEntries(header.map((name, i) => [name, cells[i]!.trim()])) };
  });
  return { header, rows };
}

function splitRecords(text: string): Array<{ line: number; cells: string[] }> {
  const records: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endRecord = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0]!.trim() === '')) records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === '\n') line++;
        cell += char;
      }
    } else if (char === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      cell += char;
    }
  }
  if (quoted) throw new Error(`line ${recordLine}: a quoted cell is not closed`);
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}

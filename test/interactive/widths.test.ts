import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { runCliOnScreen } from '../helpers/screen.js';
import { needsTools } from '../helpers/tools.js';

/**
 * Names a terminal draws wider or narrower than they are long: a Devanagari last name
 * (whose vowel signs take a column each), a ZWJ family emoji and a flag (one picture
 * two columns wide each) and letters with combining marks (no column of their own).
 * In `customers list` at 60, 80 and 200 columns every column after the name starts
 * where its title does, on every row, as the terminal draws them: each cell found on
 * tmux's screen by tmux's own cursor (runCliOnScreen's `locate`), never placed by a
 * width table of ours.
 */

const screenIt = needsTools('tmux');

const NAMES = ['अनुष्का Zoë', 'Lima 👨‍👩‍👧‍👦', 'Souza 🇧🇷', 'Zoe\u0308 Ba\u0301tista'];

/** A last name a pick list at 60 columns must cut: 56 code points, 35 columns as terminals draw it (28 by string-width). */
const LONG_NAME = 'अनुष्का '.repeat(7).trim();

let s: SandboxSession;
/** The customer given LONG_NAME: the only one with this e-mail. */
let longNamed: { id: string; email: string };
/** The ids of the customers given those names: a table shows at least their first 8 characters, which find each one's row. */
let ids: string[];
beforeAll(async () => {
  s = await startSandboxSession('acme');
  const customers = JSON.parse((await s.run(['customers', 'list', '--limit', '8', '--json'])).stdout) as Array<{ id: string; email: string }>;
  const named = NAMES.map((_, i) => customers[2 * i]!);
  for (const [i, customer] of named.entries()) {
    const updated = await s.run(['customers', 'update', customer.id, '--last-name', NAMES[i]!]);
    expect(updated.code, updated.stderr).toBe(0);
  }
  longNamed = customers[7]!;
  const updated = await s.run(['customers', 'update', longNamed.id, '--last-name', LONG_NAME]);
  expect(updated.code, updated.stderr).toBe(0);
  ids = named.map(({ id }) => id);
});
afterAll(() => s?.close());

/** Each cell of a table's line (columns are at least two spaces apart; a name has single spaces) with where its text starts in the line. */
const cellsOf = (line: string) => [...line.matchAll(/\S+(?: \S+)*/g)].map((match) => ({ text: match[0], at: match.index }));

describe.concurrent('customers list with names a terminal draws at another width than their length', () => {
  for (const width of [60, 80, 200]) {
    screenIt(`at ${width} columns every column starts under its title on every row, as the terminal draws them`, async () => {
      // The rows of the table: the 8 lines under the header, found on the screen the terminal shows.
      const tableOf = (screen: string) => {
        const lines = screen.split('\n');
        const header = lines.findIndex((line) => line.startsWith('ID '));
        return { header: lines[header]!, rows: lines.slice(header + 1, header + 9).map((line, i) => ({ line, row: header + 1 + i })) };
      };
      // Every cell after the name, each looked for on its own row.
      const cellsAfterName = (screen: string) => tableOf(screen).rows.flatMap(({ line, row }) => cellsOf(line).slice(2).map(({ text }) => ({ row, text })));
      const run = await runCliOnScreen(['customers', 'list', '--limit', '8'], { env: s.env, width, height: 30, locate: cellsAfterName });
      expect(run.code, run.screen).toBe(0);
      const { header, rows } = tableOf(run.screen);
      // Each of those customers is on a row of its own, its id first: none wrapped onto the next line.
      for (const id of ids) expect(rows.filter(({ line }) => line.startsWith(id.slice(0, 8))), run.screen).toHaveLength(1);
      const titles = cellsOf(header);
      expect(titles.map((title) => title.text).slice(0, 3), run.screen).toEqual(['ID', 'NAME', 'EMAIL']);
      // The header is ASCII: where its titles start in the line is where they start on the screen.
      const starts = titles.slice(2).map((title) => title.at);
      const located = rows.map((_, r) => run.located.slice(r * starts.length, (r + 1) * starts.length));
      expect(located, run.screen).toEqual(rows.map(() => starts));
    });
  }
});

describe('a pick list at 60 columns', () => {
  screenIt('cuts a Devanagari name between grapheme clusters, its entry on one line of the screen', async () => {
    const run = await runCliOnScreen(['customers', 'get'], {
      env: s.env,
      width: 60,
      height: 30,
      steps: [
        { after: '? Customer: part of the name', keys: [longNamed.email, 'Enter'] },
        { after: '… search again', keys: ['Enter'] },
      ],
    });
    expect(run.code, run.screen).toBe(0);
    const list = run.seen[1]!.split('\n');
    const entry = list.findIndex((line) => line.startsWith('❯ '));
    // Wrapped, the entry's end would be on the next line instead of the next entry.
    expect(list[entry + 1], run.seen[1]).toBe('  … search again');
    const shown = list[entry]!.slice(2);
    expect(shown.endsWith('…'), shown).toBe(true);
    const kept = shown.slice(0, -1);
    const full = `${(JSON.parse((await s.run(['customers', 'get', longNamed.id, '--json'])).stdout) as { firstName: string }).firstName} ${LONG_NAME}`;
    expect(full.startsWith(kept), `${kept}\n${full}`).toBe(true);
    expect([...new Intl.Segmenter().segment(full)].some(({ index }) => index === kept.length), kept).toBe(true);
  });
});

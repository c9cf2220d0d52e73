/**
 * What came from a server is data, never terminal control. Before such text meets
 * a terminal or stderr, every character a terminal would act on instead of showing
 * is written as a visible escape: C0 controls (`\n`, `\t`, `\r` by name, the others
 * as `\x1b`, `\x07`, …), DEL and C1 (`\x7f`, `\x9b`, …), which also disarms every
 * ESC sequence (CSI, OSC and its hyperlinks, DCS…) since its ESC shows as text; and
 * the characters that reorder or hide text (bidirectional overrides, isolates and
 * marks, line and paragraph separators) as `\u202e` and the like.
 *
 * Backslashes are left as they are, so names read as they were typed; the escapes
 * above are only ever made by payctl, never interpreted.
 */

/** C0, DEL, C1, the Arabic letter mark, LRM/RLM, line/paragraph separators, bidi embeddings, overrides and isolates. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, less C0 (which JSON.stringify already escapes): what a JSON text can still carry raw. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

function escapeChar(char: string): string {
  const code = char.charCodeAt(0);
  return NAMED[char] ?? (code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`);
}

/** One line of text as a terminal must show it: every control and bidi character made visible, newlines included. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, escapeChar);
}

/** Text whose newlines are payctl's own (a stack trace, commander's messages): each line made visible. */
export function visibleLines(text: string): string {
  return text.split('\n').map(visible).join('\n');
}

/**
 * JSON.stringify, with DEL, C1 and the bidi characters also written as `\uXXXX`
 * escapes (it escapes only C0): the same JSON value, which no terminal can act on.
 * Outside strings a JSON text is ASCII, so the escapes land only inside strings.
 */
export function jsonText(value: unknown, indent?: number): string {
  // `undefined` (no value at all) reads as null rather than as no text.
  return (JSON.stringify(value, null, indent) ?? 'null').replace(RAW_IN_JSON, (char) => `\\u${hex(char.charCodeAt(0), 4)}`);
}

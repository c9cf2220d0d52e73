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

/**
 * C0, DEL, C1, the Arabic letter mark, LRM/RLM, line/paragraph separators, bidi embeddings, overrides
 * and isolates; and what draws nothing, or draws at another width than terminals agree on, so that payctl's
 * layout and the terminal's differ: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the soft
 * hyphen, the Mongolian vowel separator, zero-width spaces and joiners, word joiner and invisible
 * operators, the BOM, no-break spaces (which pass for spaces), variation selectors and tag
 * characters. A ZWJ inside an emoji sequence, a variation selector after the character it
 * selects, and the tags of a subdivision flag are kept (see KEPT).
 */
const INVISIBLE =
  /[\u0000-\u001f\u007f-\u00a0\u00ad\u061c\u115f\u1160\u180e\u2007\u200b-\u200f\u2028-\u202f\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]|[\u{e0000}-\u{e007f}]|[\u{e0100}-\u{e01ef}]/gu;
/** Sequences in which a character of INVISIBLE draws what it should: an emoji ZWJ sequence, a variation of the character before, a subdivision flag. */
const KEPT =
  /\p{Extended_Pictographic}[\u{1f3fb}-\u{1f3ff}\ufe0f]?(?:\u200d\p{Extended_Pictographic}[\u{1f3fb}-\u{1f3ff}\ufe0f]?)+|[\p{Extended_Pictographic}#*0-9][\ufe0e\ufe0f]\u20e3?|\u{1f3f4}[\u{e0061}-\u{e007a}]+\u{e007f}/gu;
const SHOWN = new RegExp(`(${KEPT.source})|${INVISIBLE.source}`, 'gu');
/** The same, less C0 (which JSON.stringify already escapes): what a JSON text can still carry raw. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

function escapeChar(char: string): string {
  const code = char.codePointAt(0)!;
  return NAMED[char] ?? (code <= 0xff ? `\\x${hex(code, 2)}` : code <= 0xffff ? `\\u${hex(code, 4)}` : `\\u{${hex(code, 5)}}`);
}

/** One line of text as a terminal must show it: every control, bidi and invisible character made visible, newlines included. */
export function visible(text: string): string {
  return text.replace(SHOWN, (match: string, kept: string | undefined) => kept ?? escapeChar(match));
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
  return stringify(value, indent).replace(RAW_IN_JSON, (char) => `\\u${hex(char.charCodeAt(0), 4)}`);
}

/**
 * JSON.stringify, with a bigint (an id too big for a double, read exactly: src/http/json.ts)
 * written as the integer the API sent, which JSON.stringify refuses to write.
 */
function stringify(value: unknown, indent: number | undefined): string {
  try {
    // `undefined` (no value at all) reads as null rather than as no text.
    return JSON.stringify(value, null, indent) ?? 'null';
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    // Each bigint goes through as a string behind a random mark, then loses its quotes.
    const mark = `bigint-${Math.random().toString(36).slice(2)}:`;
    const text = JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? `${mark}${item}` : item), indent) ?? 'null';
    return text.replaceAll(new RegExp(`"${mark}(-?\\d+)"`, 'g'), '$1');
  }
}

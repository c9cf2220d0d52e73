import { eastAsianWidth } from 'get-east-asian-width';
import { stripVTControlCharacters } from 'node:util';
import { graphemes } from '../text.js';

/**
 * How many columns a terminal draws text in: payctl's one measure, for tables, pick lists
 * and wrapped lines. Terminals (xterm, VTE, tmux, the macOS and Windows terminals) draw
 * each character in its own cells, wide (East Asian wide and fullwidth) in two, marks
 * that combine (Mn, Me) and format characters in none, so a Devanagari vowel sign that
 * takes room of its own (Mc, as the ा of `अनुष्का`) counts one column; an emoji
 * sequence (ZWJ family, flag, keycap, skin tone) is one picture two columns wide.
 * Colour and other escape sequences count nothing. Why not string-width: it counts a
 * whole cluster as its first character, one column short of the terminal for each such
 * vowel sign (docs/decisions.md).
 */
export function textWidth(text: string): number {
  const plain = stripVTControlCharacters(text);
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  let width = 0;
  for (const cluster of graphemes(plain)) width += clusterWidth(cluster);
  return width;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** What draws nothing: marks that combine, format characters (ZWJ, variation selectors…), controls, Hangul vowels and finals that join the syllable before. */
const DRAWS_NOTHING = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}\u1160-\u11ff]$/u;
/** Made on first use: \p{RGI_Emoji} needs the `v` flag, which TypeScript's target does not spell. */
let emojiSequence: RegExp | undefined;

function clusterWidth(cluster: string): number {
  if (cluster.length > 1 && (emojiSequence ??= new RegExp('^\\p{RGI_Emoji}$', 'v')).test(cluster)) return 2;
  let width = 0;
  for (const char of cluster) width += DRAWS_NOTHING.test(char) ? 0 : eastAsianWidth(char.codePointAt(0)!);
  return width;
}

/**
 * `text` cut to `width` terminal columns (as `measure` counts them), ending in `…` when
 * cut; never inside a grapheme cluster.
 */
export function fitLine(text: string, width: number, measure: (text: string) => number = textWidth): string {
  if (measure(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const cluster of graphemes(text)) {
    const clusterColumns = measure(cluster);
    if (used + clusterColumns > width - 1) break;
    kept += cluster;
    used += clusterColumns;
  }
  return `${kept}…`;
}

/**
 * How inquirer measures a line before it breaks it at the terminal's edge (wrap-ansi 6 with
 * string-width 4, by code point, so possibly inside a cluster): as textWidth, plus a column
 * for each combining mark outside U+0300–U+036F (a Devanagari vowel sign or virama), which
 * it counts and the terminal does not draw. Never less than what the terminal draws.
 */
export const inquirerWidth = (text: string): number => textWidth(text) + (text.match(/(?![\u0300-\u036f])[\p{Mn}\p{Me}]/gu)?.length ?? 0);

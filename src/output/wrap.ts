import { graphemes } from '../text.js';
import { textWidth } from './width.js';

/**
 * A summary line (`  to:           bank account 1001: …`) fitted to a terminal `width`
 * columns wide: its value is broken between words and continued under itself, so the
 * terminal never breaks it mid-word at its edge and the labels stay in one column. A word
 * wider than the room is broken where it must be. A line that fits comes back as it is.
 */
export function wrapLabelled(line: string, width: number): string[] {
  if (textWidth(line) <= width) return [line];
  const label = /^(\s+[^\s:][^:]*:\s+)/.exec(line)?.[1] ?? '';
  const indent = ' '.repeat(textWidth(label) <= width / 2 ? textWidth(label) : 4);
  return wrapWords(label, line.slice(label.length), width, indent);
}

/** Text as lines of at most `width` columns, each of its own lines broken between words (a word wider than that between graphemes). */
export const wrapText = (text: string, width: number): string[] =>
  text.split('\n').flatMap((line) => (textWidth(line) <= width ? [line] : wrapWords('', line, width, '')));

/** `text` after `label` on the first line, broken between words, its continuation lines after `indent`. */
function wrapWords(label: string, text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let current = label;
  let used = textWidth(label);
  let empty = true;
  const breakLine = () => {
    lines.push(current.trimEnd());
    [current, used, empty] = [indent, indent.length, true];
  };
  for (const word of text.split(' ')) {
    piecesOf(word, width - indent.length).forEach((piece, i) => {
      // The pieces of one word join with no space; words, with one.
      const gap = () => (empty || i > 0 ? 0 : 1);
      if (used + gap() + textWidth(piece) > width && !(empty && current === indent)) breakLine();
      current += ' '.repeat(gap()) + piece;
      used += gap() + textWidth(piece);
      empty = false;
    });
  }
  lines.push(current);
  return lines;
}

/** A word cut into pieces at most `room` columns wide, between graphemes. */
function piecesOf(word: string, room: number): string[] {
  if (textWidth(word) <= room) return [word];
  const pieces: string[] = [];
  let piece = '';
  for (const cluster of graphemes(word)) {
    if (piece !== '' && textWidth(piece + cluster) > room) {
      pieces.push(piece);
      piece = '';
    }
    piece += cluster;
  }
  return [...pieces, piece];
}

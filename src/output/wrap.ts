import stringWidth from 'string-width';

/**
 * A summary line (`  to:           bank account 1001: …`) fitted to a terminal `width`
 * columns wide: its value is broken between words and continued under itself, so the
 * terminal never breaks it mid-word at its edge and the labels stay in one column. A word
 * wider than the room is broken where it must be. A line that fits comes back as it is.
 */
export function wrapLabelled(line: string, width: number): string[] {
  if (stringWidth(line) <= width) return [line];
  const label = /^(\s+[^\s:][^:]*:\s+)/.exec(line)?.[1] ?? '';
  const indent = ' '.repeat(stringWidth(label) <= width / 2 ? stringWidth(label) : 4);
  const lines: string[] = [];
  let current = label;
  let used = stringWidth(label);
  let empty = true;
  const breakLine = () => {
    lines.push(current.trimEnd());
    [current, used, empty] = [indent, indent.length, true];
  };
  for (const word of line.slice(label.length).split(' ')) {
    piecesOf(word, width - indent.length).forEach((piece, i) => {
      // The pieces of one word join with no space; words, with one.
      const gap = () => (empty || i > 0 ? 0 : 1);
      if (used + gap() + stringWidth(piece) > width && !(empty && current === indent)) breakLine();
      current += ' '.repeat(gap()) + piece;
      used += gap() + stringWidth(piece);
      empty = false;
    });
  }
  lines.push(current);
  return lines;
}

/** A word cut into pieces at most `room` columns wide, between graphemes. */
function piecesOf(word: string, room: number): string[] {
  if (stringWidth(word) <= room) return [word];
  const pieces: string[] = [];
  let piece = '';
  for (const { segment } of new Intl.Segmenter().segment(word)) {
    if (piece !== '' && stringWidth(piece + segment) > room) {
      pieces.push(piece);
      piece = '';
    }
    piece += segment;
  }
  return [...pieces, piece];
}

/**
 * Text as people and the API count it, with nothing but what Node has built in (this
 * module is loaded by every run): characters are code points, as the API's JSON Schema
 * `maxLength` counts them (docs/decisions.md), and text is only ever cut between grapheme
 * clusters, so no emoji, flag or accented letter is cut in half.
 */

/** Made on first use: creating one costs milliseconds. */
let segmenter: Intl.Segmenter | undefined;

/** The grapheme clusters of `text` (what a person sees as one character), in order. */
export function* graphemes(text: string): Generator<string> {
  segmenter ??= new Intl.Segmenter();
  for (const { segment } of segmenter.segment(text)) yield segment;
}

/** How many characters the API counts in `text`: code points (an emoji is one, or more in a sequence). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** `text` as an error quotes it: at most `max` grapheme clusters, else its first ones and `...`. */
export function clip(text: string, max = 60): string {
  // Only a prefix is segmented, doubled until it holds more than `max` clusters or is the whole text: each
  // segment V8 yields costs time in the length of the text segmented, and a 100,000-character value took
  // 2 s to refuse. A cut prefix ends in at most one partial cluster, the last, which is never kept.
  for (let length = 4 * max; ; length *= 2) {
    const clusters = [...graphemes(text.slice(0, length))];
    if (clusters.length > max) return `${clusters.slice(0, max - 3).join('')}...`;
    if (length >= text.length) return text;
  }
}

/** What a list knows about the whole of which it shows a part: the footer of its table says it. */
export interface ListSummary {
  /** Items in the whole list, as the API counts them. */
  total?: number;
  /** The page shown, and how many pages there are, for a list shown a page at a time. */
  page?: number;
  pages?: number;
  /** The command that shows the next page, when there is one. */
  next?: string;
  /** For a search: how many items were looked at (those shown are the ones that matched). */
  scanned?: number;
}

/** `1 customer`, `2 customers`: nouns are given in the plural, and their singular drops the final "s". */
export function counted(count: number, plural: string): string {
  return `${count} ${count === 1 ? plural.replace(/s$/, '') : plural}`;
}

/**
 * The line under a table, on stderr: how many of how many were shown, and how
 * to see more. `showing 20 of 250 customers; next: payctl customers list --page 2, or --all`
 * When that is wider than `width`, the command gets a line of its own, whole, to be copied.
 */
export function listFooter(noun: string, shown: number, { total, page, pages, next, scanned }: ListSummary = {}, width = Infinity): string[] {
  if (scanned !== undefined) return [`${shown === 0 ? 'none' : shown} of ${counted(scanned, noun)} ${shown === 1 ? 'matches' : 'match'}`];
  if (total === undefined || total === 0) return [shown === 0 ? `no ${noun}` : counted(shown, noun)];
  if (shown === 0 && page !== undefined) {
    const onPages = pages === undefined ? '' : ` on ${counted(pages, 'pages')}`;
    return [`no ${noun} on page ${page}: there ${total === 1 ? 'is' : 'are'} ${counted(total, noun)}${onPages}`];
  }
  const where = page !== undefined && page > 1 && pages !== undefined ? ` (page ${page} of ${pages})` : '';
  const showing = `showing ${shown} of ${counted(total, noun)}${where}`;
  if (!next) return [showing];
  const line = `${showing}; next: ${next}, or --all`;
  if (line.length <= width) return [line];
  const lead = `${showing}; next page (or --all):`;
  return [...(lead.length <= width ? [lead] : [showing, 'next page (or --all):']), next];
}

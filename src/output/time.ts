/** An ISO 8601 date-time with its zone (the API's are UTC, `…Z`): only such text is converted. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A time as people at this machine read it, for tables: `2026-11-23 16:45`, in
 * the local time zone (`TZ` honoured), to the minute. Plain dates (`2026-11-23`)
 * and text that is not a date-time with a zone stay as they are: a date has no
 * zone to convert from.
 */
export function formatLocalTime(text: string): string {
  if (!ISO_DATE_TIME.test(text)) return text;
  const time = new Date(text);
  if (Number.isNaN(time.getTime())) return text;
  return `${time.getFullYear()}-${two(time.getMonth() + 1)}-${two(time.getDate())} ${two(time.getHours())}:${two(time.getMinutes())}`;
}

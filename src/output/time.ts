import { parseApiTime } from '../api/time.js';

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A time as people at this machine read it, for tables: `2026-11-23 16:45`, in
 * the local time zone (`TZ` honoured), to the minute. A date-time without a zone
 * is UTC, as the API's are. Plain dates (`2026-11-23`) and text that is not a
 * date-time stay as they are: a date has no zone to convert from.
 */
export function formatLocalTime(text: string): string {
  const ms = parseApiTime(text);
  if (ms === undefined) return text;
  const time = new Date(ms);
  return `${time.getFullYear()}-${two(time.getMonth() + 1)}-${two(time.getDate())} ${two(time.getHours())}:${two(time.getMinutes())}`;
}

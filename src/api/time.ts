/** An ISO 8601 date-time, its zone optional: `2026-11-26T13:47:48.288Z`, `…-03:00`, or `2026-11-26T13:47:48.288`. */
const API_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A date-time the API sent, in milliseconds, or undefined when it is not one. The
 * reference says the API's timestamps are UTC, so one without a zone is read as
 * UTC: JavaScript would read it in this machine's zone (TZ), and a window over it
 * would then move by hours.
 */
export function parseApiTime(text: string): number | undefined {
  if (!API_DATE_TIME.test(text)) return undefined;
  const ms = Date.parse(HAS_ZONE.test(text) ? text : `${text}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

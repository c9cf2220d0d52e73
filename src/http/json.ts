/**
 * An answer's JSON text read so that an id keeps every digit the API sent. JSON.parse
 * reads every number as a double, so an id such as 123456789012345678901234567890
 * would become 1.2345678901234568e+29 (Node 20 has no source text in JSON.parse's
 * reviver). A text holding an integer of 16 digits or more is read by lossless-json,
 * loaded only then; an integer too big for a double under an id key (`id`,
 * `bankAccountId`: scripts/gen-validators.mjs types those `number | bigint`) becomes
 * a bigint, every other number what JSON.parse makes of it.
 */

/** An integer literal of 16 digits or more as a value: the only numbers a double may not hold exactly. */
const LONG_INTEGER = /[:,[]\s*-?\d{16,}\s*[,\]}]/;

const isIdKey = (key: string) => key === 'id' || key.endsWith('Id');

export async function parseAnswerJson(text: string): Promise<unknown> {
  if (!LONG_INTEGER.test(text)) return JSON.parse(text);
  const { parse, isLosslessNumber, isInteger, isSafeNumber } = await import('lossless-json');
  return parse(
    text,
    (key, value) => {
      if (!isLosslessNumber(value)) return value;
      return isIdKey(key) && isInteger(value.value) && !isSafeNumber(value.value) ? BigInt(value.value) : Number(value.value);
    },
    // As JSON.parse: a key given twice keeps its last value.
    { onDuplicateKey: ({ newValue }) => newValue },
  );
}

const hex8 = (word: number) => (word >>> 0).toString(16).padStart(8, '0');

/** FNV-1a of a string, to turn (seed, stream name) into a PRNG seed. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Deterministic PRNG (sfc32) for the seed data: the same seed, stream name and
 * index always give the same sequence, on every platform. The index gives cheap
 * independent sub-streams (one per seeded customer).
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream: string, index = 0) {
    this.a = seed ^ 0x9e3779b9;
    this.b = hashString(stream);
    this.c = Math.imul(index ^ 0x85ebca6b, 0xc2b2ae35);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.nextUint32(); // mix the initial state
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor((this.nextUint32() / 0x1_0000_0000) * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.nextUint32() / 0x1_0000_0000 < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new Error('nothing to pick from');
    return item;
  }

  /** `count` decimal digits, leading zeros included. */
  digits(count: number): string {
    let text = '';
    // nine digits per draw: 10^9 < 2^32
    for (let left = count; left > 0; left -= 9) {
      const take = Math.min(9, left);
      text += String(this.int(0, 10 ** take - 1)).padStart(take, '0');
    }
    return text;
  }

  /** A version-4 shaped UUID drawn from this generator (built from four words: seeding 100,000 customers makes many). */
  uuid(): string {
    const a = hex8(this.nextUint32());
    const b = hex8((this.nextUint32() & 0xffff0fff) | 0x00004000);
    const c = hex8((this.nextUint32() & 0x3fffffff) | 0x80000000);
    const d = hex8(this.nextUint32());
    return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
  }
}

const HALF = 2 ** 24;
const HALF_MASK = HALF - 1;

function feistelRound(half: number, key: number, round: number): number {
  let h = Math.imul(half ^ key ^ Math.imul(round + 1, 0x9e3779b9), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & HALF_MASK;
}

/**
 * A keyed permutation of the integers below 2^48 (a 3-round Feistel network on
 * 24-bit halves): values look random, and unpermute48 gets the input back.
 */
export function permute48(value: number, key: number): number {
  let left = Math.floor(value / HALF);
  let right = value & HALF_MASK;
  for (let round = 0; round < 3; round++) [left, right] = [right, left ^ feistelRound(right, key, round)];
  return left * HALF + right;
}

export function unpermute48(value: number, key: number): number {
  let left = Math.floor(value / HALF);
  let right = value & HALF_MASK;
  for (let round = 2; round >= 0; round--) [left, right] = [right ^ feistelRound(left, key, round), left];
  return left * HALF + right;
}

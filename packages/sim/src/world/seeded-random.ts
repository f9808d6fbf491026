import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import type { JumpableRandomGenerator } from "pure-rand/types/JumpableRandomGenerator";

/** Each byte's two hex digits, looked up: the SDK draws a UUID per request (its invocation id). */
const HEX = Array.from({ length: 256 }, (_, x) => x.toString(16).padStart(2, "0"));

/**
 * One seeded stream of random numbers. A world holds several (scheduler, user, ambient) split by jumps, so a new
 * `Math.random()` call in production code does not shift the scheduler's choices, and the reverse.
 */
export class SeededRandom {
  private constructor(private readonly rng: JumpableRandomGenerator) {}

  /** A stream for a 32-bit seed; the same seed always yields the same numbers. */
  static of(seed: number): SeededRandom {
    if (!Number.isInteger(seed)) throw new TypeError(`seed must be an integer, got ${seed}`);
    return new SeededRandom(xoroshiro128plus(seed | 0));
  }

  /**
   * A stream independent of this one (2^64 draws away), leaving this one untouched: each call returns the next
   * independent stream, so the order of `split()` calls is part of the seed's meaning.
   */
  split(): SeededRandom {
    const child = this.rng.clone();
    this.rng.jump();
    child.jump();
    this.rng.jump();
    return new SeededRandom(child);
  }

  /** A float in [0, 1), 53 bits. */
  random(): number {
    return uniformFloat64(this.rng);
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
      throw new RangeError(`int(${lo}, ${hi}) needs integers with lo <= hi`);
    }
    return uniformInt(this.rng, lo, hi);
  }

  /** One element of a non-empty list. */
  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new RangeError("pick() from an empty list");
    return xs[this.int(0, xs.length - 1)] as T;
  }

  /** `n` random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const word = this.rng.next() >>> 0;
      for (let k = 0; k < 4 && i + k < n; k++) out[i + k] = (word >>> (8 * k)) & 0xff;
    }
    return out;
  }

  /** An RFC 4122 version-4 UUID drawn from this stream. */
  uuid(): `${string}-${string}-${string}-${string}-${string}` {
    const b = this.bytes(16);
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    let h = "";
    for (const x of b) h += HEX[x];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

import type { Progress } from "./progress";
import type { AuthoritySide, ClockReading } from "./region-side";

export type { ClockReading } from "./region-side";

/** The `Date` header's resolution: the authority's time lies within a second after the date it prints. */
const DATE_RESOLUTION_MS = 1_000;

/**
 * EO_TEST_UNSAFE_OPERATOR_CLOCK_STAMP=1 stamps `active_from` on the operator's clock alone, as before issue 40:
 * a laptop running 28 s slow then collapses the act window.
 */
const unsafeOperatorClockStamp = (): boolean => process.env.EO_TEST_UNSAFE_OPERATOR_CLOCK_STAMP === "1";

/** The bounds of (authority's clock − this machine's), from one reading: the truth lies between them. */
export function clockSkewBounds(r: ClockReading): { lowMs: number; highMs: number } {
  return { lowMs: r.serverDateMs - r.receivedMs, highMs: r.serverDateMs + DATE_RESOLUTION_MS - r.sentMs };
}

/**
 * "Now" to stamp `active_from` from. The Regions compare `active_from` with their own (synchronised) clocks, so a
 * slow operator's clock must not start the window early: where the authority is surely ahead, the latest its clock
 * can be. A fast operator's clock only makes the wait longer, which is safe; a skew within the header's one second
 * cannot be told apart, and the act window's SDK second and the clock margin absorb it.
 */
export function stampNowMs(r: ClockReading | undefined, localNowMs: number): number {
  if (!r || unsafeOperatorClockStamp()) return localNowMs;
  const { lowMs, highMs } = clockSkewBounds(r);
  return lowMs > 0 ? localNowMs + highMs : localNowMs;
}

/**
 * Reads the authority's clock for the fence and says what it found; this machine's clock (`machineNow`: the local
 * stack's clock there) where it cannot.
 */
export async function fenceNowMs(
  p: Progress,
  authority: AuthoritySide,
  marginMs: number,
  machineNow: () => number = Date.now,
): Promise<number> {
  const reading = authority.clock
    ? await authority.clock().catch((err: Error) => {
        p.say(
          `  the authority's clock could not be read (${err.message}): active_from is on this machine's clock`,
        );
        return undefined;
      })
    : undefined;
  const now = machineNow();
  if (!reading) return now;
  const { lowMs, highMs } = clockSkewBounds(reading);
  if (lowMs > marginMs)
    p.say(
      `  this machine's clock is at least ${lowMs} ms behind the authority's: active_from is stamped on the authority's clock`,
    );
  else if (highMs < -marginMs)
    p.say(
      `  this machine's clock is at least ${-highMs} ms ahead of the authority's: the wait is that much longer`,
    );
  return stampNowMs(reading, now);
}

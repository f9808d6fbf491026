import type { RunRecord } from "../chaos/history";
import type { ClientSwitches } from "../chaos/schedule";
import { shrinkWith } from "../chaos/shrink";
import { playInWorld, type SimSchedule } from "./play-in-world";

/** fast-check reads this on the real clock: it checks the limit between candidates, outside their worlds. */
const SHRINK_WITHIN_MS = 5 * 60_000;

/**
 * Shrinks a violating schedule as `npm run chaos` does, each candidate played in the violation's own world (its seed
 * and index), so the smallest schedule found replays as exactly as the original.
 */
export function shrinkInWorld(
  at: SimSchedule,
  failing: RunRecord,
  client: ClientSwitches,
  log: (l: string) => void,
): Promise<RunRecord> {
  const play = async (schedule: Parameters<typeof playInWorld>[1]) =>
    (await playInWorld(at, schedule, client)).record;
  return shrinkWith(play, failing, log, SHRINK_WITHIN_MS);
}

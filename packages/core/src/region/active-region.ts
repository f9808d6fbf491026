import type { RegionRole } from "../config/switches";
import { Refusal } from "../payment/payment-errors";
import { countSignal } from "../signals/signal-sink";
import { mayDrainDeliver, unsafeRelayDropsUnread, unsafeTrustReadFromTheFuture } from "./delivery-window";
import { namesActive, type RegionControl, type RegionControlStore } from "./region-control";
import { type AuthorityRead, readBudgetMs, requestView } from "./request-view";

/** How fresh a read of the authority must be for each kind of act, and the clock margin on `active_from`. */
export interface GateTimes {
  /** Jobs, the relay and the worker decide on a read at most this old. */
  controlCacheMs: number;
  /** A write is checked against a read at most this old (the fence). */
  fenceCacheMs: number;
  /** The worst clock offset between the failover's clock and a Region's: `active_from` is waited out by this more. */
  clockMarginMs?: number;
  /** The longest one delivery runs (relay, worker): a drained Region stops starting them this long before the switch. */
  deliveryTimeoutMs?: number;
  /** The most of a request's time one read of the authority may take (it gets half of what is left, up to this). */
  authorityReadMs?: number;
}

/** A request past its deadline still gets this long to read the authority (a refusal needs a reason, not a timeout). */
const READ_FLOOR_MS = 500;

/** What a Region knows of the authority: whether it may act, and under which epoch. */
export interface ActiveRegion {
  /** The control, reused for up to `controlCacheMs`; throws a region-passive Refusal when it cannot be read. */
  control(): Promise<RegionControl | undefined>;
  /** The control read now (the resolver before each PSP call, resolve's epoch); throws when it cannot be read. */
  controlNow(): Promise<RegionControl | undefined>;
  /** Whether a read at most `controlCacheMs` old names this Region active; false when it cannot be read. */
  isActive(): Promise<boolean>;
  /**
   * Whether this Region may deliver what it committed: active, or drained by a planned failover until the longest
   * delivery before the switch (`drainStopMs`); throws a region-passive Refusal when the authority cannot be read.
   */
  mayDeliver(): Promise<boolean>;
  /** The control if a read made now names this Region active; undefined otherwise (or when unreadable). */
  activeNow(): Promise<RegionControl | undefined>;
  /**
   * Refuses (503 region-passive) unless a read at most `fenceCacheMs` old names this Region active; answers the
   * control read, whose epoch a durable guard carries.
   */
  assertActive(): Promise<RegionControl>;
}

type Read = AuthorityRead;

/**
 * The gate every acting part of a Region goes through. It fails closed: a Region that cannot read the
 * authority, or whose read does not name it, is passive, whatever it believed before (a Region that comes back
 * after a failure has no read younger than its absence, so it reads again before its first act).
 */
export function activeRegion(
  role: RegionRole,
  store: RegionControlStore,
  now: () => number,
  times: GateTimes,
  // `active_from` is a moment on the clock the failover stamped it by; the read cache's ages are durations. In AWS
  // both are the wall clock. Locally the stack's clock moves forward under tests and schedules (`POST /_local/clock`),
  // and the failover stamps on it (as the not-found settle time is measured on it), so the gate compares on it too.
  actNow: () => number = now,
): ActiveRegion {
  let cached: Read | undefined;
  const readStore = async (budgetMs?: number): Promise<Read> => {
    const t = now();
    const abortSignal = budgetMs === undefined ? undefined : AbortSignal.timeout(budgetMs);
    cached = await store.read(abortSignal ? { abortSignal } : undefined).then(
      (control) => ({ at: t, control }),
      (err: unknown) => {
        // The on-call signal of a Region cut off from its authority (it is passive while this lasts).
        countSignal("AuthorityReadFailures");
        const why = abortSignal?.aborted
          ? `no answer within ${budgetMs} ms, the request's share of its deadline`
          : ((err as Error)?.message ?? String(err));
        return { at: t, error: why };
      },
    );
    return cached;
  };
  // A read stamped after now (the clock stepped back) is not reusable: its age cannot be told.
  const reusable = (maxAgeMs: number) => {
    const age = cached === undefined ? -1 : now() - cached.at;
    const told = age >= 0 || unsafeTrustReadFromTheFuture();
    return cached !== undefined && maxAgeMs > 0 && told && age <= maxAgeMs ? cached : undefined;
  };
  const read = async (maxAgeMs: number): Promise<Read> => {
    const view = requestView();
    if (!view) return reusable(maxAgeMs) ?? readStore();
    // A request reads at most once, within a bounded share of its time; its later checks act on that read.
    view.read ??= Promise.resolve(
      reusable(maxAgeMs) ?? readStore(readBudgetMs(view, READ_FLOOR_MS, times.authorityReadMs ?? 2_000)),
    );
    return view.read;
  };
  const must = (r: Read) => {
    if (r.error !== undefined)
      throw passive(role, `the Region authority cannot be read from here (${r.error})`);
    return r.control;
  };
  const active = (r: Read) => namesActive(r.control, role, actNow(), times.clockMarginMs ?? 0);
  return {
    control: async () => must(await read(times.controlCacheMs)),
    controlNow: async () => must(await read(0)),
    isActive: async () => active(await read(times.controlCacheMs)),
    // A "no" is read again fresh before it is acted on: a relay that skipped a batch on a view from before this Region
    // was named would strand its events until a sweep, and a worker would hand them to the Region that is no longer
    // active. A "yes" needs no second read: acting on a read within the cache is the bound the act window covers.
    // An unreadable authority throws: the relay's batch fails and is retried, instead of waiting for a sweep.
    mayDeliver: async () => {
      const allowed = (r: Read) => active(r) || mayDrainDeliver(r.control, role, actNow(), times);
      if (allowed(await read(times.controlCacheMs))) return true;
      const fresh = await read(0);
      if (!unsafeRelayDropsUnread()) must(fresh);
      return allowed(fresh);
    },
    activeNow: async () => {
      const r = await read(0);
      return active(r) ? r.control : undefined;
    },
    assertActive: async () => {
      const r = await read(times.fenceCacheMs);
      if (active(r) && r.control) return r.control;
      throw passive(role, whyPassive(r, role, actNow()));
    },
  };
}

function whyPassive(r: Read, role: RegionRole, at: number): string {
  if (r.error !== undefined) return `the Region authority cannot be read from here (${r.error})`;
  const c = r.control;
  if (!c) return "the Region authority holds no control record";
  if (c.active === role)
    return `this Region takes over at ${new Date(c.active_from ?? 0).toISOString()}, ${Math.max(0, (c.active_from ?? 0) - at)} ms from now (epoch ${c.epoch})`;
  return `the authority names the ${c.active} Region (epoch ${c.epoch})`;
}

function passive(role: RegionRole, why: string): Refusal {
  return new Refusal(
    "region-passive",
    `this Region (${role}) is passive: ${why}; send requests to the active Region`,
    1,
  );
}

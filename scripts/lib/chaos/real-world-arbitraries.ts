import fc from "fast-check";
import {
  orderIndex,
  orderParties,
  orderWithDeclines,
  payFault,
  regionStep,
  step,
  twoRegionSchedules,
} from "./arbitraries";
import { ASYNC_CRASH_POINTS, type OrderSpec, type Schedule, type Step } from "./schedule";

// What the real world adds to the classic nemesis (issue 42, item 3), in a generator of its own so that the others
// draw, for a seed, the schedules they always drew:
// - replication stalls (both Regions running) with a refund kept in flight at the PSP's edge across it (issue 40);
// - the PSP's lookup by reference lags, for a resolve or through a resolver's pass, mostly after a failover;
// - the mapping's stream reads are throttled as a payment's records arrive, so its events reach the relay late;
// - a resolver's pass is paused at a PSP call while its Region is cut off and failed over, and goes on after;
// - an order in four pays with a card whose refunds Stripe fails later (pm_card_refundFail; Stripe's dialect only);
// - the on-call engineer's clock is off by seconds when they fail over (a laptop 5 or 30 s slow or fast).

// A record with the card's flag as an optional key (no map), so that the shrinker can shrink a given schedule.
const realWorldOrder: fc.Arbitrary<OrderSpec> = fc.oneof(
  { weight: 3, arbitrary: orderWithDeclines },
  {
    weight: 1,
    arbitrary: fc.record({
      ...orderParties,
      declined: fc.constant(false),
      refundFails: fc.constant(true),
    }),
  },
);

const laggingResolve: fc.Arbitrary<Step> = fc.record({
  op: fc.constant("resolve" as const),
  order: orderIndex,
  lookupLag: fc.constant(true),
});

const laggingResolverPass: fc.Arbitrary<Step> = fc.constant({
  op: "job" as const,
  job: "resolver" as const,
  lookupLag: true,
});

const resolverPassPausedAcrossCut: fc.Arbitrary<Step> = fc.constant({
  op: "job" as const,
  job: "resolver" as const,
  pausedAcrossCut: true,
});

const payWhileStreamThrottled: fc.Arbitrary<Step> = fc.record(
  {
    op: fc.constant("pay" as const),
    order: orderIndex,
    fault: payFault,
    asyncCrash: fc.option(fc.constantFrom(...ASYNC_CRASH_POINTS), { nil: undefined, freq: 3 }),
    streamThrottle: fc.constant(true),
  },
  { requiredKeys: ["op", "order", "fault", "streamThrottle"] },
);

const refundInFlight: fc.Arbitrary<Step> = fc.record({
  op: fc.constant("cancel" as const),
  order: orderIndex,
  fault: fc.constant("psp_outage" as const),
});

const realWorldClientStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: step },
  { weight: 1, arbitrary: refundInFlight },
  { weight: 1, arbitrary: laggingResolve },
  { weight: 1, arbitrary: laggingResolverPass },
  { weight: 1, arbitrary: payWhileStreamThrottled },
  { weight: 1, arbitrary: resolverPassPausedAcrossCut },
);

const failoverOnAClockOff: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom("region_fail" as const, "region_partition" as const),
  operatorClockOffMs: fc.constantFrom(-30_000, -5_000, 5_000, 30_000),
});

// Replication stalls one Region step in six, and the on-call's clock is off for one in six; a refund kept in flight
// across a stall is drawn among the client steps.
const realWorldRegionStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: regionStep },
  { weight: 1, arbitrary: fc.constant({ op: "replication_stall" as const }) },
  { weight: 1, arbitrary: failoverOnAClockOff },
);

/**
 * Two-Region schedules with the classic nemesis and what the real world adds (`npm run sim`'s default plays them
 * on one two-Region schedule in two): stalled replication with a refund in flight, lagging lookups, throttled
 * stream reads. Each is played through the same `/_local` faults on the emulator stack and in the simulation.
 */
export const realWorldScheduleArbitrary: fc.Arbitrary<Schedule> = realWorldShrinkable().map(lagAfterFailover);

/**
 * The same schedules before the lag after a failover is set: a filter, not a map, so that fast-check can shrink a
 * violating real-world schedule given as an example (every step it holds is drawn here too).
 */
export function realWorldShrinkable(): fc.Arbitrary<Schedule> {
  return twoRegionSchedules(realWorldRegionStep, realWorldClientStep, realWorldOrder);
}

/** Whether a schedule holds a step only the real-world generator draws (for the shrinker's choice). */
export function drawsRealWorld(s: Schedule): boolean {
  if (s.orders.some((o) => o.refundFails)) return true;
  return s.steps.some(
    (st) =>
      (st.op === "resolve" && st.lookupLag) ||
      (st.op === "job" && (st.lookupLag || st.pausedAcrossCut)) ||
      (st.op === "pay" && st.streamThrottle) ||
      ((st.op === "region_fail" || st.op === "region_partition") && st.operatorClockOffMs !== undefined) ||
      (st.op === "cancel" && st.fault === "psp_outage"),
  );
}

/**
 * A resolve right after a failure or a partition looks up through a lagging index: the PSP's index has not caught
 * up with what the failed Region charged just before it went (the trace of issue 40's review).
 */
function lagAfterFailover(s: Schedule): Schedule {
  const steps = s.steps.map((st, i) => {
    const before = s.steps[i - 1];
    const afterCut = before?.op === "region_fail" || before?.op === "region_partition";
    return afterCut && st.op === "resolve" ? { ...st, lookupLag: true } : st;
  });
  return { ...s, steps };
}

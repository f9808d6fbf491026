import { advanceWhenPspIdle } from "./advance-when-psp-idle";
import type { Answer, ChaosApi } from "./chaos-api";
import { CHAOS_TIMING } from "./chaos-timing";
import { History } from "./history";
import {
  bringBackRegions,
  failActiveRegion,
  failoverAgain,
  followActiveRegion,
  partitionActiveRegion,
  resumeReplication,
} from "./region-nemesis";
import type { RegionsView } from "./resources";
import type { AsyncCrashPoint, CancelFault, ClientSwitches, PayFault, Schedule, Step } from "./schedule";
import {
  CANCEL_OUTAGE_MS,
  LOOKUP_LAG_FAULT,
  LOOKUP_LAGS,
  PASS_PAUSE_FAULT,
  payFaultBody,
  STREAM_THROTTLE_MS,
} from "./step-faults";

export { CHAOS_TIMING } from "./chaos-timing";

/** The names one run uses: its own callers, merchants and keys, so that runs on one stack never meet. */
export interface RunNames {
  callers: string[];
  merchants: string[];
}

/** What the clients knew at the end: each order's keys (oldest first) and the payment ids they heard. */
export interface ClientView {
  names: RunNames;
  keys: string[][];
  paymentIds: Array<string | undefined>;
}

/** Plays one schedule's steps against a stack, recording the history; the checker judges afterwards. */
export async function runSchedule(
  api: ChaosApi,
  schedule: Schedule,
  runId: string,
  switches: ClientSwitches = {},
  history = new History(),
): Promise<{ history: History; view: ClientView }> {
  const names: RunNames = {
    callers: [0, 1, 2].map((i) => `ch${runId}-c${i}`),
    merchants: [0, 1].map((i) => `ch${runId}-m${i}`),
  };
  const view: ClientView = {
    names,
    keys: schedule.orders.map(() => []),
    paymentIds: schedule.orders.map(() => undefined),
  };
  await followActiveRegion(api);
  const used = new Set(schedule.orders.map((o) => o.caller));
  for (const c of used) await api.registerDevice(names.callers[c] as string);
  // A phone registers its device long before it pays: with two Regions, the registration has replicated.
  await replicated(api);
  const player = new Player(api, schedule, runId, switches, history, view);
  for (const [index, step] of schedule.steps.entries()) await player.play(step, index);
  await api.local("DELETE", "/faults");
  return { history, view };
}

class Player {
  constructor(
    private readonly api: ChaosApi,
    private readonly schedule: Schedule,
    private readonly runId: string,
    private readonly switches: ClientSwitches,
    private readonly history: History,
    private readonly view: ClientView,
  ) {}

  /** Plays one step; its index picks a partition's shape, so that a schedule replays the same without a new draw. */
  async play(step: Step, index: number): Promise<void> {
    switch (step.op) {
      case "pay":
        return this.pay(step.order, step.fault, step.asyncCrash, step.streamThrottle);
      case "resolve":
        return void (await this.resolve(step.order, step.lookupLag));
      case "new_key":
        return this.newKey(step.order);
      case "cancel":
        return this.cancel(step.order, step.fault);
      case "later":
        this.history.add({ process: "nemesis", type: "fault", op: `clock+${step.seconds}s` });
        return void (await advanceWhenPspIdle(this.api, step.seconds));
      case "job":
        return this.job(step.job, step.lookupLag, step.pausedAcrossCut);
      case "redeliver":
        return this.redeliver(step.order);
      case "region_fail":
        return failActiveRegion(this.api, this.history, step.operatorClockOffMs);
      case "region_recover":
        await bringBackRegions(this.api, this.history);
        return resumeReplication(this.api, this.history);
      case "replication_stall":
        this.history.fired("replication_stall", "replication between the Regions paused");
        return void (await this.api.local("POST", "/replication", { paused: true }));
      case "region_partition":
        // Every other partition in AWS's shape (the operator still reaches the cut-off Region): drawn from the
        // step's place, not from the generator, so that a seed draws the schedules it always drew.
        return partitionActiveRegion(this.api, this.history, index % 2 === 1, step.operatorClockOffMs);
      case "failover_again":
        return failoverAgain(this.api, this.history);
      case "reroute":
        this.history.add({ process: "nemesis", type: "info", op: "reroute" });
        return followActiveRegion(this.api);
    }
  }

  private order(i: number) {
    const index = i % this.schedule.orders.length;
    const spec = this.schedule.orders[index];
    if (!spec) throw new Error("a schedule needs at least one order");
    const caller = this.view.names.callers[spec.caller] as string;
    const body = {
      order_id: `o${index}`,
      amount: spec.amount + index,
      currency: "USD",
      payment_method: spec.declined
        ? "pm_card_declined"
        : spec.refundFails
          ? "pm_card_refundFail"
          : "pm_card_visa",
      merchant_id: this.view.names.merchants[spec.merchant],
    };
    return { index, caller, body, process: `client-${spec.caller}` };
  }

  /** The order's key: journaled before the first send and kept for every retry (unless the switch says not). */
  private keyFor(index: number, fresh: boolean): string {
    const keys = this.view.keys[index] as string[];
    if (keys.length === 0 || fresh) keys.push(`ch${this.runId}-o${index}-k${keys.length}`);
    return keys[keys.length - 1] as string;
  }

  private heard(index: number, a: Answer): void {
    if (typeof a.body.payment_id === "string") this.view.paymentIds[index] = a.body.payment_id;
  }

  private async pay(
    i: number,
    fault: PayFault,
    asyncCrash?: AsyncCrashPoint,
    streamThrottle?: boolean,
  ): Promise<void> {
    const o = this.order(i);
    const key = this.keyFor(o.index, this.switches.newKeyPerRetry === true);
    const armed = {
      ...payFaultBody(fault),
      ...(asyncCrash && fault.kind !== "crash" ? { crash_at: asyncCrash } : {}),
      ...(streamThrottle ? { stream_read_throttle_ms: STREAM_THROTTLE_MS } : {}),
    };
    await this.arm(armed);
    let ran = false;
    const send = async (process: string) => {
      this.history.add({ process, type: "invoke", op: "pay", order: o.index, key });
      const a = await this.api.pay(o.caller, key, o.body);
      this.heard(o.index, a);
      this.history.answered(process, "pay", o.index, key, a);
      ran ||= a.status !== 409 && a.status !== 422 && a.status !== 400;
    };
    if (fault.kind === "paused_owner") {
      // The owner freezes after the PSP answered; its retry arrives after the lease and the takeover margin.
      const first = send(o.process);
      await sleep(CHAOS_TIMING.deadlineMs + CHAOS_TIMING.takeoverMarginMs + 400);
      await Promise.all([first, send(`${o.process}-retry`)]);
    } else await send(o.process);
    // The relay and the worker reach an async crash point a moment after the answer; a refused pay never does.
    if (armed.crash_at && asyncCrash && ran) await this.waitTaken("crash_at", 2_500);
    // The mapping meets the throttle at its next read, a moment after the payment's records are written.
    if (streamThrottle && ran) await this.waitTaken("stream_read_throttle_ms", 2_500);
    await this.settleFaults(armed);
  }

  /**
   * A scheduled job's pass, with the PSP's lookups by reference lagging through it when the step says so; paused
   * across a cut, its Region is cut off (the operator still reaches it) and failed over while its first PSP call is
   * held, so the pass goes on after the fence (the mid-pass trace of issue 40).
   */
  private async job(
    job: "resolver" | "sweeps",
    lookupLag?: boolean,
    pausedAcrossCut?: boolean,
  ): Promise<void> {
    const lag = lookupLag ? LOOKUP_LAG_FAULT : {};
    const pause = pausedAcrossCut ? PASS_PAUSE_FAULT : {};
    await this.arm(lag, LOOKUP_LAGS.pass);
    await this.arm(pause);
    this.history.add({ process: "scheduler", type: "invoke", op: job });
    const pass = this.api.local("POST", `/run/${job}`).catch((err: Error) => err);
    if (pausedAcrossCut) {
      await sleep(200);
      await partitionActiveRegion(this.api, this.history, true);
    }
    const out = await pass;
    if (out instanceof Error)
      this.history.add({ process: "scheduler", type: "info", op: job, detail: out.message });
    await this.settleFaults({ ...lag, ...pause });
  }

  /** Arms each fault for `n` occurrences. */
  private async arm(armed: Record<string, unknown>, n = 1): Promise<void> {
    for (const [name, value] of Object.entries(armed))
      await this.api.local("POST", "/faults", { [name]: value, n });
  }

  private async resolve(i: number, lookupLag?: boolean): Promise<string | undefined> {
    const o = this.order(i);
    const key = this.keyFor(o.index, false);
    const armed = lookupLag ? LOOKUP_LAG_FAULT : {};
    await this.arm(armed, LOOKUP_LAGS.resolve);
    this.history.add({ process: o.process, type: "invoke", op: "resolve", order: o.index, key });
    const a = await this.api.resolve(o.caller, key);
    this.heard(o.index, a);
    this.history.answered(o.process, "resolve", o.index, key, a);
    await this.settleFaults(armed);
    return a.status === 200 ? String(a.body.state) : undefined;
  }

  /** Resolve, and on VOID pay the same order with a new key (the app's "try again"). */
  private async newKey(i: number): Promise<void> {
    const state = await this.resolve(i);
    if (state !== "VOID") return;
    const o = this.order(i);
    this.keyFor(o.index, true);
    await this.pay(i, { kind: "none" });
  }

  private async cancel(i: number, fault: CancelFault): Promise<void> {
    const o = this.order(i);
    const paymentId = this.view.paymentIds[o.index];
    if (!paymentId) return;
    const armed: Record<string, unknown> =
      fault === "psp_lose_reply"
        ? { psp_lose_reply: 1 }
        : fault === "crash"
          ? { crash_at: "cancel.after_psp" }
          : {};
    await this.arm(armed);
    // An outage, not a count: the refund is refused at the PSP's edge and stays in flight; it ends with the cancel.
    if (fault === "psp_outage") await this.api.local("POST", "/faults", { psp_outage_ms: CANCEL_OUTAGE_MS });
    this.history.add({
      process: o.process,
      type: "invoke",
      op: "cancel",
      order: o.index,
      payment_id: paymentId,
    });
    const a = await this.api.cancel(o.caller, paymentId);
    this.history.answered(o.process, "cancel", o.index, undefined, {
      ...a,
      body: { payment_id: paymentId, ...a.body },
    });
    await this.settleFaults(armed);
    if (fault === "psp_outage") {
      await this.api.local("DELETE", "/faults");
      this.history.fired("psp_outage_at_cancel", "the refund refused at the PSP's edge: in flight, not sent");
    }
  }

  private async redeliver(i: number): Promise<void> {
    const paymentId = this.view.paymentIds[i % this.schedule.orders.length];
    if (!paymentId) return;
    const r = await this.api.local<{ redelivered: number }>("POST", "/psp/redeliver", {
      reference: paymentId,
    });
    if (r.redelivered > 0) this.history.fired("webhook_redeliver");
  }

  /** Waits until a fault has been taken (the relay or worker reached its crash point), or gives up. */
  private async waitTaken(name: string, withinMs: number): Promise<void> {
    const until = Date.now() + withinMs;
    while (Date.now() < until) {
      const armed = await this.api.local<Record<string, unknown>>("GET", "/faults");
      if (!(name in armed)) return;
      await sleep(50);
    }
  }

  /** Counts the faults that fired and clears those that did not, so that none leaks into a later step. */
  private async settleFaults(armed: Record<string, unknown>): Promise<void> {
    if (Object.keys(armed).length === 0) return;
    // One call clears and answers what was left: a fault taken between a read and a clear is never lost.
    const { cleared } = await this.api.local<{ cleared: Record<string, unknown> }>("DELETE", "/faults");
    for (const [name, value] of Object.entries(armed))
      if (!(name in cleared)) this.history.fired(name === "crash_at" ? `crash_at ${String(value)}` : name);
  }
}

/** Waits until the replication between the Regions has nothing left to ship (at once with one Region). */
async function replicated(api: ChaosApi, withinMs = 20_000): Promise<void> {
  const { replication } = await api.local<RegionsView>("GET", "/regions");
  if (!replication.running) return;
  // A write the replicator has not read from its stream yet is not counted anywhere: give it a lag and a poll.
  await sleep(replication.lag_ms + 250);
  const until = Date.now() + withinMs;
  while (!(await api.local<RegionsView>("GET", "/regions")).replication.idle && Date.now() < until)
    await sleep(100);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

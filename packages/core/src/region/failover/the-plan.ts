import type { RegionRole } from "../../config/switches";
import type { Numbers } from "./pre-checks";
import type { Progress } from "./progress";

/** Prints what a run would do, step by step, without doing it. */
export function printPlan(
  p: Progress,
  mode: string,
  epoch: number,
  from: RegionRole,
  to: RegionRole,
  n: Numbers,
  actWindowMs: number,
  old: { oldAnswers: boolean } = { oldAnswers: false },
): void {
  const steps =
    mode === "already-active"
      ? [`nothing to switch: the authority names ${to} already`]
      : mode === "planned"
        ? [
            `measure the replication lag ${from} → ${to} with a canary item (writes and deletes one ledger item)`,
            `fence ${from} through the authority: write {active: ${to}, epoch: ${epoch}, from: now + max(${actWindowMs} ms act window, 10 × lag)}; ${from} refuses writes from its next read and relays what it committed until then`,
            `drain ${from}: its ${n.open_claims ?? "?"} in-flight claim(s) end, a canary shows replication caught up; its ${n.outbox_backlog ?? "?"} outbox item(s) relay or are left for ${to}'s sweep`,
          ]
        : [
            `fence ${from} through the authority: write {active: ${to}, epoch: ${epoch}, from: now + ${actWindowMs} ms}; ${from} cannot act on it even when it comes back`,
            `wait out the act window (${actWindowMs} ms: control cache + longest function timeout + SDK retries)`,
          ];
  steps.push(
    `resume in ${to}: run its resolver (derived PSP keys) and outbox sweep (stored event ids) until nothing is unknown`,
    `verify: every PSP charge of the last hours has a row in ${to} that agrees (charged, refunded or not, amount); without the PSP's secrets nothing is verified (exit 3)`,
  );
  p.say(`dry run, ${mode} failover ${from} → ${to}; the plan (nothing was changed):`);
  for (const [i, s] of steps.entries()) p.say(`  ${i + 1}. ${s}`);
  if (mode === "forced") printForcedWarning(p, from, to, old.oldAnswers);
}

/** What a forced failover makes safe and what may repeat or wait, for the engineer who asked for it. */
export function printForcedWarning(p: Progress, from: RegionRole, to: RegionRole, oldAnswers = false): void {
  // An old Region that answers the operator may still be cut off from its peer and the authority (AWS's partition):
  // forced is what the engineer asked for, and the output says so rather than draining what cannot replicate.
  const why = oldAnswers
    ? `forced although ${from} answers this machine (--force): it is not drained (cut off from ${to}, its writes would not arrive)`
    : `forced: ${from} does not answer, so it is not drained`;
  for (const line of [
    `${why}; it is fenced through the authority. What that and the derived ids make safe:`,
    `  - ${from} acts only on a read of the authority naming it: when it comes back, by itself or not, it is passive`,
    "  - a charge replayed by the resolver or a phone's retry uses {payment_id}:charge: the PSP answers with the same charge",
    "  - an event re-sent from the outbox carries {payment_id}:{STATE}: the worker's inbox applies it once",
    "  - a push re-sent replaces the one shown (replace id = payment_id)",
    "What may wait:",
    `  - ${from}'s last writes not yet replicated (about one lag) are not in ${to} until it ${oldAnswers ? "heals" : "comes back"}: a payment taken`,
    `    there then is unknown or absent in ${to} until the phone retries (same key) or the Region comes back`,
    "  - an email sent there whose SENT mark had not replicated is sent once more from here",
  ])
    p.say(line);
}

import type { ClientRequest } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Clock } from "@eo/core";
import { referenceOf, type WebhookEvent } from "./events";
import type { PspFaultName, WebhookDelivery, WebhookRetry } from "./options";
import { signWebhook } from "./signature";

/** Delivers events at least once, retrying with capped exponential backoff until a 2xx. */
export interface WebhookSender {
  /** Keeps the event and delivers it, shaped by the webhook faults armed when it is sent. */
  send(event: WebhookEvent): void;
  /** Sends every kept event of `reference` (all when absent) again, oldest first; returns how many. */
  redeliver(reference?: string): number;
  /** Every event sent so far, oldest first (copies). */
  events(): WebhookEvent[];
  setUrl(url: string | undefined): void;
  deliveries(): WebhookDelivery[];
  /** Deliveries waiting for their time or for an answer. */
  pending(): number;
  stop(): void;
}

/** What the sender needs: where to post, how to sign and how to back off. */
export interface SenderOptions {
  url: string | undefined;
  secret: string;
  retry: WebhookRetry;
  clock: Clock;
  /** Consulted once per event for `psp_webhook_early`, `psp_webhook_late_ms` and `psp_webhook_twice`. */
  takeFault: (name: PspFaultName) => number | undefined;
  /** `Psp-Signature` for the generic dialect, `Stripe-Signature` for Stripe's: the same scheme under either name. */
  signatureHeader?: string;
}

/** An event as sent: its body is fixed once so that every delivery carries the same bytes. */
interface KeptEvent {
  event: WebhookEvent;
  body: string;
}

// A receiver that never answers must not hold a delivery forever; it counts as a failed attempt.
const ATTEMPT_TIMEOUT_MS = 10_000;

/** The wait before attempt `attempt + 1`: baseMs, 2·baseMs, 4·baseMs … never more than maxMs. */
export function backoffMs(retry: WebhookRetry, attempt: number): number {
  return Math.min(retry.baseMs * 2 ** (attempt - 1), retry.maxMs);
}

function post(
  url: string,
  body: string,
  signature: [string, string],
  done: (s: number | "error") => void,
): ClientRequest {
  const request = url.startsWith("https:") ? httpsRequest : httpRequest;
  const req = request(url, {
    method: "POST",
    agent: false,
    timeout: ATTEMPT_TIMEOUT_MS,
    headers: {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      [signature[0]]: signature[1],
      Connection: "close",
    },
  });
  let settled = false;
  const finish = (s: number | "error") => {
    if (!settled) done(s);
    settled = true;
  };
  req.on("response", (res) => {
    res.resume();
    res.on("end", () => finish(res.statusCode ?? "error"));
    res.on("error", () => finish("error"));
  });
  req.on("timeout", () => req.destroy());
  req.on("error", () => finish("error"));
  req.end(body);
  return req;
}

function acknowledged(status: number | "error"): boolean {
  return typeof status === "number" && status >= 200 && status < 300;
}

/** The sender behind createWebhookSender; its state is what stop() must tear down. */
class RetryingSender implements WebhookSender {
  private stopped = false;
  private readonly log: WebhookDelivery[] = [];
  private readonly kept: KeptEvent[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<ClientRequest>();

  constructor(
    private readonly opts: SenderOptions,
    private url: string | undefined,
  ) {}

  send(event: WebhookEvent): void {
    // The body is fixed once: every attempt carries the same event id and bytes, only the signature changes.
    const kept = { event, body: JSON.stringify(event) };
    this.kept.push(kept);
    const first = this.firstDelayMs();
    // Twice means two independent deliveries, each retried to a 2xx, as a PSP that lost track of its first send.
    const copies = this.opts.takeFault("psp_webhook_twice") !== undefined ? 2 : 1;
    for (let i = 0; i < copies; i++) this.deliver(kept, first);
  }

  redeliver(reference?: string): number {
    const chosen = this.kept.filter((k) => reference === undefined || referenceOf(k.event) === reference);
    for (const k of chosen) this.deliver(k, 0);
    return chosen.length;
  }

  events(): WebhookEvent[] {
    return this.kept.map((k) => structuredClone(k.event));
  }

  setUrl(url: string | undefined): void {
    if (url !== undefined) new URL(url); // throws now, not inside a later charge
    this.url = url;
  }

  deliveries(): WebhookDelivery[] {
    return this.log.map((d) => ({ ...d }));
  }

  pending(): number {
    return this.timers.size + this.inFlight.size;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const r of this.inFlight) r.destroy();
    this.inFlight.clear();
  }

  // Early wins over late when both are armed, so that each fault lands on some event rather than one being wasted.
  private firstDelayMs(): number {
    if (this.opts.takeFault("psp_webhook_early") !== undefined) return 0;
    const late = this.opts.takeFault("psp_webhook_late_ms");
    return late ?? this.opts.retry.firstMs ?? 0;
  }

  private deliver({ event, body }: KeptEvent, firstMs: number): void {
    if (firstMs > 0) this.later(firstMs, () => this.attempt(event, body, 1));
    else this.attempt(event, body, 1);
  }

  private attempt(event: WebhookEvent, body: string, n: number): void {
    if (this.stopped || this.url === undefined) return;
    // Each attempt is signed afresh so that a late retry still falls inside the receiver's tolerance.
    const signature = signWebhook(this.opts.secret, body, Math.floor(this.opts.clock.now() / 1000));
    const done = (status: number | "error", req?: ClientRequest): void => {
      if (req) this.inFlight.delete(req);
      if (this.stopped) return;
      this.log.push({ eventId: event.id, attempt: n, status });
      if (!acknowledged(status) && n < this.opts.retry.maxAttempts) this.schedule(event, body, n + 1);
    };
    try {
      const header: [string, string] = [this.opts.signatureHeader ?? "Psp-Signature", signature];
      const req: ClientRequest = post(this.url, body, header, (status) => done(status, req));
      this.inFlight.add(req);
    } catch {
      // A URL the HTTP client rejects is a failed attempt, never an error in the charge that emitted it.
      done("error");
    }
  }

  private schedule(event: WebhookEvent, body: string, next: number): void {
    this.later(backoffMs(this.opts.retry, next - 1), () => this.attempt(event, body, next));
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }
}

/** Creates a sender; it drops events while no URL is set, like a PSP with no endpoint configured. */
export function createWebhookSender(opts: SenderOptions): WebhookSender {
  const sender = new RetryingSender(opts, undefined);
  sender.setUrl(opts.url);
  return sender;
}

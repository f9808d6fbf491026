import {
  type ClientEvent,
  createPaymentsClient,
  DEFAULT_HORIZON_MS,
  memoryJournal,
  type PaymentsClient,
} from "@eo/client";
import type { PaymentRequest } from "@eo/contract";

/** What one buyer did and heard, times in epoch ms (real time). */
export interface PhoneRecord {
  caller: string;
  order: PaymentRequest;
  /** When the arrival was due: latencies count from here, so a late start is never hidden (coordinated omission). */
  intendedAt: number;
  key?: string;
  payment_id?: string;
  /** Every payment id the phone heard of (a client that changes keys makes several). */
  payment_ids: Set<string>;
  firstAnswerAt?: number;
  /** The first answer's status, or "timeout" / "network". */
  firstStatus?: string;
  finalAt?: number;
  outcome?: "succeeded" | "declined" | "voided" | "processing" | "refused";
  attempts: number;
  /** Whether the check has already asked "did it go through?" for it after the run (once is enough). */
  askedAfterRun?: boolean;
  /** Every answer's status, for the summary (503s from the budget, 409s, 202s). */
  statuses: string[];
}

/** How often a buyer asks "did it go through?" once the client's horizon has passed, for as long again as it. */
const RESOLVE_EVERY_MS = 3_000;

/** A phone per caller: the project's client with its journal, so every retry carries the key born before the first send. */
export class Phones {
  private readonly clients = new Map<string, PaymentsClient>();
  private readonly listeners = new Map<string, (e: ClientEvent) => void>();
  /** The client's answer events name the key, not the order; the key-made event links the two. */
  private readonly orderOfKey = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly tokenOf: (caller: string) => Promise<string>,
    private readonly opts: { horizonMs?: number; unsafeNewKeyPerRetry?: boolean } = {},
  ) {}

  /** One tap: pay, and when the client gives up with "processing", resolve until final or the bound. */
  async tap(caller: string, order: PaymentRequest, intendedAt: number, onFirst: (r: PhoneRecord) => void) {
    const rec: PhoneRecord = { caller, order, intendedAt, attempts: 0, statuses: [], payment_ids: new Set() };
    this.listeners.set(order.order_id, (e) => this.observe(rec, e, onFirst));
    const client = this.clientOf(caller);
    const paid = await client.pay(order);
    rec.key = paid.key ?? rec.key;
    if ("payment_id" in paid && paid.payment_id) rec.payment_id = paid.payment_id;
    if (rec.payment_id) rec.payment_ids.add(rec.payment_id);
    rec.outcome = paid.kind;
    if (paid.kind === "processing") await this.resolveUntilFinal(client, rec);
    if (rec.outcome !== "processing" && rec.outcome !== "refused") rec.finalAt = Date.now();
    this.listeners.delete(order.order_id);
    if (rec.key) this.orderOfKey.delete(rec.key);
    return rec;
  }

  private async resolveUntilFinal(client: PaymentsClient, rec: PhoneRecord): Promise<void> {
    const until = rec.intendedAt + 2 * (this.opts.horizonMs ?? DEFAULT_HORIZON_MS);
    while (Date.now() < until) {
      const r = await client.resolve(rec.order.order_id);
      if ("payment_id" in r && r.payment_id) {
        rec.payment_id = r.payment_id;
        rec.payment_ids.add(r.payment_id);
      }
      if (r.kind !== "processing") {
        rec.outcome = r.kind;
        return;
      }
      await new Promise((done) => setTimeout(done, RESOLVE_EVERY_MS));
    }
  }

  private observe(rec: PhoneRecord, e: ClientEvent, onFirst: (r: PhoneRecord) => void): void {
    if (e.type === "key-made") rec.key = e.key;
    if (e.type !== "answer" && e.type !== "no-answer") return;
    if (e.type === "answer" && e.op === "pay") rec.attempts += 1;
    const status = e.type === "answer" ? String(e.status) : e.why;
    if (e.op === "pay") rec.statuses.push(status);
    if (e.type === "answer" && e.payment_id) rec.payment_ids.add(e.payment_id);
    if (rec.firstAnswerAt === undefined && e.op === "pay") {
      rec.firstAnswerAt = Date.now();
      rec.firstStatus = status;
      onFirst(rec);
    }
  }

  private route(e: ClientEvent): void {
    if ((e.type === "key-made" || e.type === "key-reused") && e.key) this.orderOfKey.set(e.key, e.order_id);
    const order = "order_id" in e ? e.order_id : "key" in e && e.key ? this.orderOfKey.get(e.key) : undefined;
    if (order) this.listeners.get(order)?.(e);
  }

  private clientOf(caller: string): PaymentsClient {
    let client = this.clients.get(caller);
    if (!client) {
      client = createPaymentsClient({
        baseUrl: this.baseUrl,
        token: () => this.tokenOf(caller),
        journal: memoryJournal(),
        onEvent: (e) => this.route(e),
        ...(this.opts.horizonMs ? { horizonMs: this.opts.horizonMs } : {}),
        ...(this.opts.unsafeNewKeyPerRetry ? { unsafeTestOnly: { newKeyPerRetry: true } } : {}),
      });
      this.clients.set(caller, client);
    }
    return client;
  }
}

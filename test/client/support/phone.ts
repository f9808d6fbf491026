import { randomUUID } from "node:crypto";
import { createPaymentsClient, memoryJournal, type PaymentsClientOptions } from "@eo/client";
import type { PaymentRequest } from "@eo/contract";
import { mintToken } from "../../../packages/local/src/runtime/jwt";

/** A charge as `GET /_local/psp/charges` lists it. */
export interface Charge {
  id: string;
  idempotency_key: string;
  reference: string;
}

/** The buyer's phone: the shipped client with the phone's 10 s timeout, talking to the local API as caller u1. */
export function phone(apiUrl: string, over: Partial<PaymentsClientOptions> = {}) {
  return createPaymentsClient({
    baseUrl: apiUrl,
    token: () => mintToken("u1"),
    journal: memoryJournal(),
    timeoutMs: 10_000,
    ...over,
  });
}

/** A new order of $30.00 for merchant m1, under its own order reference. */
export const anOrder = (): PaymentRequest => ({
  order_id: `order-${randomUUID()}`,
  amount: 3000,
  currency: "USD",
  payment_method: "pm_1",
  merchant_id: "m1",
});

async function local<T>(apiUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${apiUrl}/_local${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} /_local${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json().catch(() => undefined)) as T;
}

/** Arms faults at the local stack (`POST /_local/faults`). */
export const armFaults = (apiUrl: string, faults: Record<string, number>) =>
  local(apiUrl, "POST", "/faults", faults);
export const clearFaults = (apiUrl: string) => local(apiUrl, "DELETE", "/faults");

/** The PSP's charges, to count what a story charged: `since` leaves out those made before it. */
export async function charges(apiUrl: string, since: Charge[] = []): Promise<Charge[]> {
  const before = new Set(since.map((c) => c.id));
  const all = await local<Charge[]>(apiUrl, "GET", "/psp/charges");
  return all.filter((c) => !before.has(c.id));
}

/** Waits until `ms` have passed since `startedAt` (a PSP delay is real time). */
export async function until(startedAt: number, ms: number): Promise<void> {
  const left = startedAt + ms - Date.now();
  if (left > 0) await new Promise((done) => setTimeout(done, left));
}

/** A charge as the PSP keeps it; `account` is the secret key that created it and never leaves the PSP. */
export interface Charge {
  id: string;
  object: "charge";
  amount: number;
  currency: string;
  payment_method: string;
  reference: string;
  idempotency_key: string;
  /** `pending` only for a PaymentIntent waiting for the customer (`requires_action`) or still `processing`. */
  status: "succeeded" | "failed" | "pending";
  /** Why a failed charge was declined, as its reply, webhook and lookup all report it. */
  decline_code?: string;
  refunded: boolean;
  created: number;
  /** Set on a PaymentIntent (id `pi_…`), the charge record of Stripe's dialect. */
  stripe?: IntentExtras;
}

/** What a PaymentIntent keeps beyond a charge: its charge's id, its metadata and when, to the ms, it was made. */
export interface IntentExtras {
  latest_charge: string;
  metadata: Record<string, string>;
  /** By the PSP's clock; search finds the intent only `searchLagMs` after it. */
  createdMs: number;
  /** Why a `pending` intent is not final: the customer must authenticate, or the payment method is slow. */
  waiting?: "requires_action" | "processing";
  /** The PaymentMethod's id as Stripe shows it: a new one for each use of a test shortcut. */
  paymentMethodId?: string;
  /** The refunds of the intent's charge, oldest first (the same records as the ledger's). */
  refunds?: Refund[];
  /** The customer the intent was made for, which lets its PaymentMethod be used again. */
  customer?: string;
  /** When (PSP clock, ms) a `processing` intent succeeds by itself. */
  succeedsAtMs?: number;
}

/** A refund's status: Stripe's own; a generic refund is always `succeeded`. */
export type RefundStatus = "pending" | "succeeded" | "failed" | "canceled";

/** A change of a refund's status the PSP will make by itself at `atMs` (by its clock). */
export interface RefundChange {
  atMs: number;
  status: "succeeded" | "failed";
  failure_reason?: string;
}

/** A refund as the PSP keeps it. */
export interface Refund {
  id: string;
  object: "refund";
  charge: string;
  amount: number;
  currency: string;
  reference?: string;
  idempotency_key: string;
  status: RefundStatus;
  created: number;
  /** Stripe's metadata of a refund made in its dialect. */
  metadata?: Record<string, string>;
  /** Why a `pending` refund waits (Stripe's `pending_reason`), such as `insufficient_funds`. */
  pending_reason?: string;
  /** Why a refund failed after it was accepted (Stripe's `failure_reason`). */
  failure_reason?: string;
  /** The change due later, if any: a pending refund settling, or a succeeded one failing. */
  due?: RefundChange;
}

/** A succeeded charge as tests and `/_local/psp/charges` see it. */
export interface ChargeSummary {
  id: string;
  idempotency_key: string;
  reference: string;
  amount: number;
  currency: string;
  refunded: boolean;
  /** How many of its refunds the PSP failed or canceled after accepting them (Stripe's dialect). */
  refunds_failed?: number;
}

/** A refund as tests see it. */
export interface RefundSummary {
  id: string;
  charge: string;
  idempotency_key: string;
}

interface Owned<T> {
  account: string;
  record: T;
}

/** Every charge and refund the PSP has made, per account. */
export interface Ledger {
  addCharge(account: string, charge: Charge): void;
  getCharge(account: string, id: string): Charge | undefined;
  listCharges(account: string, reference?: string): Charge[];
  addRefund(account: string, refund: Refund): void;
  listRefunds(account: string, charge?: string): Refund[];
  /** Remembers a record that will change by the PSP's clock, so that only those are looked at for it. */
  watch(account: string, record: Charge | Refund): void;
  /** The records being watched, with their accounts, in the order they were first watched. */
  watched(): Array<{ account: string; record: Charge | Refund }>;
  /** Forgets a record that has no change due any more. */
  unwatch(record: Charge | Refund): void;
  /** Every account that has made a charge. */
  accounts(): string[];
  /** Every refund of every account with its account, oldest first. */
  allRefunds(): Array<{ account: string; record: Refund }>;
  succeededCharges(): ChargeSummary[];
  refunds(): RefundSummary[];
}

/** Creates an empty in-memory ledger. */
export function createLedger(): Ledger {
  const charges: Owned<Charge>[] = [];
  const refunds: Owned<Refund>[] = [];
  const refundsFailedOf = (charge: string) => {
    const n = refunds.filter(
      ({ record: r }) => r.charge === charge && (r.status === "failed" || r.status === "canceled"),
    ).length;
    return n > 0 ? { refunds_failed: n } : {};
  };
  const due = new Map<Charge | Refund, string>();
  return {
    addCharge: (account, record) => void charges.push({ account, record }),
    getCharge: (account, id) => charges.find((c) => c.account === account && c.record.id === id)?.record,
    listCharges: (account, reference) =>
      charges
        .filter((c) => c.account === account && (reference === undefined || c.record.reference === reference))
        .map((c) => c.record),
    addRefund: (account, record) => void refunds.push({ account, record }),
    listRefunds: (account, charge) =>
      refunds
        .filter((r) => r.account === account && (charge === undefined || r.record.charge === charge))
        .map((r) => r.record),
    allRefunds: () => [...refunds],
    watch: (account, record) => void due.set(record, account),
    watched: () => [...due].map(([record, account]) => ({ account, record })),
    unwatch: (record) => void due.delete(record),
    accounts: () => [...new Set(charges.map((c) => c.account))],
    succeededCharges: () =>
      charges
        .filter((c) => c.record.status === "succeeded")
        .map(({ record: c }) => ({
          id: c.id,
          idempotency_key: c.idempotency_key,
          reference: c.reference,
          amount: c.amount,
          currency: c.currency,
          refunded: c.refunded,
          // Only when there are some: Stripe's dialect alone fails refunds later.
          ...refundsFailedOf(c.id),
        })),
    refunds: () =>
      refunds.map(({ record: r }) => ({ id: r.id, charge: r.charge, idempotency_key: r.idempotency_key })),
  };
}

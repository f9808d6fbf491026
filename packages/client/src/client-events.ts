/** Which call of the client an event belongs to. */
export type Operation = "pay" | "resolve" | "cancel" | "get-payment";

/**
 * What the client tells the app's log hook. Events name orders, keys, payment ids, statuses and
 * problem types only: never the order body, so never a payment method.
 */
export type ClientEvent =
  | { type: "key-made"; order_id: string; key: string; replaces?: string; unsafe?: true }
  | { type: "key-reused"; order_id: string; key: string; state: string }
  | { type: "journal-written"; order_id: string; key: string; state: string }
  | { type: "journal-failed"; order_id: string; key?: string; message: string }
  | { type: "attempt"; op: Operation; attempt: number; key?: string; path: string }
  | {
      type: "answer";
      op: Operation;
      attempt: number;
      key?: string;
      status: number;
      problem_type?: string;
      payment_id?: string;
    }
  | {
      type: "no-answer";
      op: Operation;
      attempt: number;
      key?: string;
      why: "timeout" | "network";
      message?: string;
    }
  | { type: "retry"; op: Operation; attempt: number; why: string; wait_ms: number }
  | { type: "horizon"; op: Operation; attempts: number; elapsed_ms: number; why: string }
  | { type: "refused-locally"; op: Operation; detail: string }
  | { type: "unsafe-test-only"; switch: "newKeyPerRetry" };

/** Calls the app's hook; a hook that throws must never break a payment. */
export function safeEmitter(hook: ((event: ClientEvent) => void) | undefined): (event: ClientEvent) => void {
  return (event) => {
    try {
      hook?.(event);
    } catch {
      // a log hook's failure is not the payment's failure
    }
  };
}

/** A final answer is stored as rendered; a non-final one as a pointer to the payment (Part 3). */
export type ClaimAnswer =
  | { kind: "final"; status: number; body: Record<string, unknown> }
  | { kind: "pointer"; payment_id: string };

/** The claim item as stored. */
export interface ClaimItem {
  id: string;
  status: "INPROGRESS" | "COMPLETED" | "VOID";
  owner?: string;
  validation?: string;
  in_progress_until?: number;
  expiration: number;
  data?: ClaimAnswer;
}

/** Expired means `expiration < now`, read on the read path, whatever TTL has or has not deleted. */
export function isExpired(item: Pick<ClaimItem, "expiration">, nowMs: number): boolean {
  return item.expiration < Math.floor(nowMs / 1000);
}

import type { JSONValue } from "@aws-lambda-powertools/commons/types";
import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
} from "@aws-lambda-powertools/idempotency";
import { BasePersistenceLayer, IdempotencyRecord } from "@aws-lambda-powertools/idempotency/persistence";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Clock } from "../clock/clock";
import { KeyVoided } from "../payment/payment-errors";
import type { ClaimAnswer, ClaimItem } from "./claim-answer";
import { isExpired } from "./claim-answer";
import { claimContext } from "./claim-context";
import { ClaimTable } from "./claim-table";
import { claimSwitches } from "./test-switches";

/**
 * The key record on Powertools idempotency, extended at its persistence-layer extension points
 * where the design asks more than Powertools does: an owner token with completion and deletion
 * conditional on it (Powertools updates and deletes unconditionally), a lease that is the request's
 * own deadline (not Lambda's remaining time), expiry read on our clock, a takeover of a dead owner
 * only after lease + margin, and no deletion once a side effect may have happened.
 */
export class ClaimStore extends BasePersistenceLayer {
  readonly table: ClaimTable;

  constructor(
    db: DynamoDBDocumentClient,
    tableName: string,
    private readonly opts: { windowS: number; takeoverMarginMs: number; clock: Clock },
  ) {
    super();
    this.table = new ClaimTable(db, tableName, opts.clock, opts.windowS);
  }

  // The seed's key is the readable scope (payments:u1:K1), not Powertools' hash of the payload.
  protected override getHashedIdempotencyKey(data: JSONValue): string {
    return (data as { scope: string }).scope;
  }

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const ctx = claimContext();
    let old = await this.table.claim(record.idempotencyKey, ctx.owner, ctx.leaseUntil, record.payloadHash);
    if (old && isExpired(old, this.opts.clock.now())) {
      // An expired record of another request or a void: the durable guard decides before anything is written.
      await ctx.judgeByGuard?.();
      old = await this.table.claimOverExpired(
        record.idempotencyKey,
        ctx.owner,
        ctx.leaseUntil,
        record.payloadHash,
      );
    }
    if (!old) return;
    // A claim's void carries no epoch: it counts as the first, and POST /payments may check it at the PSP.
    if (old.status === "VOID") throw new KeyVoided();
    if (this.mayTakeOver(old, record.payloadHash)) {
      await ctx.beforeTakeover?.();
      const lost = await this.table.takeOver(old, ctx.owner, ctx.leaseUntil);
      if (!lost) return;
      throw new IdempotencyItemAlreadyExistsError("claimed by another request", toRecord(lost));
    }
    throw new IdempotencyItemAlreadyExistsError("the key is already claimed", toRecord(old));
  }

  protected async _getRecord(key: string): Promise<IdempotencyRecord> {
    const item = await this.table.read(key);
    if (!item || isExpired(item, this.opts.clock.now())) throw new IdempotencyItemNotFoundError(key);
    return toRecord(item);
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    await this.table.complete(
      record.idempotencyKey,
      claimContext().owner,
      record.responseData as ClaimAnswer,
    );
  }

  // Powertools deletes the claim when the work throws, so that it can run again. Once the PSP may
  // have been called that would invite a second charge, so we keep the claim as a pointer instead.
  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    const ctx = claimContext();
    if (ctx.sideEffectStarted) {
      await this.table.complete(record.idempotencyKey, ctx.owner, {
        kind: "pointer",
        payment_id: ctx.paymentId,
      });
    } else {
      await this.table.release(record.idempotencyKey, ctx.owner);
    }
  }

  private mayTakeOver(old: ClaimItem, payloadHash: string | undefined): boolean {
    if (old.status !== "INPROGRESS" || old.validation !== payloadHash) return false;
    // The margin covers the worst offset between the owner's clock and ours (a test-only switch drops it).
    const margin = claimSwitches().noTakeoverMargin ? 0 : this.opts.takeoverMarginMs;
    return (old.in_progress_until ?? 0) + margin < this.opts.clock.now();
  }
}

// Expiry has already been decided on our clock, so the record handed to Powertools carries no
// in-progress expiry for it to second-guess with its own.
function toRecord(item: ClaimItem): IdempotencyRecord {
  return new IdempotencyRecord({
    idempotencyKey: item.id,
    status: item.status === "COMPLETED" ? "COMPLETED" : "INPROGRESS",
    payloadHash: item.validation,
    responseData: item.data as JSONValue,
  });
}

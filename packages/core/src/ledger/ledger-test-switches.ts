/**
 * Test-only: a move whose journal entry is there already fails for good, as before the fault checker found it (the
 * row stays UNKNOWN after a forced failover). Read on every call, never set in AWS, named UNSAFE on purpose.
 */
export const unsafeNoRowCatchUp = (): boolean => process.env.EO_TEST_UNSAFE_NO_ROW_CATCH_UP === "1";

/**
 * Test-only: EO_TEST_UNSAFE_ROWS_LAST_WRITER_WINS=1 reads, compares-and-sets and catches up a payment row alone,
 * without the state facts beside it, as before the fault checker found a refund lost to an older state: the other
 * Region's later write of an earlier state (SUCCEEDED) wins over a REFUNDED whose journal entry is here.
 */
export const unsafeRowsLastWriterWins = (): boolean =>
  process.env.EO_TEST_UNSAFE_ROWS_LAST_WRITER_WINS === "1";

/**
 * Test-only: EO_TEST_UNSAFE_NO_REFUND_FAILED_FACT=1 leaves a refund's failure out of the state facts a row is read
 * with, as before issue 39: a later write of the REFUNDED row (the other Region's, under last writer wins) hides a
 * refund the PSP failed later, and the payment reads REFUNDED while the money stayed with the merchant.
 */
export const unsafeNoRefundFailedFact = (): boolean =>
  process.env.EO_TEST_UNSAFE_NO_REFUND_FAILED_FACT === "1";

/**
 * Test-only: EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT=1 neither writes nor reads a refund attempt's in-flight fact
 * (`FACT#REFUND_PENDING`) or its refusal's (`FACT#REFUND_REFUSED`), as before issue 40: the other Region's later
 * SUCCEEDED, settled from an older PENDING copy, wins over a REFUND_PENDING, and the refund is never sent.
 */
export const unsafeNoRefundInFlightFact = (): boolean =>
  process.env.EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT === "1";

/**
 * Test-only: EO_TEST_UNSAFE_NO_REFUND_MARK=1 neither marks a refund attempt's in-flight fact in the index nor lets a
 * resolver pass catch rows up to the marked ones, as before issue 42: a fact both Regions met while passive is never
 * caught up, and a refund the buyer was told about is never sent.
 */
export const unsafeNoRefundMark = (): boolean => process.env.EO_TEST_UNSAFE_NO_REFUND_MARK === "1";

/**
 * Test-only: EO_TEST_UNSAFE_NO_REFUND_FAILED_NOTICE=1 writes the failure of a refund the ledger never heard succeed as
 * the fact alone, with no event, as before issue 42: no money moved, so nothing is credited back, but the buyer, told
 * 202 REFUND_PENDING or nothing, is never told the refund failed either.
 */
export const unsafeNoRefundFailedNotice = (): boolean =>
  process.env.EO_TEST_UNSAFE_NO_REFUND_FAILED_NOTICE === "1";

/**
 * Test-only: a move whose journal entry is there already fails for good, as before the fault checker found it (the
 * row stays UNKNOWN after a forced failover). Read on every call, never set in AWS, named UNSAFE on purpose.
 */
export const unsafeNoRowCatchUp = (): boolean => process.env.EO_TEST_UNSAFE_NO_ROW_CATCH_UP === "1";

/**
 * EO_TEST_UNSAFE_CONDITION_ON_ITEM=1 moves the "put if absent" condition from the locator to the item itself
 * (branch M): once the item has moved or been deleted, a late retry finds nothing there and writes it again.
 * For tests and `npm run story -- --branch M` only. Read on every call so that a test can flip it.
 */
export const unsafeConditionOnItem = (): boolean => process.env.EO_TEST_UNSAFE_CONDITION_ON_ITEM === "1";

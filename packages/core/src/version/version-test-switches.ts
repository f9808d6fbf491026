/**
 * EO_TEST_UNSAFE_NO_VERSION_CHECK=1 drops the version comparison (branch V): every write lands and the last to
 * arrive wins, so a resent old write undoes a newer one. Tests and `npm run story -- --branch V` set it; never
 * anything else. Read on every call so that a test can flip it.
 */
export const unsafeNoVersionCheck = (): boolean => process.env.EO_TEST_UNSAFE_NO_VERSION_CHECK === "1";

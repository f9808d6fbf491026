/**
 * Test-only switches that take the design apart for Branch N (Part 7), read from the environment on every
 * call so that a test can flip them. Never set them anywhere else: they make duplicate notifications stack.
 */
export interface UnsafeSwitches {
  /** EO_TEST_UNSAFE_NO_NOTIFICATION_RECORD: push on every delivery, ignoring (and never finishing) the intent. */
  noNotificationRecord: boolean;
  /** EO_TEST_UNSAFE_NO_REPLACE_ID: push without the APNs collapse id / FCM tag, so repeats stack. */
  noReplaceId: boolean;
  /** EO_TEST_UNSAFE_DUPLICATE_ONLY_ACKS: a duplicate the inbox dropped is acknowledged without finishing its intents (Branch R). */
  duplicateOnlyAcks: boolean;
}

/** The switches as the environment sets them now. */
export function unsafeSwitches(env: NodeJS.ProcessEnv = process.env): UnsafeSwitches {
  const on = (name: string) => env[name] === "1" || env[name] === "true";
  return {
    noNotificationRecord: on("EO_TEST_UNSAFE_NO_NOTIFICATION_RECORD"),
    noReplaceId: on("EO_TEST_UNSAFE_NO_REPLACE_ID"),
    duplicateOnlyAcks: on("EO_TEST_UNSAFE_DUPLICATE_ONLY_ACKS"),
  };
}

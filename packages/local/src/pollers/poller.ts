/** A running local event source mapping. */
export interface Poller {
  /** Stops polling, lets the batch in flight finish, and releases the clients. */
  stop(): Promise<void>;
  /** True while the poller runs and its last calls to the emulator succeeded. */
  healthy(): boolean;
  /** Resolves once the source was read to its current end and no batch is in flight (for tests). */
  idle(): Promise<void>;
}

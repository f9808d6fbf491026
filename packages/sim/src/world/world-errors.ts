/** A task spawned in the world threw, or a timer callback did (Node would crash the process). */
export class WorldTaskFailed extends Error {
  constructor(
    readonly task: string,
    override readonly cause: unknown,
  ) {
    super(`world task "${task}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = "WorldTaskFailed";
  }
}

/**
 * The world cannot go on deterministically: tasks are still open but no virtual timer is pending (they wait on
 * something outside the world, such as real I/O), or real I/O is in flight when virtual time would jump.
 */
export class WorldStalled extends Error {
  constructor(
    message: string,
    readonly openTasks: readonly string[],
    readonly realIo: readonly string[],
  ) {
    super(message);
    this.name = "WorldStalled";
  }
}

/** A run did not finish within its virtual-time or event budget (an endless interval, an immediate loop). */
export class WorldBudgetExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorldBudgetExceeded";
  }
}

/** A feature the world does not model; it refuses loudly rather than letting real time or entropy leak in. */
export class WorldUnsupported extends Error {
  constructor(what: string) {
    super(`not supported inside the simulated world: ${what}`);
    this.name = "WorldUnsupported";
  }
}

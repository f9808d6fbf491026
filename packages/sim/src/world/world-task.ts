/** Where a spawned task is in its life. */
export type TaskState = "waiting" | "running" | "done" | "failed";

/** A concurrent actor in the world (a poller, a phone, an operator). */
export interface WorldTask {
  readonly name: string;
  /** A daemon (a poller waiting for new data) does not keep the world busy, and is not "stalled" when idle. */
  readonly daemon: boolean;
  readonly state: TaskState;
  /** Settles (never rejects) when the task ends; a failure surfaces from the world's run calls instead. */
  readonly done: Promise<void>;
  /** The task's result once done. */
  readonly result: unknown;
  /** The error a failed task threw. */
  readonly error: unknown;
}

/** The world's bookkeeping for one task. */
export class TaskRecord implements WorldTask {
  state: TaskState = "waiting";
  result: unknown;
  error: unknown;
  readonly done: Promise<void>;
  private settle!: () => void;

  constructor(
    readonly name: string,
    readonly daemon: boolean,
  ) {
    this.done = new Promise<void>((resolve) => {
      this.settle = resolve;
    });
  }

  /** Marks the task ended, with its result or error. */
  finish(ok: boolean, value: unknown): void {
    this.state = ok ? "done" : "failed";
    if (ok) this.result = value;
    else this.error = value;
    this.settle();
  }

  /** Still waiting to start or running. */
  get open(): boolean {
    return this.state === "waiting" || this.state === "running";
  }
}

import { type FaultName, takeFault } from "../faults/faults";

/** The error an armed crash fault throws: the process "dies" right after the step it names. */
export class InjectedCrash extends Error {
  constructor(readonly fault: FaultName) {
    super(`injected crash: ${fault}`);
    this.name = "InjectedCrash";
  }
}

/** Throws when `fault` is armed (consuming one occurrence); in AWS nothing arms faults, so this never throws. */
export function crashIfArmed(
  fault:
    | "relay_crash_after_publish"
    | "worker_crash_after_commit"
    | "worker_crash_after_send"
    | "stream_job_crash_after_sink",
): void {
  if (takeFault(fault) !== undefined) throw new InjectedCrash(fault);
}

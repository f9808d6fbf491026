/**
 * Resource kinds (from `process.getActiveResourcesInfo()`) that mean real I/O or real time is in flight: a socket,
 * a DNS lookup, a file operation, a child process, a worker's port. Their completion arrives from outside the
 * world, at a moment no seed decides.
 */
const REAL_IO = new Set([
  "TCPSocketWrap",
  "TCPServerWrap",
  "TCPWRAP",
  "TCPConnectWrap",
  "PipeWrap",
  "PipeConnectWrap",
  "UDPWRAP",
  "GetAddrInfoReqWrap",
  "GetNameInfoReqWrap",
  "QueryReqWrap",
  "FSReqCallback",
  "FSReqPromise",
  "FileHandle",
  "FSEventWrap",
  "StatWatcher",
  "ProcessWrap",
  "ShutdownWrap",
  "WriteWrap",
  "ZlibWrap",
  "MessagePort",
  "Worker",
]);

function counts(): Map<string, number> {
  const out = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) out.set(kind, (out.get(kind) ?? 0) + 1);
  return out;
}

/**
 * Notices real I/O started inside the world: it compares live resources with those alive when the world was
 * created (a test's emulator or IPC channel stays in the baseline), so only new sockets, files or lookups count.
 */
export class RealIoWatch {
  private readonly baseline = counts();

  /** Kinds of real I/O resources now alive beyond the baseline, as "Kind×n" (empty when none). */
  inFlight(): string[] {
    const out: string[] = [];
    for (const [kind, n] of counts()) {
      const extra = n - (this.baseline.get(kind) ?? 0);
      if (extra > 0 && REAL_IO.has(kind)) out.push(`${kind}×${extra}`);
    }
    return out;
  }

  /** Real (not virtual) timers made since the world was created: code holding `setTimeout` from before install. */
  realTimers(): number {
    const now = counts();
    return Math.max(0, (now.get("Timeout") ?? 0) - (this.baseline.get("Timeout") ?? 0));
  }
}

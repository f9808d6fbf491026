/**
 * Where the domain reports what on-call watches (PSP calls, authority reads, replicated write conflicts) without
 * knowing how it is published: the functions install a sink that writes Powertools metrics; by default nothing.
 */
export interface SignalSink {
  count(name: string, n: number, dimensions?: Record<string, string>): void;
}

const silent: SignalSink = { count() {} };
let sink: SignalSink = silent;

/** Installs the process's sink (the functions' Powertools metrics); none restores the silent default. */
export function setSignalSink(next?: SignalSink): void {
  sink = next ?? silent;
}

/** Counts `n` occurrences of a signal; zero counts nothing, and a failing sink never fails the domain's work. */
export function countSignal(name: string, n = 1, dimensions?: Record<string, string>): void {
  if (n <= 0) return;
  try {
    sink.count(name, n, dimensions);
  } catch {
    // A metric is worth less than the payment that would fail with it.
  }
}

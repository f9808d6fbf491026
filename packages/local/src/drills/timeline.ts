/** One line of a drill's timeline: when, in which Region, who, what, and (the story's) what the stores hold. */
export interface TimelineEntry {
  t: number;
  region: "R1" | "R2" | "-";
  actor: string;
  event: string;
  holds?: string;
}

/** The drill's timeline, in seconds from its start, printed as it goes when a printer is given. */
export class Timeline {
  readonly entries: TimelineEntry[] = [];
  private readonly started = Date.now();

  constructor(private readonly print?: (line: string) => void) {}

  /** Records (and prints) one event, with what the stores hold after it when that is given. */
  mark(region: TimelineEntry["region"], actor: string, event: string, holds?: string): void {
    const entry = {
      t: (Date.now() - this.started) / 1000,
      region,
      actor,
      event,
      ...(holds ? { holds } : {}),
    };
    this.entries.push(entry);
    this.print?.(formatEntry(entry));
  }
}

/** `  2.41 s  R1  relay+worker  …`, fixed columns so that the timeline reads as a table. */
export function formatEntry(e: TimelineEntry): string {
  const line = `${e.t.toFixed(2).padStart(7)} s  ${e.region.padEnd(2)}  ${e.actor.padEnd(14)}  ${e.event}`;
  return e.holds ? `${line}\n${" ".repeat(30)}[${e.holds}]` : line;
}

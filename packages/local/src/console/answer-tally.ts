/** One API answer as the HTTP front sent it: the route, the status, and the problem's kind when it was one. */
export interface ApiAnswer {
  route: string;
  status: number;
  /** The last segment of a problem's `type` (`psp-unavailable`, `region-down`), when the answer was a problem. */
  problem?: string;
}

/** The answers of one Region's API so far: by status, and the 503s by problem kind. */
export interface AnswerCounts {
  by_status: Record<string, number>;
  by_problem: Record<string, number>;
  /** Live payments the PSP budget refused (503 `psp-unavailable`): our own limiter said no before the PSP's. */
  budget_refused: number;
}

/** Counts a Region's API answers, as the deployed API's access log and the payment metrics do. */
export class AnswerTally {
  private readonly counts: AnswerCounts = { by_status: {}, by_problem: {}, budget_refused: 0 };

  /** Adds one answer. */
  count(answer: ApiAnswer): void {
    const c = this.counts;
    c.by_status[answer.status] = (c.by_status[answer.status] ?? 0) + 1;
    if (!answer.problem) return;
    c.by_problem[answer.problem] = (c.by_problem[answer.problem] ?? 0) + 1;
    if (answer.problem === "psp-unavailable") c.budget_refused++;
  }

  /** A copy of the counts so far. */
  snapshot(): AnswerCounts {
    return structuredClone(this.counts);
  }
}

/** The problem kind of an answer body (JSON text or object): the last path segment of its `type`. */
export function problemKind(body: unknown): string | undefined {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || type === "about:blank") return undefined;
  return type.split("/").pop() || undefined;
}

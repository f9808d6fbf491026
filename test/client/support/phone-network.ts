import { readFileSync } from "node:fs";

/** A request the phone sent that the network held back, so the test can deliver it late. */
export interface HeldRequest {
  input: string;
  init: RequestInit;
  key: string | undefined;
}

/** The keys the journal file holds right now, by order (none when the file does not exist yet). */
function journaledKeys(path: string): Record<string, string> {
  try {
    const journal = JSON.parse(readFileSync(path, "utf8")) as { entries: Record<string, { key: string }> };
    return Object.fromEntries(Object.entries(journal.entries).map(([order, entry]) => [order, entry.key]));
  } catch {
    return {};
  }
}

const keyOf = (init: RequestInit | undefined) =>
  new Headers(init?.headers).get("idempotency-key") ?? undefined;

// What a real fetch does while no answer comes: nothing, until the phone's timer aborts it.
const noAnswer = (init: RequestInit | undefined) =>
  new Promise<Response>((_, reject) =>
    init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
  );

/**
 * The phone's network: `requests-lost` holds every request back (they never reach the server until
 * `deliver` sends one, late), `replies-lost` lets requests through and drops their answers, `up` is a
 * working network.
 */
export function phoneNetwork() {
  let mode: "up" | "requests-lost" | "replies-lost" = "up";
  const held: HeldRequest[] = [];
  const fetchThrough: typeof fetch = async (input, init) => {
    if (mode === "up") return fetch(input, init);
    if (mode === "requests-lost") {
      held.push({ input: String(input), init: { ...init, signal: undefined }, key: keyOf(init) });
      return noAnswer(init);
    }
    await fetch(input, { ...init, signal: undefined }).then((res) => res.text());
    return noAnswer(init);
  };
  return {
    fetch: fetchThrough,
    set(next: typeof mode) {
      mode = next;
    },
    held,
    /** Sends a held request now, as a late original leaving its queue. */
    async deliver(request: HeldRequest) {
      const res = await fetch(request.input, request.init);
      return { status: res.status, body: (await res.json()) as { type?: string } };
    },
  };
}

/** What the killed phone's only request carried, what the server answered, and what the journal held at the send. */
export interface FirstSend {
  key?: string;
  status: number;
  journaled: Record<string, string>;
}

/**
 * A phone that is killed right after its first send: the request reaches the server, the app never
 * hears back and sends nothing more. `firstSend` tells what went out and what the journal file held then.
 */
export function killedAfterFirstSend(journalPath: string) {
  let sent = false;
  let delivered: (value: FirstSend) => void = () => undefined;
  const firstSend = new Promise<FirstSend>((done) => (delivered = done));
  const dying: typeof fetch = (input, init) => {
    if (!sent) {
      sent = true;
      const journaled = journaledKeys(journalPath);
      void fetch(input, { ...init, signal: undefined }).then(async (res) => {
        await res.text();
        delivered({ key: keyOf(init), status: res.status, journaled });
      });
    }
    // a killed process: no answer and no abort ever reach it
    return new Promise<Response>(() => undefined);
  };
  return { fetch: dying, firstSend };
}

import type { Readable, Writable } from "node:stream";

/** A CDP message from the browser: an answer (id) or an event (method). */
interface Message {
  id?: number;
  method?: string;
  sessionId?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** The DevTools protocol over `--remote-debugging-pipe`: commands out on fd 3, answers and events in on fd 4. */
export interface CdpPipe {
  send(
    method: string,
    params?: Record<string, unknown>,
    sessionId?: string,
  ): Promise<Record<string, unknown>>;
  once(method: string, sessionId: string): Promise<void>;
  /** Calls `listener` with the params of every `method` event of the session, for as long as the pipe lives. */
  on(method: string, sessionId: string, listener: (params: Record<string, unknown>) => void): void;
}

/** Speaks CDP over the browser's pipe pair; each message is JSON ended by a NUL byte. */
export function cdpPipe(toBrowser: Writable, fromBrowser: Readable): CdpPipe {
  let buffer = "";
  let lastId = 0;
  const answers = new Map<number, (m: Message) => void>();
  const events: Array<(m: Message) => boolean> = [];
  fromBrowser.setEncoding("utf8");
  fromBrowser.on("data", (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf("\0"); end >= 0; end = buffer.indexOf("\0")) {
      const m = JSON.parse(buffer.slice(0, end)) as Message;
      buffer = buffer.slice(end + 1);
      if (m.id !== undefined) answers.get(m.id)?.(m);
      else events.splice(0, events.length, ...events.filter((hears) => !hears(m)));
    }
  });
  return {
    send: (method, params = {}, sessionId) =>
      new Promise((resolve, reject) => {
        const id = ++lastId;
        answers.set(id, (m) => {
          answers.delete(id);
          if (m.error) reject(new Error(`${method}: ${m.error.message}`));
          else resolve(m.result ?? {});
        });
        toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
      }),
    once: (method, sessionId) =>
      new Promise((resolve) => {
        events.push((m) => {
          if (m.method !== method || m.sessionId !== sessionId) return false;
          resolve();
          return true;
        });
      }),
    on: (method, sessionId, listener) => {
      events.push((m) => {
        if (m.method === method && m.sessionId === sessionId) listener(m.params ?? {});
        return false;
      });
    },
  };
}

import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerTally } from "../../packages/local/src/console/answer-tally";
import { boundPort, closeHttp, startHttpFront } from "../../packages/local/src/runtime/http-front";

// The console's "API answers" and "budget refusals" come from what the HTTP front hears; this is that hook.
const tally = new AnswerTally();
let refusing = false;
let server: Server;
let base: string;

beforeAll(async () => {
  const budgetSpent = {
    statusCode: 503,
    headers: { "content-type": "application/problem+json" },
    body: JSON.stringify({ type: "https://effectively-once.dev/problems/psp-unavailable", status: 503 }),
  };
  const answers = [{ statusCode: 201, body: "{}" }, budgetSpent];
  server = await startHttpFront(
    0,
    [
      {
        method: "POST",
        path: "/payments",
        functionName: "pay",
        auth: false,
        load: async () => async () => answers.shift() ?? budgetSpent,
      },
    ],
    async () => undefined,
    () =>
      refusing
        ? { status: 503, body: { type: "x/problems/region-down", title: "Region Down", status: 503 } }
        : undefined,
    (a) => tally.count(a),
  );
  base = `http://127.0.0.1:${boundPort(server)}`;
});
afterAll(() => closeHttp(server));

describe("the HTTP front's answers, as the console counts them", () => {
  it("counts each API answer by status, a spent budget by its problem kind, and a down Region's refusals; not /_local", async () => {
    // act
    await fetch(`${base}/payments`, { method: "POST", body: "{}" });
    await fetch(`${base}/payments`, { method: "POST", body: "{}" });
    await fetch(`${base}/_local/anything`);
    refusing = true;
    await fetch(`${base}/payments`, { method: "POST", body: "{}" });
    // assess
    expect(tally.snapshot()).toEqual({
      by_status: { 201: 1, 503: 2 },
      by_problem: { "psp-unavailable": 1, "region-down": 1 },
      budget_refused: 1,
    });
  });
});

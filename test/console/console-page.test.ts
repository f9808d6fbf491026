import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { type BrowserPage, openBrowserPage } from "../support/browser/browser-page";
import { useLocalStack } from "../support/local-stack";

// The screenshot the README shows: the console in the middle of a drill (a lost reply, then a Region down).
const SCREENSHOT = join(dirname(fileURLToPath(import.meta.url)), "../../docs/console.png");

// Both Regions, as `npm start` runs them; a slow replication so that the failed primary leaves changes pending, and
// the PSP's webhooks held back so that the lost reply's payment stays UNKNOWN while the page is read.
const stack = useLocalStack({ standby: true, replicationLagMs: 2_000, webhookDelayMs: 600_000 });
const primary = () => new ApiClient(stack().apiUrl);
let page: BrowserPage | undefined;
afterAll(async () => page?.close(), 30_000);

// The page's own rendering of one section's table, row by row (tab-separated cells, as innerText gives them).
const rowOf = (text: string, first: string) =>
  text.split("\n").find((line) => line.split("\t")[0]?.trim() === first) ?? "";

describe("the local on-call console in headless Chromium", () => {
  it("shows a payment, a lost PSP reply and a Region failure as they happen, and which alarms breach", async () => {
    // prepare: the console open before anything happens, as on call
    page = await openBrowserPage(`${stack().apiUrl}/_local/console`);
    await page.waitForText((t) => /refreshed .* \(every 2 s\)/.test(t), 30_000, "#refreshed");
    const token = await primary().token("buyer-console");
    // act 1: one payment answered, one whose PSP reply is lost
    const paid = await primary().payAsPhone(token, newKey(), order42());
    await primary().local("POST", "/faults", { psp_lose_reply: 1 });
    const lost = await primary().pay(token, newKey(), order42());
    // assess 1: the page shows it after it refreshed, not only its JSON
    const payments = await page.waitForText((t) => /UNKNOWN\t1/.test(t), 30_000, "#payments");
    const backlog = await page.text("#backlog");
    const psp = await page.text("#psp");
    expect(paid.status).toBe(201);
    expect(lost.status).toBe(202);
    expect(rowOf(payments, "SUCCEEDED")).toMatch(/^SUCCEEDED\t1/);
    expect(rowOf(backlog, "primary")).toMatch(/^primary\t1\t\d+ s$/);
    expect(psp).toMatch(/1 replies lost/);
    expect((await page.text("#warnings")).trim()).toBe("The Regions agree with the authority.");

    // act 2: the primary fails; a buyer still sends to it
    await primary().local("POST", "/regions/primary/fail");
    const down = await primary().pay(token, newKey(), order42());
    // assess 2: the warning, the Region's state, the 503 and the 5xx alarm breaching (not yet paging)
    const warnings = await page.waitForText((t) => /primary is down/.test(t), 30_000, "#warnings");
    const regions = await page.text("#regions");
    const answers = await page.waitForText((t) => /503: 1/.test(t), 30_000, "#answers");
    const alarms = await page.waitForText(
      (t) => /BREACHING.*\tApi5xxRate\tprimary/.test(t),
      30_000,
      "#alarms",
    );
    expect(down.status).toBe(503);
    expect(warnings).toMatch(/the authority names primary active, but primary is down/);
    expect(rowOf(regions, "primary")).toMatch(/^primary\tDOWN\tdown/);
    expect(rowOf(regions, "standby")).toMatch(/^standby\tup\tpassive/);
    expect(rowOf(answers, "primary")).toMatch(/201: 1\s+202: 1\s+503: 1/);
    expect(alarms).toMatch(/Api5xxRate\tprimary\t0\.333\t> 0\.05/);
    expect(alarms).toMatch(/not measured locally\tLambdaErrors/);

    // the picture for the README, taken now: mid-drill
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot(SCREENSHOT);
  }, 180_000);

  it("serves Chart.js from the installed package, so the page needs no network", async () => {
    const res = await fetch(`${stack().apiUrl}/_local/console/chart.js`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toMatch(/Chart\.js v4\.6\.1/);
    expect(await page?.evaluate<string>("typeof window.Chart")).toBe("function");
  });
});

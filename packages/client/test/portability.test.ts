import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { createPaymentsClient } from "../src/index";
import { CARD, fakeApi, order42, problem, processing, succeeded } from "./support/fake-api";

const SRC = join(import.meta.dirname, "../src");

async function sources(dir: string): Promise<string[]> {
  const found = await readdir(dir, { withFileTypes: true, recursive: true });
  return found.filter((f) => f.isFile() && f.name.endsWith(".ts")).map((f) => join(f.parentPath, f.name));
}

describe("a client for phones and browsers", () => {
  it("imports nothing from node: outside the file journal adapter", async () => {
    const offenders: string[] = [];
    for (const file of await sources(SRC)) {
      if (file.endsWith("journal/file-journal.ts")) continue;
      if (/from\s+["']node:/.test(await readFile(file, "utf8"))) offenders.push(relative(SRC, file));
    }
    expect(offenders).toEqual([]);
  });

  it("writes no card data to its log hook or its results", async () => {
    // prepare: every kind of attempt, so every kind of event is emitted
    const api = fakeApi(["network", "hang", processing(1), problem("psp-unavailable", 503), succeeded()], {
      timeoutMs: 20,
    });
    const client = createPaymentsClient(api.options);
    // act
    const results = [
      await client.pay(order42()),
      await client.pay(order42({ amount: -1 })),
      await client.resolve("42"),
    ];
    // assess
    const logged = JSON.stringify([api.events, results]);
    expect(api.events.length).toBeGreaterThan(8);
    expect(logged).not.toContain(CARD);
    expect(logged).not.toContain("payment_method");
  });
});

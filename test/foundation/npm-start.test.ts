import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { freePort } from "../../packages/local/src/emulators/free-port";
import { isAlive } from "../../packages/local/src/emulators/managed-process";

describe("npm start", () => {
  it("serves GET /_local/health = 200 within 30 s, serves the API reference, and leaves no process behind on SIGTERM", async () => {
    // prepare: the same entry point as `npm start`, on free ports
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ["API_PORT", "STANDBY_API_PORT", "PSP_PORT", "DYNAMODB_PORT", "SQS_PORT", "SES_PORT"])
      env[name] = String(await freePort());
    const started = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx", "packages/local/src/main.ts"], {
      env,
      detached: true,
      stdio: "pipe",
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.once("exit", r));
    try {
      // act
      let health: { ok: boolean; pids?: Record<string, number> } | undefined;
      while (!health?.ok && Date.now() - started < 30_000) {
        health = await fetch(`http://127.0.0.1:${env.API_PORT}/_local/health`)
          .then((r) => r.json() as Promise<{ ok: boolean; pids?: Record<string, number> }>)
          .catch(() => undefined);
        if (!health?.ok) await new Promise((r) => setTimeout(r, 250));
      }
      const pids = Object.values(health?.pids ?? {});
      const api = `http://127.0.0.1:${env.API_PORT}/_local`;
      const [docs, yaml, json] = await Promise.all(
        ["docs", "openapi.yaml", "openapi.json"].map((p) => fetch(`${api}/${p}`)),
      );
      const page = await docs?.text();
      const standby = await fetch(`http://127.0.0.1:${env.STANDBY_API_PORT}/_local/regions`).then((r) =>
        r.json(),
      );
      const raw = await yaml?.text();
      const doc = (await json?.json()) as { openapi?: string };
      process.kill(child.pid as number, "SIGTERM");
      const code = await exited;
      // assess
      expect(health?.ok, out).toBe(true);
      expect(Date.now() - started).toBeLessThan(40_000);
      expect(pids.length).toBe(3);
      expect(code).toBe(0);
      expect(pids.filter(isAlive)).toEqual([]);
      expect(out).toMatch(/stopped; no emulator left running/);
      // the rendered API reference and the raw document, the same one that is committed
      expect(docs?.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page).toMatch(/SwaggerUIBundle\(\{\s*url: "\/_local\/openapi\.json"/);
      expect(page).toMatch(/<script src="\/_local\/docs\/swagger-ui-bundle\.js"/);
      expect(raw).toBe(readFileSync("docs/openapi.yaml", "utf8"));
      expect(doc.openapi).toBe("3.1.0");
      // both Regions are served: the standby's port answers, passive, with the primary active
      expect(standby).toMatchObject({
        active: "primary",
        regions: { primary: { up: true }, standby: { up: true } },
      });
    } finally {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // already gone
      }
    }
  }, 60_000);
});

import { writeFileSync } from "node:fs";
import type { CdpPipe } from "./cdp-pipe";
import { launchChromium } from "./launch-chromium";
import { openTab } from "./rendered-dom";

/** A live page in headless Chromium: read what it shows, wait for it to change, photograph it. */
export interface BrowserPage {
  /** Evaluates an expression in the page and answers its value (JSON-serialisable). */
  evaluate<T>(expression: string): Promise<T>;
  /** The text the page shows now (`innerText` of the element, the whole body by default). */
  text(selector?: string): Promise<string>;
  /** Polls the page's text until `accept` holds; answers that text, or throws with the last text seen. */
  waitForText(accept: (text: string) => boolean, timeoutMs: number, selector?: string): Promise<string>;
  /** Writes a PNG of the whole page (beyond the viewport) to `path`. */
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens `url` in headless Chromium at a desktop width and keeps it open (its scripts keep running), driven over
 * the same CDP pipe as renderedDom. Screenshots are CDP's Page.captureScreenshot: no second browser driver.
 */
export async function openBrowserPage(
  url: string,
  opts: {
    width?: number;
    height?: number;
    timeoutMs?: number;
    /** Runs on the blank tab before it navigates, e.g. to intercept its requests (see loopback-only.ts). */
    prepare?: (cdp: CdpPipe, sessionId: string) => Promise<void>;
  } = {},
): Promise<BrowserPage> {
  const browser = await launchChromium(opts.timeoutMs ?? 180_000, `keep ${url} open`);
  const { cdp, failed } = browser;
  const race = <T>(p: Promise<T>) => Promise.race([p, failed]);
  try {
    const { prepare } = opts;
    const sessionId = await race(openTab(cdp, url, prepare && ((id) => prepare(cdp, id))));
    const viewport = {
      width: opts.width ?? 1400,
      height: opts.height ?? 1000,
      deviceScaleFactor: 1,
      mobile: false,
    };
    await race(cdp.send("Emulation.setDeviceMetricsOverride", viewport, sessionId));
    const evaluate = async <T>(expression: string): Promise<T> => {
      const answer = (await race(
        cdp.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true }, sessionId),
      )) as { result: { value: T }; exceptionDetails?: { text: string } };
      if (answer.exceptionDetails) throw new Error(`${expression}: ${answer.exceptionDetails.text}`);
      return answer.result.value;
    };
    const text = (selector = "body") =>
      evaluate<string>(`document.querySelector(${JSON.stringify(selector)})?.innerText ?? ""`);
    return {
      evaluate,
      text,
      waitForText: async (accept, timeoutMs, selector) => {
        const until = Date.now() + timeoutMs;
        let last = "";
        while (Date.now() < until) {
          last = await text(selector);
          if (accept(last)) return last;
          await new Promise((r) => setTimeout(r, 250));
        }
        throw new Error(
          `the page never showed what was expected within ${timeoutMs} ms; it showed:\n${last}`,
        );
      },
      screenshot: async (path) => {
        const shot = (await race(
          cdp.send("Page.captureScreenshot", { format: "png", captureBeyondViewport: true }, sessionId),
        )) as { data: string };
        writeFileSync(path, Buffer.from(shot.data, "base64"));
      },
      close: () => browser.close(),
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

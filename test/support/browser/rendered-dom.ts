import type { CdpPipe } from "./cdp-pipe";
import { launchChromium } from "./launch-chromium";

/**
 * Loads a page in headless Chromium (the one findBrowser picks) and answers its DOM once the load event fired,
 * that is after its scripts ran. Driven over CDP on a pipe: the bundled Chromium never answers `--dump-dom`.
 */
export async function renderedDom(url: string, timeoutMs = 60_000): Promise<string> {
  const browser = await launchChromium(timeoutMs, `load ${url}`);
  try {
    return await Promise.race([readDom(browser.cdp, url), browser.failed]);
  } finally {
    await browser.close();
  }
}

/** Opens a tab, navigates, waits for the load event and reads the document's HTML. */
async function readDom(cdp: CdpPipe, url: string): Promise<string> {
  const sessionId = await openTab(cdp, url);
  const expression = "document.documentElement.outerHTML";
  const { result } = (await cdp.send("Runtime.evaluate", { expression, returnByValue: true }, sessionId)) as {
    result: { value: string };
  };
  return result.value;
}

/**
 * Opens a tab on `url` and answers its CDP session once the page's load event fired; `prepare` runs on the blank
 * tab before it navigates (to intercept the page's requests from its very first).
 */
export async function openTab(
  cdp: CdpPipe,
  url: string,
  prepare?: (sessionId: string) => Promise<void>,
): Promise<string> {
  const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = (await cdp.send("Target.attachToTarget", { targetId, flatten: true })) as {
    sessionId: string;
  };
  await cdp.send("Page.enable", {}, sessionId);
  await prepare?.(sessionId);
  const loaded = cdp.once("Page.loadEventFired", sessionId);
  await cdp.send("Page.navigate", { url }, sessionId);
  await loaded;
  return sessionId;
}

import { Resource } from "sst/resource";
import { type Target, TargetError } from "./target";

type Linked = Record<string, { value?: unknown; stage?: unknown } | undefined>;

/** The local stack's PSP key: the one `npm start` hands its handlers. */
const LOCAL_API_KEY = "sk_local";

/**
 * The PSP's URL and API key for a target. Locally: the fake PSP on PSP_PORT and the stack's key. For a stage they
 * are SST secrets (PspUrl, PspApiKey), never stage outputs: from `npx sst shell --stage <s> -- …` (which links every
 * resource of the stage, secrets included) or, for those who keep them elsewhere, PSP_URL and PSP_API_KEY.
 * Throws a TargetError saying so when neither is there; `linked` is SST's Resource (a test may hand another).
 */
export function pspFor(
  t: Target,
  env: NodeJS.ProcessEnv = process.env,
  linked: Linked = Resource as unknown as Linked,
): { url: string; apiKey: string } {
  if (t.local) return { url: t.local.pspUrl, apiKey: env.PSP_API_KEY || LOCAL_API_KEY };
  const shellStage = "App" in linked ? linked.App?.stage : undefined;
  if (typeof shellStage === "string" && t.stage && shellStage !== t.stage)
    throw new TargetError(
      `refused: this runs under \`sst shell\` for stage "${shellStage}", not "${t.stage}"`,
    );
  const read = (link: string, variable: string) => {
    const fromLink = link in linked ? linked[link]?.value : undefined;
    if (typeof fromLink === "string" && fromLink !== "") return fromLink;
    const fromEnv = env[variable];
    return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
  };
  const url = read("PspUrl", "PSP_URL");
  const apiKey = read("PspApiKey", "PSP_API_KEY");
  if (url && apiKey) return { url, apiKey };
  const stage = t.stage ?? "<stage>";
  throw new TargetError(
    `refused: the PSP's URL and API key are SST secrets (PspUrl, PspApiKey), never outputs: run this under \`npx sst shell --stage ${stage} -- …\`, or set PSP_URL and PSP_API_KEY`,
  );
}

import { paymentDeps, resolverRateCap, settleUnknowns } from "@eo/core";
import { logger } from "../shared/observability";

/** The scheduled resolver: settles unknown and stale payments and refunds with their derived keys. */
export async function handler(): Promise<Awaited<ReturnType<typeof settleUnknowns>>> {
  const deps = paymentDeps();
  const report = await settleUnknowns(deps, resolverRateCap(deps));
  if (report.examined > 0) logger.info("resolver pass", { ...report });
  return report;
}

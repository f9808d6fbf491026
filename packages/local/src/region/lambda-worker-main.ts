import { parentPort, workerData } from "node:worker_threads";
import { adoptSharedState, runCrashable, withInvocationLinks } from "@eo/core";
import { errorText } from "../pollers/invoke-handler";
import { lambdaContext } from "../runtime/lambda-context";
import type { InvokeReply, InvokeRequest, LambdaWorkerData } from "./lambda-protocol";
import { loadHandlerModule } from "./load-handler";

const data = workerData as LambdaWorkerData;
// One clock and one set of armed faults for both Regions, as one PSP and one network would be.
adoptSharedState(data.sharedState);

parentPort?.on("message", (m: InvokeRequest) => {
  void invoke(m).then((reply) => parentPort?.postMessage(reply));
});
parentPort?.postMessage({ ready: true });

async function invoke(m: InvokeRequest): Promise<InvokeReply> {
  try {
    const handler = await loadHandlerModule(m.handler);
    // A crash point ends the invocation as Lambda's would end (see runCrashable).
    const result = await withInvocationLinks(m.links, () =>
      runCrashable(() => handler(m.event, lambdaContext(m.functionName, m.timeoutMs))),
    );
    // Structured clone keeps what JSON keeps for a Lambda result; undefined stays undefined.
    return { id: m.id, ok: true, result };
  } catch (err) {
    return {
      id: m.id,
      ok: false,
      error: { name: (err as Error)?.name ?? "Error", message: (err as Error)?.message ?? errorText(err) },
    };
  }
}

import type { Answer, ChaosApi } from "../../scripts/lib/chaos/chaos-api";

/** Pays, sending the same key again while a fresh stack's PSP budget has no slot yet (that 503 ran nothing). */
export async function payWithSlot(
  api: ChaosApi,
  caller: string,
  key: string,
  body: unknown,
): Promise<Answer> {
  let answer = await api.pay(caller, key, body);
  for (let i = 0; i < 5 && answer.status === 503; i++) {
    await new Promise((r) => setTimeout(r, 1_000));
    answer = await api.pay(caller, key, body);
  }
  return answer;
}

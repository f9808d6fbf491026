import { documentClient } from "../aws/document-client";
import { loadConfig } from "../config/config";
import { balanceShardCount } from "./balance-shards";
import {
  type CreditRecord,
  listCredits,
  type MerchantBalance,
  readMerchantBalance,
} from "./merchant-balance";

/** A merchant's balance and its credit and debit counts on the consumer table named by the environment. */
export function merchantBalance(
  merchantId: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<MerchantBalance> {
  return readMerchantBalance(
    documentClient(),
    loadConfig(env).consumerTable,
    merchantId,
    balanceShardCount(env),
  );
}

/** A merchant's credit records, in the order they were applied. */
export function merchantCredits(
  merchantId: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CreditRecord[]> {
  return listCredits(documentClient(), loadConfig(env).consumerTable, merchantId, balanceShardCount(env));
}

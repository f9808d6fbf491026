/**
 * Every AWS SDK command an operator script can send, found statically: the script is bundled as esbuild bundles it,
 * with every module of this repository taken as free of side effects, so that what stays is what its main can reach
 * (a module's unused exports and unused modules drop out; a class stays whole). The SDK stays external: each
 * binding imported from `@aws-sdk/*` that the bundle still uses is a command it can send, a client, or an error.
 * Anything else (an aggregated client's methods, a paginator) is reported as unmapped, so nothing slips past.
 */
import { build, type Plugin } from "esbuild";
import { ROOT } from "./platform";

/** One SDK binding a script's bundle uses. */
export interface SdkUse {
  module: string;
  name: string;
}

const sideEffectFree: Plugin = {
  name: "side-effect-free",
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "resolving" || /^(@aws-sdk|@smithy)\//.test(args.path)) return undefined;
      const r = await b.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: "resolving",
      });
      if (r.errors.length > 0 || r.path.includes("/node_modules/")) return undefined;
      return { ...r, sideEffects: false };
    });
  },
};

/** The SDK bindings `scripts/<script>.ts` can use, and its bundle's text (for the transactions' item kinds). */
export async function sdkUses(script: string): Promise<{ uses: SdkUse[]; text: string }> {
  const out = await build({
    entryPoints: [`scripts/${script}.ts`],
    absWorkingDir: ROOT,
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    external: ["@aws-sdk/*", "@smithy/*"],
    plugins: [sideEffectFree],
    logLevel: "silent",
  });
  const text = out.outputFiles[0]?.text ?? "";
  const imports = [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(@aws-sdk\/[^"]+)";?/g)];
  const rest = imports.reduce((t, m) => t.replace(m[0], ""), text);
  const uses: SdkUse[] = [];
  for (const m of imports) {
    for (const binding of (m[1] ?? "")
      .split(",")
      .map((b) => b.trim())
      .filter(Boolean)) {
      const [name, alias] = binding.split(/\s+as\s+/) as [string, string | undefined];
      // esbuild keeps an external import whole even where its module uses only part of it: count what is used.
      if (new RegExp(`\\b${alias ?? name}\\b`).test(rest)) uses.push({ module: m[2] as string, name });
    }
  }
  return { uses, text };
}

/** IAM's service prefix of each SDK client package. */
const PREFIX: Record<string, string> = {
  "@aws-sdk/client-dynamodb": "dynamodb",
  "@aws-sdk/client-sqs": "sqs",
  "@aws-sdk/client-lambda": "lambda",
  "@aws-sdk/client-cloudwatch": "cloudwatch",
  "@aws-sdk/client-sns": "sns",
  "@aws-sdk/client-sesv2": "ses",
  "@aws-sdk/client-s3": "s3",
};

/** lib-dynamodb's document commands are the low-level operations by another name. */
const DOCUMENT_COMMANDS: Record<string, string> = {
  GetCommand: "GetItem",
  PutCommand: "PutItem",
  UpdateCommand: "UpdateItem",
  DeleteCommand: "DeleteItem",
  QueryCommand: "Query",
  ScanCommand: "Scan",
  BatchGetCommand: "BatchGetItem",
  BatchWriteCommand: "BatchWriteItem",
};

/** Where the IAM action is not the operation's name. */
const RENAMED: Record<string, string> = { "lambda:Invoke": "lambda:InvokeFunction" };

/** A transaction is authorized item by item: each kind of item its code writes needs that item action. */
const TRANSACTION_ITEMS: Record<string, string> = {
  Put: "dynamodb:PutItem",
  Update: "dynamodb:UpdateItem",
  Delete: "dynamodb:DeleteItem",
  ConditionCheck: "dynamodb:ConditionCheckItem",
  Get: "dynamodb:GetItem",
};

/**
 * The IAM actions an SDK binding needs: none for a client or an error class; undefined when it is a binding no
 * rule maps (the test reports it, so a new kind of call is mapped by a person, not missed).
 */
export function actionsOf(use: SdkUse, bundleText: string): string[] | undefined {
  if (/Client$|Exception$|^Service(Exception|InputTypes|OutputTypes)$/.test(use.name)) return [];
  if (!use.name.endsWith("Command")) return undefined;
  const op = use.name.slice(0, -"Command".length);
  if (use.module === "@aws-sdk/lib-dynamodb") {
    if (op === "TransactWrite" || op === "TransactGet") {
      const kinds = op === "TransactGet" ? ["Get"] : ["Put", "Update", "Delete", "ConditionCheck"];
      // The item kinds the bundled code builds (`{ Put: … }`); over-counting is safe, missing one is not.
      return kinds
        .filter((k) => new RegExp(`\\b${k}\\s*:`).test(bundleText))
        .map((k) => TRANSACTION_ITEMS[k] as string);
    }
    const mapped = DOCUMENT_COMMANDS[use.name];
    return mapped ? [`dynamodb:${mapped}`] : undefined;
  }
  const prefix = PREFIX[use.module];
  if (!prefix) return undefined;
  const action = `${prefix}:${op}`;
  return [RENAMED[action] ?? action];
}

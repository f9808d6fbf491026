import { createRequire } from "node:module";
import type { HttpRequest } from "@smithy/types";
import { makeFastProperties } from "./fast-properties";

const require = createRequire(import.meta.url);

interface SigningConfig {
  systemClockOffset?: number;
  disableClockSkewCorrection?: () => Promise<boolean | undefined>;
  signingRegion?: string;
  signingName?: string;
  defaultSigningName?: string;
  serviceId?: string;
  region?: string | (() => Promise<string>);
}

interface SigningProperties {
  config: SigningConfig;
  signingRegion?: string;
  signingName?: string;
  _disableClockSkewCorrection?: boolean;
  _skipClockSkewSampling?: boolean;
  _preRequestSystemClockOffset?: number;
  _requestSentAt?: number;
}

interface Identity {
  accessKeyId: string;
  sessionToken?: string;
}

type Sign = (
  this: unknown,
  request: HttpRequest,
  identity: Identity,
  props: SigningProperties,
) => Promise<unknown>;

interface Patchable {
  prototype: { sign: Sign };
}

interface Cloneable {
  clone: (request: HttpRequest) => HttpRequest;
}

let loaded: { AwsSdkSigV4Signer: Patchable; HttpRequest: Cloneable } | undefined;

/** The SDK's signer and request classes, the instances its clients use, required once (each stack installs). */
function sdk(): { AwsSdkSigV4Signer: Patchable; HttpRequest: Cloneable } {
  loaded ??= {
    AwsSdkSigV4Signer: (require("@aws-sdk/core/httpAuthSchemes") as { AwsSdkSigV4Signer: Patchable })
      .AwsSdkSigV4Signer,
    HttpRequest: (require("@smithy/core/protocols") as { HttpRequest: Cloneable }).HttpRequest,
  };
  return loaded;
}

/** Headers SigV4 generates (lower-case), taken off a request before it is signed (again, on a retry). */
const GENERATED_HEADERS = ["authorization", "x-amz-date", "date"];

/**
 * Signs requests to the models without SigV4's hashing (a new signer per request, the payload hashed, four HMACs for
 * the key and one for the signature): the models check no signature, they read only the Region the credential scope
 * names. Everything else the SDK's signer does around a signature stays (the clock-skew bookkeeping its handlers read
 * after the call, `x-amz-date`, the session token), and requests to any other host are signed as before. Sim only:
 * production builds its clients unchanged. Returns the undo.
 */
export function installSimSigner(simulated: (request: HttpRequest) => boolean): () => void {
  const { AwsSdkSigV4Signer, HttpRequest: Request } = sdk();
  const original = AwsSdkSigV4Signer.prototype.sign;
  AwsSdkSigV4Signer.prototype.sign = async function simSign(this: unknown, request, identity, props) {
    if (!simulated(request)) return original.call(this, request, identity, props);
    const { config } = props;
    makeFastProperties(config);
    const date = await signingDate(props);
    const region = props.signingRegion ?? config.signingRegion ?? (await regionOf(config));
    const service = props.signingName ?? config.signingName ?? config.defaultSigningName ?? config.serviceId;
    const signed = Request.clone(request);
    for (const name of Object.keys(signed.headers))
      if (GENERATED_HEADERS.includes(name.toLowerCase())) delete signed.headers[name];
    const longDate = date.toISOString().replace(/[-:]|\.\d{3}/g, "");
    signed.headers["x-amz-date"] = longDate;
    if (identity.sessionToken) signed.headers["x-amz-security-token"] = identity.sessionToken;
    const scope = `${longDate.slice(0, 8)}/${region}/${service}/aws4_request`;
    signed.headers.authorization = `AWS4-HMAC-SHA256 Credential=${identity.accessKeyId}/${scope}, SignedHeaders=host;x-amz-date, Signature=sim`;
    return signed;
  };
  return () => {
    AwsSdkSigV4Signer.prototype.sign = original;
  };
}

/** The date the SDK's signer would sign with, after the same clock-skew bookkeeping its success and error handlers read. */
async function signingDate(props: SigningProperties): Promise<Date> {
  const { config } = props;
  const noSkewCorrection = (await config.disableClockSkewCorrection?.()) === true;
  props._disableClockSkewCorrection = noSkewCorrection;
  props._skipClockSkewSampling = noSkewCorrection;
  if (!noSkewCorrection) {
    props._preRequestSystemClockOffset = config.systemClockOffset;
    props._requestSentAt = Date.now();
  }
  return noSkewCorrection ? new Date() : new Date(Date.now() + (config.systemClockOffset ?? 0));
}

async function regionOf(config: SigningConfig): Promise<string> {
  return typeof config.region === "function" ? config.region() : String(config.region);
}

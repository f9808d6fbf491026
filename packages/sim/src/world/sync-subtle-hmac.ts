import { createHmac, KeyObject, timingSafeEqual, type webcrypto } from "node:crypto";

type SubtleCrypto = webcrypto.SubtleCrypto;
type CryptoKey = webcrypto.CryptoKey;
type BufferSource = webcrypto.BufferSource;
type AlgorithmIdentifier = webcrypto.AlgorithmIdentifier;
type HmacKeyAlgorithm = webcrypto.HmacKeyAlgorithm;

type Subtle = SubtleCrypto;
type Algo = AlgorithmIdentifier | { name: string };

const nameOf = (a: Algo): string => (typeof a === "string" ? a : a.name).toUpperCase();

function hmacOf(key: CryptoKey, data: BufferSource): Buffer {
  const hash = (key.algorithm as HmacKeyAlgorithm).hash.name.replace("-", "").toLowerCase();
  const bytes = ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data as ArrayBuffer);
  return createHmac(hash, KeyObject.from(key)).update(bytes).digest();
}

/**
 * Makes WebCrypto's HMAC sign and verify answer at once: Node runs them on its thread pool, so their promises settle
 * at a real moment, and the local API's JWTs (jose, HS256) would let the machine, not the seed, order a run's steps.
 * The result is the same bytes; other algorithms are left to WebCrypto. Returns the undo.
 */
export function installSyncSubtleHmac(): () => void {
  const subtle = globalThis.crypto.subtle as unknown as Subtle;
  const sign = subtle.sign;
  const verify = subtle.verify;
  subtle.sign = function syncSign(this: Subtle, algorithm: Algo, key: CryptoKey, data: BufferSource) {
    if (nameOf(algorithm) !== "HMAC") return sign.call(this, algorithm, key, data);
    const mac = hmacOf(key, data);
    return Promise.resolve(mac.buffer.slice(mac.byteOffset, mac.byteOffset + mac.byteLength) as ArrayBuffer);
  } as Subtle["sign"];
  subtle.verify = function syncVerify(
    this: Subtle,
    algorithm: Algo,
    key: CryptoKey,
    signature: BufferSource,
    data: BufferSource,
  ) {
    if (nameOf(algorithm) !== "HMAC") return verify.call(this, algorithm, key, signature, data);
    const mac = hmacOf(key, data);
    const given = Buffer.from(
      ArrayBuffer.isView(signature)
        ? new Uint8Array(signature.buffer, signature.byteOffset, signature.byteLength)
        : new Uint8Array(signature as ArrayBuffer),
    );
    return Promise.resolve(given.length === mac.length && timingSafeEqual(given, mac));
  } as Subtle["verify"];
  return () => {
    subtle.sign = sign;
    subtle.verify = verify;
  };
}

// D-31: Ed25519 keys and signatures a release may not carry, though the platform's verifier (ReleaseDeps.verifyEd25519)
// may accept them: a non-canonical or small-order public key (one forged signature, R = identity and S = 0, verifies
// every message) and a signature with S >= L (a second spelling). Pure BigInt over RFC 8032's field; nothing at load.

/** The field prime 2^255 - 19 (RFC 8032, 5.1). */
const P = (1n << 255n) - 19n;
/** The order of the base point, L = 2^252 + 27742317777372353535851937790883648493 (RFC 8032, 5.1). */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

export type PublicKeyWeakness = 'non-canonical' | 'not-on-curve' | 'small-order';

function mod(a: bigint): bigint {
  const r = a % P;
  return r < 0n ? r + P : r;
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  let e = exponent;
  while (e > 0n) {
    if ((e & 1n) === 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}

function littleEndian(bytes: Uint8Array, from: number, to: number): bigint {
  let n = 0n;
  for (let i = to - 1; i >= from; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

type Point = readonly [bigint, bigint];

function curveD(): bigint {
  return mod(-121665n * power(121666n, P - 2n));
}

/** Adds two points of the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2 (affine, complete formula). */
function add(a: Point, b: Point, d: bigint): Point {
  const t = mod(d * a[0] * b[0] * a[1] * b[1]);
  const x = mod((a[0] * b[1] + b[0] * a[1]) * power(1n + t, P - 2n));
  const y = mod((a[1] * b[1] + a[0] * b[0]) * power(1n - t, P - 2n));
  return [x, y];
}

/** Why a 32-byte public key is refused; undefined for a canonical encoding (RFC 8032, 5.1.3) of a large-order point. */
export function publicKeyWeakness(key: Uint8Array): PublicKeyWeakness | undefined {
  if (key.length !== 32) return 'non-canonical';
  const sign = key[31]! >> 7;
  const y = littleEndian(key, 0, 32) & ((1n << 255n) - 1n);
  if (y >= P) return 'non-canonical';
  const d = curveD();
  const u = mod(y * y - 1n);
  const v = mod(d * y * y + 1n);
  const x2 = mod(u * power(v, P - 2n));
  let x: bigint;
  if (x2 === 0n) {
    // x = 0 has one encoding only: with the sign bit clear.
    if (sign === 1) return 'non-canonical';
    x = 0n;
  } else {
    x = power(x2, (P + 3n) / 8n);
    if (mod(x * x - x2) !== 0n) x = mod(x * power(2n, (P - 1n) / 4n));
    if (mod(x * x - x2) !== 0n) return 'not-on-curve';
    if (Number(x & 1n) !== sign) x = P - x;
  }
  let q: Point = [x, y];
  for (let i = 0; i < 3; i++) q = add(q, q, d);
  return q[0] === 0n && q[1] === 1n ? 'small-order' : undefined;
}

/** True when the scalar S of a 64-byte signature (its last 32 bytes, little-endian) is below L. */
export function signatureScalarCanonical(signature: Uint8Array): boolean {
  return signature.length === 64 && littleEndian(signature, 32, 64) < L;
}

import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Client secrets are stored as scrypt hashes (`scrypt$N$r$p$salt$hash`, base64 parts) and compared in
 * constant time. The parameters travel with the hash so they can be raised later without a migration.
 */
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(secret, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Hashing and checking of client secrets, injectable so tests can count or pause the scrypt work. */
export interface SecretHasher {
  hash(secret: string): Promise<string>;
  verify(secret: string, stored: string): Promise<boolean>;
}

export const scryptHasher: SecretHasher = { hash: hashSecret, verify: verifySecret };

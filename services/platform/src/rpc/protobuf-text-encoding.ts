/**
 * UTF-8 for protobuf-es through its documented `configureTextEncoding` hook, made cheaper where it costs.
 * protobuf-es's default encodes every string field with `TextEncoder.encode`, which allocates an
 * ArrayBuffer of its own per string: a third of `toBinary`'s time for a page of 20 transactions
 * (test/perf/list-cost.ts). `Buffer.from(text)` writes the same bytes into a slice of Node's shared pool.
 * Decoding stays `TextDecoder` (as fast as any alternative for these strings, measured), strict (`fatal`)
 * when protobuf-es asks for validation; `checkUtf8` (used only by protobuf-es's checked setters) asks
 * `String.prototype.isWellFormed` instead of the default's `encodeURIComponent` try/catch. Same bytes and
 * strings as the default in every case, lone surrogates included (both encoders write U+FFFD).
 */
import { Buffer } from "node:buffer";
import { configureTextEncoding } from "@bufbuild/protobuf/wire";

const lenient = new TextDecoder();
const strict = new TextDecoder("utf-8", { fatal: true });

export function encodeUtf8(text: string): Uint8Array<ArrayBuffer> {
  // Node's pool is a plain ArrayBuffer, never a SharedArrayBuffer.
  return Buffer.from(text, "utf8") as Uint8Array<ArrayBuffer>;
}

export function decodeUtf8(bytes: Uint8Array, validate?: boolean): string {
  return validate ? strict.decode(bytes) : lenient.decode(bytes);
}

export function checkUtf8(text: string): boolean {
  // ES2024, in Node since 20; the compiler's lib is ES2023.
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Installs the functions above for every protobuf-es call of this process; idempotent. */
export function useFastProtobufTextEncoding(): void {
  configureTextEncoding({ encodeUtf8, decodeUtf8, checkUtf8 });
}

/**
 * A protobuf message's fields under their wire names (snake_case, as the .proto file and the JSON bodies
 * name them), for renderers whose JSON shape is the message itself: they spread these and restate only the
 * fields they convert (timestamps, enums). Values are as the message holds them; nested messages are not
 * converted.
 */
import type { Message } from "@bufbuild/protobuf";

/** The snake_case name of a camelCase one, as a type: `startedAt` → `started_at`. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** A message's fields (not `$typeName` nor `$unknown`) under their snake_case names. */
export type WireFields<M extends Message> = {
  [K in keyof M as K extends `$${string}` ? never : K extends string ? SnakeCase<K> : never]: M[K];
};

export function wireFields<M extends Message>(message: M): WireFields<M> {
  const entries = Object.entries(message)
    .filter(([name]) => !name.startsWith("$"))
    .map(([name, value]) => [name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), value]);
  return Object.fromEntries(entries) as WireFields<M>;
}

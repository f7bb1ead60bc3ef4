import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * Time-ordered, URL-safe identifiers with a type prefix (`tx_01jc...`): 10 chars of milliseconds in
 * Crockford base32, then 16 random chars (80 bits). Sorting by id sorts by creation time.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b % 32];
  return `${prefix}_${time}${rand}`;
}

/**
 * A source of ids that sort in the order they were made, even within one millisecond (where `newId`'s
 * random part orders them at random): an id that would not sort after the previous one is the previous
 * one plus one in its random part, as ULID's monotonic factory does. For rows stored together whose
 * listing order is their id order (a batch of webhook deliveries).
 */
export function monotonicIds(prefix: string): (now?: number) => string {
  let last = "";
  return (now = Date.now()) => {
    const id = newId(prefix, now);
    last = id > last ? id : successor(last);
    return last;
  };
}

/** The next id in sort order: the last character that is not the alphabet's last goes up by one. */
function successor(id: string): string {
  const chars = [...id];
  for (let i = chars.length - 1; i > id.indexOf("_"); i--) {
    const next = ALPHABET.indexOf(chars[i]!) + 1;
    if (next < ALPHABET.length) {
      chars[i] = ALPHABET[next]!;
      return chars.join("");
    }
    chars[i] = ALPHABET[0]!;
  }
  throw new Error(`no id sorts after ${id}`);
}

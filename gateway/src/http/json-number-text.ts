/**
 * The exact text of every number in a JSON request body. JSON.parse turns `1234567.123456789012` into the
 * nearest double, and `String(double)` then gives `1234567.123456789`: digits a partner sent are lost. The
 * body is still parsed by the JSON parser (which validates it and refuses prototype poisoning); this
 * module scans the same text once more and remembers each number's source text against the object (or
 * array) and key that hold it, so money fields can be read exactly. Nothing else about the body changes.
 */
import { Dec } from "@payouts/platform/money/decimal";

const TEXTS = new WeakMap<object, Map<string, string>>();

/** Plain-notation numbers are used as written; an exponent is expanded only when it stays this small. */
const MAX_EXPONENT = 40;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

interface Frame {
  /** The parsed container, when the scan could match it to the parsed value. */
  readonly node: object | undefined;
  readonly isArray: boolean;
  /** Next array index, or the member key just read. */
  index: number;
  key: string | undefined;
}

/**
 * Records the source text of every number in `text` against its container in `root`, the value
 * JSON.parse(text) returned. `text` must be valid JSON (it was parsed first). Iterative, so nesting depth
 * costs heap, not stack.
 */
export function recordNumberTexts(text: string, root: unknown): void {
  const stack: Frame[] = [];
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let expectKey = false;
  const valueHere = (): unknown => {
    const frame = stack[stack.length - 1];
    if (!frame) return root;
    if (!frame.node) return undefined;
    const key = frame.isArray ? String(frame.index) : (frame.key ?? "");
    return Object.hasOwn(frame.node, key) ? (frame.node as Record<string, unknown>)[key] : undefined;
  };
  while (at < text.length) {
    const c = text[at];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      at++;
    } else if (c === "{" || c === "[") {
      const value = valueHere();
      const node = typeof value === "object" && value !== null ? value : undefined;
      stack.push({ node, isArray: c === "[", index: 0, key: undefined });
      expectKey = c === "{";
      at++;
    } else if (c === "}" || c === "]") {
      stack.pop();
      expectKey = false;
      at++;
    } else if (c === ",") {
      const frame = stack[stack.length - 1];
      if (frame?.isArray) frame.index++;
      else expectKey = true;
      at++;
    } else if (c === ":") {
      expectKey = false;
      at++;
    } else if (c === '"') {
      const end = stringEnd(text, at);
      const frame = stack[stack.length - 1];
      if (expectKey && frame) frame.key = JSON.parse(text.slice(at, end)) as string;
      at = end;
    } else {
      NUMBER.lastIndex = at;
      const number = NUMBER.exec(text);
      if (number) {
        const frame = stack[stack.length - 1];
        if (frame?.node)
          remember(frame.node, frame.isArray ? String(frame.index) : (frame.key ?? ""), number[0]);
        at += number[0].length;
        continue;
      }
      LITERAL.lastIndex = at;
      const literal = LITERAL.exec(text);
      if (!literal) return; // not JSON after all: record nothing more
      at += literal[0].length;
    }
  }
}

/** Index just past the string literal that starts at `start` (a double quote). */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === 0x5c) at += 2;
    else if (c === 0x22) return at + 1;
    else at++;
  }
  return at;
}

function remember(node: object, key: string, numberText: string): void {
  let texts = TEXTS.get(node);
  if (!texts) {
    texts = new Map();
    TEXTS.set(node, texts);
  }
  // A duplicated key keeps its last value, as JSON.parse does.
  texts.set(key, numberText);
}

/**
 * The number at `container[key]` in plain decimal notation, exactly as the client wrote it (`1e3` →
 * `1000`); undefined when that member is not a number from a parsed body. A number whose exponent is
 * beyond ±MAX_EXPONENT is answered as written, exponent and all: no plain decimal, so every reader refuses
 * it as it refuses any other bad decimal, where the double JSON.parse made of it (`1000…0001e-49` is 100)
 * would be a silently rounded amount.
 */
export function exactNumberText(container: object, key: string): string | undefined {
  const raw = TEXTS.get(container)?.get(key);
  if (raw === undefined) return undefined;
  const exponent = /[eE]([+-]?\d+)$/.exec(raw);
  if (!exponent) return raw;
  if (Math.abs(Number(exponent[1])) > MAX_EXPONENT) return raw;
  const value = new Dec(raw);
  return value.isZero() ? "0" : value.toFixed();
}

/** A copy of a body object with each number member replaced by its exact decimal text (see above). */
export function withExactNumbers(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...body };
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === "number") copy[key] = exactNumberText(body, key) ?? value;
  }
  return copy;
}

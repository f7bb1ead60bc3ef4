/**
 * Statements as JSON, streamed: a day is `{...summary, "lines": [...]}` and a range is
 * `{"statements": [day, ...]}` (the partner API's DailyStatement and StatementRange).
 * The text equals `JSON.stringify` of the same objects (no whitespace, the summary's own key order), so a
 * route may stream it or build it whole and send the same bytes.
 */
import type { StatementDocument } from "./statement-document.js";

/** Lines joined into one piece of text before it is handed on. */
const LINES_PER_CHUNK = 256;

async function* renderDocument({ summary, lines }: StatementDocument): AsyncGenerator<string> {
  const head = JSON.stringify(summary);
  let text = `${head.slice(0, -1)}${head === "{}" ? "" : ","}"lines":[`;
  let count = 0;
  for await (const line of lines) {
    text += (count === 0 ? "" : ",") + JSON.stringify(line);
    count += 1;
    if (count % LINES_PER_CHUNK === 0) {
      yield text;
      text = "";
    }
  }
  yield `${text}]}`;
}

/** One day as a JSON object; the range must hold exactly one statement. */
export async function* renderJsonDay(range: AsyncIterable<StatementDocument>): AsyncGenerator<string> {
  let seen = 0;
  for await (const document of range) {
    seen += 1;
    if (seen > 1) throw new RangeError("a single-day JSON statement was given more than one day");
    yield* renderDocument(document);
  }
  if (seen === 0) throw new RangeError("a single-day JSON statement was given no day");
}

/** A range as `{"statements": [...]}`. */
export async function* renderJsonRange(range: AsyncIterable<StatementDocument>): AsyncGenerator<string> {
  let first = true;
  yield '{"statements":[';
  for await (const document of range) {
    if (!first) yield ",";
    first = false;
    yield* renderDocument(document);
  }
  yield "]}";
}

/**
 * Which format a statement route answers in, and the renderer of each.
 *
 * `?format=json|csv|camt053` decides when given (an unknown value is 400 INVALID_FIELD); otherwise the
 * `Accept` header, negotiated with its quality values and wildcards: application/json, text/csv,
 * application/xml or text/xml (camt.053). No `Accept` means JSON; an `Accept` none of them satisfies is 406
 * NOT_ACCEPTABLE.
 */
import { newId } from "@payouts/platform/ids";
import Negotiator from "negotiator";
import { ApiError, invalidField } from "../http/api-error.js";
import { STATEMENT_FORMATS, type StatementFormat } from "./formats.js";
import { renderCamt053 } from "./statement-camt053.js";
import { renderCsv } from "./statement-csv.js";
import type { StatementDocument } from "./statement-document.js";
import { renderJsonDay, renderJsonRange } from "./statement-json.js";

export { STATEMENT_FORMATS, type StatementFormat };

/** Media types an `Accept` header may ask for, in order of preference when it allows several equally. */
const ACCEPTED_MEDIA_TYPES: readonly (readonly [string, StatementFormat])[] = [
  ["application/json", "json"],
  ["text/csv", "csv"],
  ["application/xml", "camt053"],
  ["text/xml", "camt053"],
];

export interface FormatRequest {
  /** The `format` query parameter, if any. */
  format?: string | undefined;
  /** The `Accept` header, if any. */
  accept?: string | undefined;
}

function isStatementFormat(value: string): value is StatementFormat {
  return (STATEMENT_FORMATS as readonly string[]).includes(value);
}

/** The format to answer in; throws ApiError 400 INVALID_FIELD (bad `format`) or 406 NOT_ACCEPTABLE. */
export function negotiateStatementFormat(request: FormatRequest): StatementFormat {
  if (request.format !== undefined) {
    if (isStatementFormat(request.format)) return request.format;
    throw invalidField("format", `must be one of ${STATEMENT_FORMATS.join(", ")}`);
  }
  const accept = request.accept?.trim();
  if (!accept) return "json";
  const chosen = new Negotiator({ headers: { accept } }).mediaType(
    ACCEPTED_MEDIA_TYPES.map(([type]) => type),
  );
  const format = ACCEPTED_MEDIA_TYPES.find(([type]) => type === chosen)?.[1];
  if (format) return format;
  throw new ApiError(
    406,
    "NOT_ACCEPTABLE",
    "statements are served as application/json, text/csv or application/xml (camt.053); or pass ?format=json|csv|camt053",
  );
}

/** `day`: one statement (JSON renders the object itself); `range`: any number of days (JSON renders an array). */
export type StatementShape = "day" | "range";

export interface StatementRenderer {
  format: StatementFormat;
  /** The Content-Type header of the response. */
  contentType: string;
  /** For a Content-Disposition file name, without the dot. */
  fileExtension: string;
  /** The body, streamed; pipe it with `pipeline(Readable.from(...), reply.raw)` to keep back-pressure. */
  render(range: AsyncIterable<StatementDocument>, shape?: StatementShape): AsyncIterable<string | Uint8Array>;
}

export interface RendererOptions {
  /** camt.053 GrpHdr/CreDtTm; the time of rendering by default. */
  now?: () => Date;
  /** camt.053 GrpHdr/MsgId; a fresh `msg_…` id by default. */
  messageId?: () => string;
}

export function statementRenderer(format: StatementFormat, options: RendererOptions = {}): StatementRenderer {
  switch (format) {
    case "json":
      return {
        format,
        contentType: "application/json; charset=utf-8",
        fileExtension: "json",
        render: (range, shape = "range") => (shape === "day" ? renderJsonDay(range) : renderJsonRange(range)),
      };
    case "csv":
      return {
        format,
        contentType: "text/csv; charset=utf-8; header=present",
        fileExtension: "csv",
        render: (range) => renderCsv(range),
      };
    case "camt053":
      return {
        format,
        contentType: "application/xml; charset=utf-8",
        fileExtension: "xml",
        render: (range) =>
          renderCamt053(range, {
            messageId: options.messageId?.() ?? newId("msg"),
            createdAt: options.now?.() ?? new Date(),
          }),
      };
  }
}

/**
 * Operators' view of bulk payouts (`admin/console-batch-routes.ts`): every partner's batches, one batch with
 * its per-item report, and cancelling a batch before it is funded. Shapes are the partner API's.
 */
import { defineOperations, ok } from "../../api/operation.js";
import { StringEnum, Type } from "../../api/schema.js";
import type { ErrorCase } from "../../openapi/openapi-errors.js";
import {
  BATCH_ID,
  BATCH_ITEM_STATUSES,
  BATCH_STATUSES,
  Batch,
  BatchItemList,
  BatchList,
} from "../partner/batch-api.js";
import { CONSOLE_TAG, Id, PAGE_CASES, Paging, QUERY_CASE, Query } from "./console-query-shapes.js";

const BATCH_PAGE = 50;
const NOT_FOUND: ErrorCase = ["BATCH_NOT_FOUND", "no batch has this id"];

export const AdminBatchListQuery = Query({
  status: Type.Optional(StringEnum(BATCH_STATUSES, { description: "Only batches in this status." })),
  partner_id: Type.Optional(Id("Only this partner's batches.", "ptr_01m7xx9726hzfmmn1fcz6t8605")),
  ...Paging(BATCH_PAGE),
});

export const AdminBatchItemsQuery = Query({
  status: Type.Optional(StringEnum(BATCH_ITEM_STATUSES, { description: "Only items in this status." })),
  ...Paging(BATCH_PAGE),
});

const operations = defineOperations(
  { tags: CONSOLE_TAG },
  {
    adminListBatches: {
      route: "GET /admin/batches",
      role: "viewer",
      summary: "Every partner's batches, newest first",
      query: AdminBatchListQuery,
      responses: ok("A page.", BatchList),
      errors: PAGE_CASES,
    },
    adminGetBatch: {
      route: "GET /admin/batches/{batch_id}",
      role: "viewer",
      summary: "A batch: status, counts, amounts and approvals",
      pathParams: BATCH_ID,
      responses: ok("The batch.", Batch),
      errors: [QUERY_CASE, NOT_FOUND],
    },
    adminListBatchItems: {
      route: "GET /admin/batches/{batch_id}/items",
      role: "viewer",
      summary: "A batch's per-item report, in row order",
      pathParams: BATCH_ID,
      query: AdminBatchItemsQuery,
      responses: ok("A page.", BatchItemList),
      errors: [...PAGE_CASES, NOT_FOUND],
    },
    adminCancelBatch: {
      route: "POST /admin/batches/{batch_id}/cancel",
      role: "operator",
      summary: "Cancel a batch before it is funded",
      description: "Its items' PENDING transactions expire. The cancel reason names the operator.",
      pathParams: BATCH_ID,
      responses: ok("The cancelled batch.", Batch),
      errors: [NOT_FOUND, ["BATCH_NOT_EDITABLE", "the batch is funded, already cancelled or expired"]],
    },
  },
);
export const { adminListBatches, adminGetBatch, adminListBatchItems, adminCancelBatch } = operations;
export const CONSOLE_BATCH_OPERATIONS = Object.values(operations);

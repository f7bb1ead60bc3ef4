/** Public entry point: the batch and item statuses in lifecycle order, which the API and the console list. */
export { BATCH_STATUSES, EDITABLE_STATUSES, ITEM_STATUSES } from "./batches/domain/batch-status.js";

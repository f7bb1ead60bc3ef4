/**
 * Public entry point: the body checks of `previewQuotations`, in the partner API's order. The pricing service
 * applies them to every PreviewQuotations call; the gateway runs the same function before authenticating,
 * as the partner API orders body errors before AUTHENTICATION_REQUIRED. One rule, one place: domain/preview.ts.
 */
export { type PreviewBody, validatePreviewBody } from "./domain/preview.js";

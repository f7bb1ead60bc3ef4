/**
 * Every pricing rejection is about the request itself (DESIGN.md §4: all 400), hence InvalidArgument
 * whatever the reason: the shared helpers do exactly that.
 */
export { rejection, requirePartnerId, valueOrReject } from "@payouts/platform/rpc/rejection";

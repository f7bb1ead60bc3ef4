import { type UseQueryOptions, useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import type { AdminApi } from "../api/admin-api";
import { useApi } from "../auth/session-context";

/**
 * The record a detail view's address names (`/batches/:batchId` names a batch by `batchId`): its id, and
 * its query, cached under `[key, id]` and refreshed every `refetchInterval` (never, by default).
 */
export function useRouteRecord<T>(
  param: string,
  key: string,
  load: (api: AdminApi, id: string) => Promise<T>,
  refetchInterval: UseQueryOptions<T, Error, T, string[]>["refetchInterval"] = false,
) {
  const id = useParams()[param] ?? "";
  const api = useApi();
  const query = useQuery({ queryKey: [key, id], queryFn: () => load(api, id), refetchInterval });
  return { id, query };
}

/**
 * One operation of the partner or admin API, defined once: its method and path, what it reads (path
 * parameters, query, headers, body — as shapes), what it answers (a shape per success status) and the
 * error codes it can answer, with when. The route registers from it (`addRoute`), reads its body with
 * `readBody(op.body, …)`, types its renderers with `Static<…>` of the response shapes, and the OpenAPI
 * document is built from the list of operations (`openapi/openapi-builder.ts`).
 */
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
  RouteHandlerMethod,
} from "fastify";
import type { ErrorCase, ErrorResponseOptions } from "../openapi/openapi-errors.js";
import type { Example, Header, Parameter, Reference } from "../openapi/openapi-types.js";
import type { OperatorRole } from "./operator-roles.js";
import type { Static, TObject, TSchema } from "./schema.js";

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface SuccessResponse {
  readonly description: string;
  /** The body's shape; absent for an empty answer (204). */
  readonly schema?: TSchema;
  /** `application/json` unless said. */
  readonly mediaType?: string;
  /** Other media types the same content is served in (by `Accept` or a query), documented as text. */
  readonly alsoAs?: readonly { readonly mediaType: string; readonly description: string }[];
  readonly examples?: Readonly<Record<string, Example>>;
  readonly headers?: Readonly<Record<string, Header | Reference>>;
}

export interface ApiOperation {
  readonly method: ApiMethod;
  /** The OpenAPI path template, `{name}` for a path parameter. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** Answers without credentials (documented with `security: []`). */
  readonly public?: boolean;
  /**
   * Admin operations: the least operator role that may call it (admin-actor.ts), enforced by the admin
   * listener's access check before the handler and documented as `x-required-role`. Every non-public admin
   * operation declares one (test/gateway/admin-roles.test.ts).
   */
  readonly role?: OperatorRole;
  /** Path parameters: one property per `{name}` of `path`, in order. */
  readonly pathParams?: TObject;
  /** Query parameters (read by the route; documented from this shape). */
  readonly query?: TObject;
  /** Other parameters, e.g. a header. */
  readonly parameters?: readonly (Parameter | Reference)[];
  /** The JSON body; its property order is its check order (`http/read-body.ts`). */
  readonly body?: TObject;
  readonly bodyExamples?: Readonly<Record<string, Example>>;
  /** A body that is not JSON (an uploaded file): its media types, read as a stream by the route. */
  readonly rawBody?: { readonly mediaTypes: readonly string[]; readonly description: string };
  readonly responses: Readonly<Record<number, SuccessResponse>>;
  /** What the operation itself can answer besides its listener's common errors. */
  readonly errors: readonly ErrorCase[];
  /** `errors` is the whole list, in the order the checks run: the listener's common errors are not added. */
  readonly ownErrorsOnly?: boolean;
  readonly errorOptions?: ErrorResponseOptions;
}

/** `"GET /admin/batches/{batch_id}"`: an operation's method and path template, as a request line names them. */
export type Route = `${ApiMethod} /${string}`;

/** An operation as its `*-api.ts` file writes it: method and path as one `route`, the operationId its key. */
export type OperationSpec = Omit<ApiOperation, "method" | "path" | "operationId"> & { readonly route: Route };

/** A spec of a group with `defaults`: the fields the defaults give may be left out (or overridden). */
type SpecWith<D> = Omit<OperationSpec, keyof D> & Partial<OperationSpec>;

type MethodOf<R> = R extends `${infer M extends ApiMethod} ${string}` ? M : never;

/** The operation `defineOperations` makes of spec `S` named `K` in a group with `defaults` D. */
type Defined<D, S extends Partial<OperationSpec>, K> = Omit<D, keyof S> &
  Omit<S, "route"> & {
    readonly method: MethodOf<S["route"]>;
    readonly path: string;
    readonly operationId: K;
  };

/**
 * A file's operations, by operationId, in document order: each is its spec with the group's `defaults`
 * (e.g. the tags every one of them has) under it, and `route` read into `method` and `path`. The specs
 * keep their literal types, so `Static` of their shapes works.
 */
export function defineOperations<
  const D extends Partial<OperationSpec>,
  const S extends Readonly<Record<string, SpecWith<D>>>,
>(defaults: D, specs: S): { readonly [K in keyof S]: Defined<D, S[K], K> } {
  const operations: Record<string, ApiOperation> = {};
  for (const [operationId, { route, ...spec }] of Object.entries(specs)) {
    const [method, path] = (route as Route).split(" ");
    operations[operationId] = { ...defaults, ...spec, method, path, operationId } as ApiOperation;
  }
  return operations as { readonly [K in keyof S]: Defined<D, S[K], K> };
}

/** The `responses` of an operation that answers 200 with `schema`. */
export const ok = <const S extends TSchema>(description: string, schema: S) => ({
  200: { description, schema },
});

export type ParamsOf<O extends ApiOperation> = O["pathParams"] extends TObject
  ? Static<O["pathParams"]>
  : Record<string, never>;

export type OperationHandler<O extends ApiOperation> = (
  request: FastifyRequest<{ Params: ParamsOf<O> }>,
  reply: FastifyReply,
) => Promise<unknown>;

/** `/a/{b}` → `/a/:b`. */
export const fastifyPath = (template: string): string => template.replace(/\{(\w+)\}/g, ":$1");

/** Registers `handler` at `op`'s method and path; `bodyLimit` raises the listener's cap for this route. */
export function addRoute<O extends ApiOperation>(
  app: FastifyInstance,
  op: O,
  handler: OperationHandler<O>,
  config?: FastifyContextConfig,
  options: { bodyLimit?: number } = {},
): void {
  const merged = {
    ...(op.role ? { requiredRole: op.role } : {}),
    ...(op.public ? { public: true } : {}),
    ...config,
  };
  app.route({
    method: op.method as HTTPMethods,
    url: fastifyPath(op.path),
    ...(Object.keys(merged).length > 0 ? { config: merged } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: handler as unknown as RouteHandlerMethod,
  });
}

/**
 * The subset of OpenAPI 3.1 this gateway's document uses, typed so that a misspelt key or a missing
 * `responses` is a compile error rather than a silently ignored field.
 */

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), restricted to the keywords we write. */
export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: JsonType | readonly JsonType[];
  readonly title?: string;
  readonly description?: string;
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly const?: string | number | boolean | null;
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly oneOf?: readonly JsonSchema[];
  readonly anyOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly examples?: readonly unknown[];
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  readonly deprecated?: boolean;
}

export type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

export interface Reference {
  readonly $ref: string;
  readonly summary?: string;
  readonly description?: string;
}

export interface Example {
  readonly summary?: string;
  readonly description?: string;
  /** A JSON value; money inside it may be a JsonDecimal, written with its exact decimals. */
  readonly value: unknown;
}

export interface MediaType {
  readonly schema: JsonSchema;
  readonly examples?: Readonly<Record<string, Example>>;
}

export type Content = Readonly<Record<string, MediaType>>;

export interface Header {
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface Parameter {
  readonly name: string;
  readonly in: "query" | "header" | "path" | "cookie";
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
  readonly example?: unknown;
}

export interface RequestBody {
  readonly description?: string;
  readonly required?: boolean;
  readonly content: Content;
}

export interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, Header | Reference>>;
  readonly content?: Content;
}

export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly parameters?: readonly (Parameter | Reference)[];
  readonly requestBody?: RequestBody;
  readonly responses: Readonly<Record<string, Response | Reference>>;
  /** `[]` marks a public operation; absent means the document's default (Basic). */
  readonly security?: readonly SecurityRequirement[];
  /** Admin API: the least operator role that may call the operation. */
  readonly "x-required-role"?: string;
}

export type HttpMethod = "get" | "put" | "post" | "delete" | "patch";

export type PathItem = Readonly<Partial<Record<HttpMethod, Operation>>> & {
  readonly parameters?: readonly (Parameter | Reference)[];
};

export interface SecurityScheme {
  readonly type: "http" | "apiKey";
  readonly scheme?: string;
  readonly name?: string;
  readonly in?: "header" | "query" | "cookie";
  readonly description: string;
}

export interface Server {
  readonly url: string;
  readonly description: string;
}

export interface Tag {
  readonly name: string;
  readonly description: string;
}

export interface OpenApiDocument {
  readonly openapi: "3.1.0";
  readonly jsonSchemaDialect?: string;
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly summary?: string;
    readonly description: string;
    readonly license?: { readonly name: string; readonly identifier?: string };
  };
  readonly servers: readonly Server[];
  readonly tags: readonly Tag[];
  readonly security: readonly SecurityRequirement[];
  readonly paths: Readonly<Record<string, PathItem>>;
  readonly webhooks: Readonly<Record<string, PathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly parameters: Readonly<Record<string, Parameter>>;
    readonly headers: Readonly<Record<string, Header>>;
    readonly responses: Readonly<Record<string, Response>>;
    readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  };
}

export const HTTP_METHODS: readonly HttpMethod[] = ["get", "put", "post", "delete", "patch"];

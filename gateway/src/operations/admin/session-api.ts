/** Operator sign-in, who-am-I and sign-out (`admin/session-routes.ts`), and the OpenID Connect sign-in. */
import { defineOperation } from "../../api/operation.js";
import { component, StringEnum, Type } from "../../api/schema.js";
import type { ErrorCase } from "../../openapi/openapi-errors.js";

const TAGS = ["Sessions"];

export const SignInRequest = component(
  "SignInRequest",
  Type.Object(
    {
      username: Type.String({ minLength: 1, maxLength: 100, description: "The operator's user name." }),
      password: Type.String({ minLength: 1, maxLength: 1024, description: "The operator's password." }),
      totp: Type.String({
        minLength: 1,
        maxLength: 16,
        description:
          "The current 6-digit code of the operator's authenticator app (TOTP); each code is accepted once.",
      }),
    },
    { additionalProperties: false },
  ),
);

export const WhoAmI = component(
  "AdminIdentity",
  Type.Object(
    {
      id: Type.String({ description: "`op_…` for an operator, `mc_…` for a machine credential." }),
      name: Type.String({ description: "User name or credential name." }),
      kind: StringEnum(["operator", "machine"]),
      role: StringEnum(["viewer", "operator", "finance", "admin"]),
    },
    { additionalProperties: false },
  ),
);

const SIGN_IN_CASES: readonly ErrorCase[] = [
  [
    "INVALID_SIGN_IN",
    "the user name, password or TOTP code is wrong, the code was used already, or the operator is disabled",
  ],
  [
    "RATE_LIMIT_EXCEEDED",
    "too many failed sign-ins for this user name from this address; retry after `Retry-After` seconds",
  ],
];

export const signIn = defineOperation({
  method: "POST",
  path: "/admin/session",
  operationId: "signIn",
  summary: "Sign in as an operator",
  description:
    "Public. Checks the password and the TOTP code and opens a server-side session: the answer sets the `payouts_admin_session` cookie (HttpOnly, SameSite=Strict, Secure behind an https ADMIN_PUBLIC_ORIGIN). Requests authenticated by the cookie that change state must send `X-Requested-With`.",
  tags: TAGS,
  public: true,
  body: SignInRequest,
  responses: { 201: { description: "Signed in.", schema: WhoAmI } },
  errors: SIGN_IN_CASES,
});

export const getSession = defineOperation({
  method: "GET",
  path: "/admin/session",
  operationId: "getSession",
  role: "viewer",
  summary: "Who is signed in",
  description: "The caller: the signed-in operator, or the machine credential of the bearer token.",
  tags: TAGS,
  responses: { 200: { description: "The caller.", schema: WhoAmI } },
  errors: [],
});

export const signOut = defineOperation({
  method: "DELETE",
  path: "/admin/session",
  operationId: "signOut",
  role: "viewer",
  summary: "Sign out",
  description:
    "Ends the session server-side (the cookie no longer works, wherever a copy of it is) and clears the cookie. With a bearer token nothing changes. When the session came from OpenID Connect and the provider supports it, `logout_url` is where to send the browser to end the provider's session too.",
  tags: TAGS,
  responses: {
    200: {
      description: "Signed out.",
      schema: component(
        "SignedOut",
        Type.Object(
          { logout_url: Type.Optional(Type.String({ description: "The provider's end-session URL." })) },
          { additionalProperties: false },
        ),
      ),
    },
  },
  errors: [],
});

export const SESSION_OPERATIONS = [signIn, getSession, signOut] as const;

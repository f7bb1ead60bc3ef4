/** Operator sign-in, who-am-I and sign-out (`admin/session-routes.ts`), and the OpenID Connect sign-in. */
import { defineOperations, ok } from "../../api/operation.js";
import { ClosedObject, StringEnum, Type } from "../../api/schema.js";
import type { ErrorCase } from "../../openapi/openapi-errors.js";

const TAGS = ["Sessions"];

export const SignInRequest = ClosedObject("SignInRequest", {
  username: Type.String({ minLength: 1, maxLength: 100, description: "The operator's user name." }),
  password: Type.String({ minLength: 1, maxLength: 1024, description: "The operator's password." }),
  totp: Type.String({
    minLength: 1,
    maxLength: 16,
    description:
      "The current 6-digit code of the operator's authenticator app (TOTP); each code is accepted once.",
  }),
});

export const WhoAmI = ClosedObject("AdminIdentity", {
  id: Type.String({ description: "`op_…` for an operator, `mc_…` for a machine credential." }),
  name: Type.String({ description: "User name or credential name." }),
  kind: StringEnum(["operator", "machine"]),
  role: StringEnum(["viewer", "operator", "finance", "admin"]),
});

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

const sessionOperations = defineOperations(
  { tags: TAGS },
  {
    signIn: {
      route: "POST /admin/session",
      summary: "Sign in as an operator",
      description:
        "Public. Checks the password and the TOTP code and opens a server-side session: the answer sets the `payouts_admin_session` cookie (HttpOnly, SameSite=Strict, Secure behind an https ADMIN_PUBLIC_ORIGIN). Requests authenticated by the cookie that change state must send `X-Requested-With`.",
      public: true,
      body: SignInRequest,
      responses: { 201: { description: "Signed in.", schema: WhoAmI } },
      errors: SIGN_IN_CASES,
    },
    getSession: {
      route: "GET /admin/session",
      role: "viewer",
      summary: "Who is signed in",
      description: "The caller: the signed-in operator, or the machine credential of the bearer token.",
      responses: ok("The caller.", WhoAmI),
      errors: [],
    },
    signOut: {
      route: "DELETE /admin/session",
      role: "viewer",
      summary: "Sign out",
      description:
        "Ends the session server-side (the cookie no longer works, wherever a copy of it is) and clears the cookie. With a bearer token nothing changes. When the session came from OpenID Connect and the provider supports it, `logout_url` is where to send the browser to end the provider's session too.",
      responses: {
        200: {
          description: "Signed out.",
          schema: ClosedObject("SignedOut", {
            logout_url: Type.Optional(Type.String({ description: "The provider's end-session URL." })),
          }),
        },
      },
      errors: [],
    },
  },
);
export const { signIn, getSession, signOut } = sessionOperations;
export const SESSION_OPERATIONS = Object.values(sessionOperations);

export const SignInOptions = ClosedObject("SignInOptions", {
  password: Type.Boolean({ description: "Sign-in with user name, password and TOTP code (always)." }),
  oidc: Type.Boolean({
    description: "Sign-in with the OpenID Connect provider (`GET /admin/oidc/login`).",
  }),
});

const LOCATION = {
  Location: { description: "Where the browser goes next.", required: true, schema: { type: "string" } },
} as const;
const NOT_CONFIGURED: ErrorCase = ["OIDC_NOT_CONFIGURED", "OIDC_ISSUER is not set"];

export const OidcCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ description: "The authorization code." })),
  state: Type.Optional(Type.String({ description: "The state the sign-in started with." })),
  iss: Type.Optional(Type.String({ description: "The provider (RFC 9207)." })),
  error: Type.Optional(Type.String({ description: "The provider's refusal." })),
  error_description: Type.Optional(Type.String()),
});

const oidcOperations = defineOperations(
  { tags: TAGS },
  {
    getSignInOptions: {
      route: "GET /admin/sign-in-options",
      summary: "How operators can sign in",
      description: "Public: what the console's sign-in page offers.",
      public: true,
      responses: ok("The ways to sign in.", SignInOptions),
      errors: [],
    },
    startOidcSignIn: {
      route: "GET /admin/oidc/login",
      summary: "Sign in with OpenID Connect",
      description:
        "Public. Redirects the browser to the provider (authorization code with PKCE; state and nonce kept server-side for 10 minutes, used once).",
      public: true,
      responses: { 303: { description: "To the provider's authorization endpoint.", headers: LOCATION } },
      errors: [NOT_CONFIGURED],
    },
    completeOidcSignIn: {
      route: "GET /admin/oidc/callback",
      summary: "The provider's redirect back",
      description:
        "Public. Exchanges the code (with the PKCE verifier), checks the ID token (signature, issuer, audience, expiry, nonce), maps the role claim (OIDC_ROLE_CLAIM through OIDC_ROLE_MAP) and opens a session like `POST /admin/session`, then redirects to the console.",
      public: true,
      query: OidcCallbackQuery,
      responses: {
        303: { description: "Signed in: to the console, with the session cookie.", headers: LOCATION },
      },
      errors: [
        NOT_CONFIGURED,
        ["OIDC_STATE_INVALID", "the state is unknown, expired or already used"],
        [
          "OIDC_CODE_REJECTED",
          "the provider refused the code (reused, expired, or for another client) or reported an error",
        ],
        ["OIDC_ID_TOKEN_INVALID", "the ID token's signature, issuer, audience, expiry or nonce is wrong"],
        ["OIDC_ROLE_UNMAPPED", "the user's role claim maps to no role, or the operator is disabled"],
      ],
    },
  },
);
export const {
  getSignInOptions: signInOptions,
  startOidcSignIn: oidcLogin,
  completeOidcSignIn: oidcCallback,
} = oidcOperations;
export const OIDC_OPERATIONS = Object.values(oidcOperations);

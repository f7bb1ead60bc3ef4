// oidc-provider ships no type declarations; the tests use it as the provider of the OpenID Connect flow.
declare module "oidc-provider";

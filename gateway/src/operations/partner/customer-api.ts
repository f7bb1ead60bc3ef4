/**
 * The senders partners register (`POST /customers`, `GET /customers/{customer_id}`, in `lookup-routes.ts`):
 * the lookup service applies the field rules the shapes document; the gateway caps the lengths.
 */
import { IC_TYPE_CODES } from "@payouts/lookup/ic-types";
import { defineOperations } from "../../api/operation.js";
import { ClosedObject, component, Nullable, type Static, serviceRule, Type } from "../../api/schema.js";
import { CUSTOMER_EXAMPLE, CUSTOMER_REQUEST_EXAMPLE } from "../../openapi/openapi-examples.js";
import { optionalText, serviceText } from "./lookup-api.js";

/** The customer's fields: the lookup service's rules (documented), the gateway's caps (second argument). */
export const CustomerRequest = component(
  "CustomerRequest",
  Type.Object(
    {
      name_first: serviceRule(
        Type.String({
          maxLength: 100,
          description: "1–100 characters with at least one letter; accents and non-Latin scripts are kept.",
        }),
        { maxLength: 200 },
      ),
      name_last: serviceRule(
        Type.String({ maxLength: 100, description: "1–100 characters with at least one letter." }),
        { maxLength: 200 },
      ),
      country: serviceRule(
        Type.String({
          pattern: "^[A-Za-z]{2}$",
          description: "ISO 3166-1 alpha-2 (or `XK`), any case; stored upper case.",
        }),
        { maxLength: 8 },
      ),
      ic_number: serviceText(
        "1–40 letters, digits, spaces, `.`, `-`, `/`; required together with `ic_type`. CPF and CNPJ must pass their check digits and are stored bare.",
        100,
        { minLength: 1, maxLength: 40 },
      ),
      ic_type: serviceText("Identity document type, any case; required together with `ic_number`.", 50, {
        enum: [...IC_TYPE_CODES],
      }),
      phone: serviceText(
        "International form: `+` and 8–15 digits (E.164); spaces, dots, hyphens and parentheses are removed. A number without `+` is refused.",
        50,
        { minLength: 1, maxLength: 50 },
      ),
      email: serviceText("At most 254 characters; stored lower case.", 320, {
        maxLength: 254,
        format: "email",
      }),
      external_reference: serviceText("Your id for this person, 1–100 characters; not unique.", 200, {
        minLength: 1,
        maxLength: 100,
      }),
    },
    {
      description:
        "A sender. The first failing check wins, in property order; each error names its field. Customers cannot be changed or deleted.",
    },
  ),
);

export const Customer = ClosedObject("Customer", {
  customer_id: Type.String({
    description: "Identifier to pass as `customer_id`.",
    examples: ["cus_01m7xx94hd26qz72tpjzafqaav"],
  }),
  name_first: Type.String({ description: "First name(s)." }),
  name_last: Type.String({ description: "Last name(s)." }),
  country: Type.String({ description: "ISO alpha-2, upper case." }),
  ic_type: optionalText("Only when given."),
  ic_number: optionalText("Only when given; CPF/CNPJ without punctuation."),
  phone: optionalText("Only when given; E.164."),
  email: optionalText("Only when given; lower case."),
  external_reference: optionalText("Only when given."),
  created_at: Nullable.Timestamp("Registration time."),
});
export type Customer = Static<typeof Customer>;

const operations = defineOperations(
  { tags: ["Customers"] },
  {
    createCustomer: {
      route: "POST /customers",
      summary: "Register a sender",
      description:
        "Registers the person (or business) on whose behalf you pay out. Every lookup names one by `customer_id`, and the transaction's sender is built from it. Registering the same person twice gives two customers.",
      body: CustomerRequest,
      bodyExamples: { brazilian: CUSTOMER_REQUEST_EXAMPLE },
      responses: {
        201: { description: "The customer.", schema: Customer, examples: { registered: CUSTOMER_EXAMPLE } },
      },
      errors: [
        [
          "MISSING_REQUIRED_FIELD",
          "`name_first`, `name_last` or `country` is absent, or one of `ic_type`/`ic_number` without the other",
        ],
        [
          "INVALID_FIELD",
          "a field breaks its rule (named in `field`): not a letter in a name, unknown country or `ic_type`, bad CPF/CNPJ check digits, a phone without `+`, a malformed e-mail",
        ],
      ],
    },
    getCustomer: {
      route: "GET /customers/{customer_id}",
      summary: "Read a sender",
      pathParams: Type.Object({ customer_id: Type.String({ description: "The customer's id." }) }),
      responses: {
        200: { description: "The customer.", schema: Customer, examples: { registered: CUSTOMER_EXAMPLE } },
      },
      errors: [
        ["MISSING_REQUIRED_FIELD", "`customer_id` is blank once trimmed (only whitespace, e.g. `%0D`)"],
        ["CUSTOMER_NOT_FOUND", "no such customer among yours (another partner's id included)", 404],
      ],
    },
  },
);
export const { createCustomer, getCustomer } = operations;
export const CUSTOMER_OPERATIONS = Object.values(operations);

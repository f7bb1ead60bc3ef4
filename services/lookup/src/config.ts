import { loadConfig } from "@payouts/platform/config/env-config";

/** Name-enquiry providers this build can talk to; a real provider adds its adapter and its name here. */
export const NAME_ENQUIRY_PROVIDERS = ["sandbox"] as const;
export type NameEnquiryProvider = (typeof NAME_ENQUIRY_PROVIDERS)[number];

const spec = {
  nameEnquiry: {
    env: "LOOKUP_NAME_ENQUIRY",
    doc: `who answers account-name lookups: ${NAME_ENQUIRY_PROVIDERS.join(", ")}`,
    parse: nameEnquiryProvider,
    default: "sandbox" as NameEnquiryProvider,
  },
} as const;

function nameEnquiryProvider(raw: string): NameEnquiryProvider {
  const provider = NAME_ENQUIRY_PROVIDERS.find((name) => name === raw.trim().toLowerCase());
  if (provider === undefined) throw new Error(`expected one of ${NAME_ENQUIRY_PROVIDERS.join(", ")}`);
  return provider;
}

export type LookupConfig = ReturnType<typeof loadLookupConfig>;

export function loadLookupConfig(env: Readonly<Record<string, string | undefined>>) {
  return loadConfig(spec, { ...env });
}

// The background loop moved to the platform package (the webhook dispatcher's retention job uses it too).
export * from "@payouts/platform/background/periodic-task";

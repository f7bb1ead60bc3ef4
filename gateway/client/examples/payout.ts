import {
  createPayoutsClient,
  type Transaction,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from "@payouts/client";

/** The partner API and one app's credentials (`npm start` prints sandbox ones). */
export interface Settings {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Pays 100 BRL to a Pix key for order `orderId` and answers the transaction once it is final. */
export async function payOut(settings: Settings, orderId: string): Promise<Transaction> {
  const payouts = createPayoutsClient(settings);

  // 1. Register the sender once and keep its customer_id: every payout's sender comes from it.
  const customer = await payouts.createCustomer({
    name_first: "Ana",
    name_last: "Souza",
    country: "BR",
    ic_type: "CPF",
    ic_number: "529.982.247-25",
    email: "ana.souza@example.com",
  });

  // 2. Validate the destination and name its holder: this creates a PENDING transaction.
  const lookup = await payouts.lookupPaymentCode({
    customer_id: customer.customer_id,
    country_code: "BR",
    payment_method: "payment_key",
    payment_destination: "52998224725",
    payment_destination_code: "PIX",
    partner_transaction_id: orderId,
  });

  // 3. A binding price. Decimal strings keep amounts exact; total_usd is what the balance is debited.
  const quote = await payouts.getQuotation({ tx_id: lookup.tx_id, amount: "100.00" });
  if (quote.total_usd > 25) throw new Error(`too expensive: ${quote.total_usd} USD`);

  // 4. Execute once. The client creates the idempotency key and retries lost answers and 5xx with it, so
  //    the balance is debited once whatever happens on the way; keep payout.idempotencyKey with the order.
  const payout = await payouts.executePayout({ tx_id: lookup.tx_id });

  // 5. The outcome arrives as a webhook (receiveNotification below); polling the transaction works too.
  let transaction = payout.transaction;
  while (transaction.status === "PROCESSING") {
    await new Promise((resolve) => setTimeout(resolve, 500));
    transaction = await payouts.getTransaction(transaction.tx_id);
  }
  return transaction; // SUCCESS, or FAILED with failure_reason (the balance is credited back)
}

/**
 * Your receiver for `{url}/webhooks/transactions/*`, in any runtime with the Fetch API (Deno.serve,
 * Bun.serve, edge workers, Node frameworks): verify the raw bytes, then act once per event_id.
 */
export async function receiveNotification(
  request: Request,
  secret: string,
  handle: (event: WebhookEvent) => Promise<void>,
): Promise<Response> {
  try {
    const { event } = await verifyWebhook(await request.arrayBuffer(), request.headers, secret);
    await handle(event); // delivery is at least once: skip an event_id you already handled
    return Response.json({ received: true });
  } catch (error) {
    if (error instanceof WebhookVerificationError) return new Response(null, { status: 401 });
    throw error;
  }
}

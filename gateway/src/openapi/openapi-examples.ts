/**
 * Examples of the document, copied from real responses of the embedded sandbox (`npm start`, sandbox FX
 * rates and fees 1.5 % + 0.30 USD) and from what a receiver saw. Kept as the exact response text so that
 * money keeps its decimals (`0.30`), and parsed once.
 */

import { parseExactJson } from "./exact-json.js";
import type { Example } from "./openapi-types.js";

const example = (summary: string, json: string): Example => ({ summary, value: parseExactJson(json) });

const SENDER =
  '{"name_first":"Ana","name_last":"Souza","country":"BR","ic_number":"52998224725","ic_type":"CPF","phone":"+5511987654321","email":"ana.souza@example.com"}';

export const LOOKUP_EXAMPLES = {
  manualNoAmount: example(
    "BR Pix CPF key without an amount: the amount is still missing",
    `{"is_dynamic":false,"is_business":false,"amount":0.00,"merchant":"","country":"BR","tx_id":"tx_01m7xx9726hzfmmn1fcz6t8605","currency":"BRL","partner_transaction_id":"order-1001","missing_fields":[{"field":"amount","type":"numeric","label":"Amount"}],"suggested_values":{},"sender":${SENDER},"recipient":{"account_no":"52998224725","country":"BR","name":"Pedro Santos","name_first":"Pedro","name_last":"Santos"}}`,
  ),
  kenyaTill: example(
    "KE till by merchant_id with an amount: priced at once",
    `{"is_dynamic":true,"is_business":true,"amount":1500.00,"merchant":"Mwangaza Wholesalers","merchant_id":"123456","merchant_name":"Mwangaza Wholesalers","payment_type":"till","merchant_info":{"merchant_id":"123456","display_name":"Mwangaza Wholesalers","country_code":"KE","payment_type":"till","lipa_number":"123456"},"country":"KE","tx_id":"tx_01m7xx973x9est9zf2g8ka8rh4","currency":"KES","partner_transaction_id":"","amount_usd":11.61,"fee":0.47,"percentage_fee":0.17,"fixed_fee":0.30,"missing_fields":[],"suggested_values":{},"sender":${SENDER},"recipient":{"account_no":"123456","country":"KE","name":"Mwangaza Wholesalers"}}`,
  ),
  vietnamAccountDp4: example(
    "VN bank account (merchant_id + BIN in account_reference), dp=4",
    `{"is_dynamic":false,"is_business":false,"amount":500000,"merchant":"","merchant_id":"0011001234567","country":"VN","tx_id":"tx_01m7xx9765qmdk238tbm8q4qy2","currency":"VND","partner_transaction_id":"","amount_usd":19.0114,"fee":0.5852,"percentage_fee":0.2852,"fixed_fee":0.3000,"missing_fields":[],"suggested_values":{},"sender":${SENDER},"recipient":{"account_no":"0011001234567","country":"VN","bank_code":"970436","bank_no":"970436","bank_name":"Vietcombank","name":"DO THI BINH","name_first":"THI BINH","name_last":"DO"}}`,
  ),
  decodedPix: example(
    "A static Pix QR decoded, with the partner's amount",
    `{"is_dynamic":false,"is_business":false,"amount":250.00,"merchant":"Fulano de Tal","country":"BR","tx_id":"tx_01m7xx99ztvn3zcepz5c7hb7kb","currency":"BRL","partner_transaction_id":"","amount_usd":46.30,"fee":0.99,"percentage_fee":0.69,"fixed_fee":0.30,"missing_fields":[],"suggested_values":{},"sender":${SENDER},"recipient":{"name":"Fulano de Tal"}}`,
  ),
};

export const LOOKUP_REQUEST_EXAMPLES = {
  brazilPix: example(
    "BR: Pix key (manual contract)",
    '{"customer_id":"cus_01m7xx94hd26qz72tpjzafqaav","country_code":"BR","payment_method":"payment_key","payment_destination":"52998224725","payment_destination_code":"PIX","partner_transaction_id":"order-1001"}',
  ),
  kenyaTill: example(
    "KE: till number (merchant contract) with an amount",
    '{"customer_id":"cus_01m7xx94hd26qz72tpjzafqaav","country_code":"KE","merchant_id":"123456","amount":1500}',
  ),
  vietnamAccount: example(
    "VN: bank account and NAPAS BIN",
    '{"customer_id":"cus_01m7xx94hd26qz72tpjzafqaav","country_code":"VN","merchant_id":"0011001234567","account_reference":"970436","amount":500000}',
  ),
  boliviaAccount: example(
    "BO: bank transfer with account type and recipient",
    '{"customer_id":"cus_01m7xx94hd26qz72tpjzafqaav","country_code":"BO","payment_method":"bank_transfer","payment_destination":"4012345678","payment_destination_code":"1","account_type":"SAVINGS","recipient":{"name_first":"Juan","name_last":"Mamani","ic_number":"4567890 LP"}}',
  ),
};

export const ERROR_EXAMPLES = {
  invalidDestination: example(
    "A CBU whose check digit is wrong",
    '{"code":"INVALID_DESTINATION","message":"Invalid CBU/CVU: second check digit (position 22) should be 7","field":"payment_destination","request_id":"req_01m7xx977sjctpkz6g3jw437yg"}',
  ),
  unknownDestination: example(
    "A well-formed CBU that name enquiry does not find",
    '{"code":"UNKNOWN_DESTINATION","message":"No account holder found for 2850590900000000000000 (CBU, AR): check the destination with the recipient","field":"payment_destination","request_id":"req_01m7xx9784jmst9039s3dcc8m6"}',
  ),
  senderNotAccepted: example(
    "A sender in the body",
    '{"code":"SENDER_NOT_ACCEPTED","message":"sender is not accepted: the sender is the registered customer named by customer_id","field":"sender","request_id":"req_01m7xx978kx3ewm2q72yswtg1m"}',
  ),
  authenticationRequired: example(
    "No or wrong credentials",
    '{"code":"AUTHENTICATION_REQUIRED","message":"valid Basic client credentials are required","request_id":"req_01m7xx9s4keh7b8wxjy5awys32"}',
  ),
  missingIdempotencyKey: example(
    "executePayout without X-Idempotency-Key",
    '{"code":"MISSING_IDEMPOTENCY_KEY","message":"the X-Idempotency-Key header is required: send a fresh unique value (a UUID) per payout","field":"X-Idempotency-Key","request_id":"req_01m7xx9a2wd8fhwzefe91t66zn"}',
  ),
  webhookConfigNotFound: example(
    "An unknown (or another partner's) config id",
    '{"code":"WEBHOOK_CONFIG_NOT_FOUND","message":"webhook config \\"whc_nope\\" not found","request_id":"req_01m7xx9s4c1w1qbzgddcbkd13z"}',
  ),
  webhookConfigInactive: example(
    "Redelivery to a deactivated config",
    '{"code":"WEBHOOK_CONFIG_INACTIVE","message":"webhook config whc_01m7xx9g5rjdhf24yzyd2vjq4m is inactive; reactivate it before redelivering","request_id":"req_01m7xx9s3h9qgqq6x5qnz5jn5r"}',
  ),
  invalidDeliveryStatus: example(
    "An unknown status filter",
    '{"code":"INVALID_FIELD","message":"status must be one of pending, delivering, delivered, dead","field":"status","request_id":"req_01m7xx9s4s6tyz1zyjm5060bd7"}',
  ),
  invalidSignature: example(
    "A callback whose signature does not match its timestamp and body",
    '{"code":"INVALID_SIGNATURE","message":"X-Rail-Signature does not match X-Rail-Timestamp and the request body","request_id":"req_01m7xxbjjr4hrc09cqj9rr3kxs"}',
  ),
  staleCallback: example(
    "An authentic callback signed too long ago (a replay, or a clock far off)",
    '{"code":"STALE_CALLBACK","message":"X-Rail-Timestamp is more than 300 s from now; sign each attempt anew","request_id":"req_01m7xxbjjr4hrc09cqj9rr3kxt"}',
  ),
};

export const PREVIEW_EXAMPLE = example(
  "100 USD priced in the sandbox partner's currencies (abridged to four)",
  '{"quotations":[{"amount":100.00,"currency":"USD","exchange_rate":1.0000000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30,"expires_at":"2026-11-21T02:29:34.689Z"},{"amount":540.00,"currency":"BRL","exchange_rate":5.4000000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30,"expires_at":"2026-11-21T02:29:34.689Z"},{"amount":12925.00,"currency":"KES","exchange_rate":129.2500000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30,"expires_at":"2026-11-21T02:29:34.689Z"},{"amount":2630000,"currency":"VND","exchange_rate":26300.0000000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30,"expires_at":"2026-11-21T02:29:34.689Z"}]}',
);

export const QUOTE_EXAMPLE = example(
  "540 BRL quoted on the Pix transaction",
  '{"tx_id":"tx_01m7xx9726hzfmmn1fcz6t8605","amount":540.00,"currency":"BRL","exchange_rate":5.4000000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30,"total_usd":101.80,"expires_at":"2026-11-21T02:29:40.306Z"}',
);

const QR_DATA =
  '{"sender":{"email":"ana.souza@example.com","phone":"+5511987654321","country":"BR","ic_type":"CPF","ic_number":"52998224725","name_last":"Souza","name_first":"Ana"},"recipient":{"name":"Pedro Santos","country":"BR","name_last":"Santos","account_no":"52998224725","name_first":"Pedro"},"payment_method":"payment_key","destination_type":"PIX_CPF","payment_destination":"52998224725","payment_destination_code":"PIX","institution_name":"Pix"}';
const PIX_TX_FIELDS =
  '"country":"BR","currency":"BRL","amount":540.00,"exchange_rate":5.4000000000,"amount_usd":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30,"partner_transaction_id":"order-1001"';

export const TRANSACTION_EXAMPLES = {
  executed: example(
    "The Pix payout accepted: PROCESSING, balance debited 101.80 USD",
    `{"tx_id":"tx_01m7xx9726hzfmmn1fcz6t8605","status":"PROCESSING",${PIX_TX_FIELDS},"qr_data":${QR_DATA},"created_at":"2026-11-21T01:59:37.286Z","updated_at":"2026-11-21T01:59:40.338Z","status_history":[{"from":null,"to":"PENDING","reason":"created","at":"2026-11-21T01:59:37.286Z"},{"from":"PENDING","to":"PROCESSING","reason":"executePayout","at":"2026-11-21T01:59:40.338Z"}]}`,
  ),
  settled: example(
    "The same payout after the rail reported success",
    `{"tx_id":"tx_01m7xx9726hzfmmn1fcz6t8605","status":"SUCCESS",${PIX_TX_FIELDS},"qr_data":${QR_DATA},"created_at":"2026-11-21T01:59:37.286Z","updated_at":"2026-11-21T01:59:41.886Z","status_history":[{"from":null,"to":"PENDING","reason":"created","at":"2026-11-21T01:59:37.286Z"},{"from":"PENDING","to":"PROCESSING","reason":"executePayout","at":"2026-11-21T01:59:40.338Z"},{"from":"PROCESSING","to":"SUCCESS","reason":"rail reported success","at":"2026-11-21T01:59:41.886Z"}]}`,
  ),
  failed: example(
    "A payout the rail failed (the debit was reversed)",
    '{"tx_id":"tx_01m7xxbeehcmwpcyh5xbv0t62s","status":"FAILED","country":"PE","currency":"PEN","amount":100.00,"exchange_rate":3.4000000000,"amount_usd":29.41,"fee":0.74,"percentage_fee":0.44,"fixed_fee":0.30,"partner_transaction_id":"","qr_data":{"sender":{"email":"ana.souza@example.com","phone":"+5511987654321","country":"BR","ic_type":"CPF","ic_number":"52998224725","name_last":"Souza","name_first":"Ana"},"recipient":{"name":"Sofía Romero","country":"PE","name_last":"Romero","account_no":"+51987659999","name_first":"Sofía"},"payment_method":"ewallet","destination_type":"PE_MOBILE","payment_destination":"+51987659999","payment_destination_code":"YAPE","institution_name":"Yape"},"failure_reason":"sandbox: destination account is closed","created_at":"2026-11-21T02:00:50.385Z","updated_at":"2026-11-21T02:00:52.166Z","status_history":[{"from":null,"to":"PENDING","reason":"created","at":"2026-11-21T02:00:50.385Z"},{"from":"PENDING","to":"PROCESSING","reason":"executePayout","at":"2026-11-21T02:00:50.473Z"},{"from":"PROCESSING","to":"FAILED","reason":"sandbox: destination account is closed","at":"2026-11-21T02:00:52.166Z"}]}',
  ),
};

export const TRANSACTION_LIST_EXAMPLE = example(
  "limit=2: two PENDING transactions, newest first, and the cursor of the next page",
  '{"transactions":[{"tx_id":"tx_01m7xx99ztvn3zcepz5c7hb7kb","status":"PENDING","country":"BR","currency":"BRL","amount":250.00,"exchange_rate":5.4000000000,"amount_usd":46.30,"fee":0.99,"percentage_fee":0.69,"fixed_fee":0.30,"partner_transaction_id":"","qr_data":{"sender":{"email":"ana.souza@example.com","phone":"+5511987654321","country":"BR","ic_type":"CPF","ic_number":"52998224725","name_last":"Souza","name_first":"Ana"},"recipient":{"name":"Fulano de Tal"},"payment_method":"payment_key","destination_type":"PIX_EVP","payment_destination":"123e4567-e12b-12d1-a456-426655440000","payment_destination_code":"PIX","merchant":"Fulano de Tal"},"created_at":"2026-11-21T01:59:40.282Z","updated_at":"2026-11-21T01:59:40.282Z"},{"tx_id":"tx_01m7xx97788x0dzdjdrxc6tyy1","status":"PENDING","country":"NG","currency":"NGN","amount":50000.00,"exchange_rate":1460.0000000000,"amount_usd":34.25,"fee":0.81,"percentage_fee":0.51,"fixed_fee":0.30,"partner_transaction_id":"","qr_data":{"sender":{"email":"ana.souza@example.com","phone":"+5511987654321","country":"BR","ic_type":"CPF","ic_number":"52998224725","name_last":"Souza","name_first":"Ana"},"recipient":{"name":"Ngozi Eze","bank_no":"000013","country":"NG","bank_code":"000013","bank_name":"Guaranty Trust Bank","name_last":"Eze","account_no":"0123456785","name_first":"Ngozi"},"payment_method":"bank_transfer","destination_type":"NUBAN","payment_destination":"0123456785","payment_destination_code":"000013","institution_name":"Guaranty Trust Bank"},"created_at":"2026-11-21T01:59:37.448Z","updated_at":"2026-11-21T01:59:37.448Z"}],"next_cursor":"WzE3OTUyMjYzNzc0NDgsInR4XzAxbTd4eDk3Nzg4eDBkemRqZHJ4YzZ0eXkxIl0"}',
);

export const BALANCE_EXAMPLE = example(
  "After one payout of 101.80 USD",
  '{"balance_usd":9898.20,"currency":"USD"}',
);

export const BANKS_EXAMPLE = example(
  "country_code=PE",
  '{"banks":[{"code":"YAPE","name":"Yape","type":"mobile_money"},{"code":"PLIN","name":"Plin","type":"mobile_money"}]}',
);

export const CUSTOMER_EXAMPLE = example(
  "A registered sender (CPF stored bare)",
  '{"customer_id":"cus_01m7xx94hd26qz72tpjzafqaav","name_first":"Ana","name_last":"Souza","country":"BR","ic_type":"CPF","ic_number":"52998224725","phone":"+5511987654321","email":"ana.souza@example.com","created_at":"2026-11-21T01:59:34.701Z"}',
);

export const CUSTOMER_REQUEST_EXAMPLE = example(
  "A Brazilian sender",
  '{"name_first":"Ana","name_last":"Souza","country":"BR","ic_type":"CPF","ic_number":"529.982.247-25","phone":"+5511987654321","email":"ana.souza@example.com"}',
);

const CONFIG_ID = '"config_id":"whc_01m7xx9g5rjdhf24yzyd2vjq4m","url":"http://127.0.0.1:18099/hooks"';

export const WEBHOOK_CONFIG_EXAMPLE = example(
  "A receiver with a signing secret and basic auth (both write-only)",
  `{${CONFIG_ID},"events":["transaction.success","transaction.refunded"],"active":true,"has_secret":true,"basic_auth":{"username":"payouts"},"disabled_reason":null,"previous_secret_expires_at":null,"created_at":"2026-11-21T01:59:46.617Z","updated_at":"2026-11-21T01:59:46.617Z"}`,
);

export const WEBHOOK_CONFIG_REQUEST_EXAMPLE = example(
  "Success and refund notifications, signed, with basic auth",
  '{"url":"https://partner.example.com/hooks","events":["transaction.success","transaction.refunded"],"secret":"partner-webhook-secret","basic_auth":{"username":"payouts","password":"s3cret-pass"}}',
);

export const WEBHOOK_SECRET_ROTATION_EXAMPLE = example(
  "A generated secret; the old one signs beside it for 24 h",
  `{${CONFIG_ID},"events":["transaction.success","transaction.refunded"],"active":true,"has_secret":true,"basic_auth":null,"disabled_reason":null,"previous_secret_expires_at":"2026-11-22T01:59:46.617Z","created_at":"2026-11-21T01:59:46.617Z","updated_at":"2026-11-21T01:59:46.617Z","secret":"3q2-7wZJcYb0gq8bq2cI6kQvyTz2PpS1mC9R0nE4uXo"}`,
);

export const WEBHOOK_CONFIG_LIST_EXAMPLE = example(
  "One receiver",
  `{"webhook_configs":[{${CONFIG_ID},"events":["transaction.success","transaction.refunded"],"active":true,"has_secret":true,"basic_auth":{"username":"payouts"},"disabled_reason":null,"previous_secret_expires_at":null,"created_at":"2026-11-21T01:59:46.617Z","updated_at":"2026-11-21T01:59:46.617Z"}]}`,
);

export const WEBHOOK_TEST_EXAMPLE = example(
  "The receiver answered 200 {}",
  '{"delivered":true,"status_code":200,"latency_ms":5,"error":null}',
);

export const DELIVERY_LIST_EXAMPLE = example(
  "The success and refund notifications of one payout, newest first",
  '{"deliveries":[{"delivery_id":"whd_01m7xx9n4e0tw3dnmj5m0vcwx5","config_id":"whc_01m7xx9g5rjdhf24yzyd2vjq4m","event_id":"evt_01m7xx9n4bv0xxxkta81df5536","event_type":"transaction.refunded","tx_id":"tx_01m7xx973x9est9zf2g8ka8rh4","status":"delivered","attempts":1,"next_attempt_at":null,"delivered_at":"2026-11-21T01:59:51.700Z","last_status_code":200,"last_error":null,"response_body":"{\\"received\\":true,\\"message\\":\\"ok\\"}","created_at":"2026-11-21T01:59:51.694Z","history":[{"attempt":1,"status_code":200,"error":null,"latency_ms":1,"at":"2026-11-21T01:59:51.700Z"}]},{"delivery_id":"whd_01m7xx9krmt76f4vaswng591ch","config_id":"whc_01m7xx9g5rjdhf24yzyd2vjq4m","event_id":"evt_01m7xx9krh0y9g66pndrqk5bj5","event_type":"transaction.success","tx_id":"tx_01m7xx973x9est9zf2g8ka8rh4","status":"delivered","attempts":1,"next_attempt_at":null,"delivered_at":"2026-11-21T01:59:50.304Z","last_status_code":200,"last_error":null,"response_body":"{}","created_at":"2026-11-21T01:59:50.292Z","history":[{"attempt":1,"status_code":200,"error":null,"latency_ms":6,"at":"2026-11-21T01:59:50.304Z"}]}]}',
);

export const RAIL_CALLBACK_EXAMPLE = example(
  "A verdict already recorded: acknowledged, nothing changed",
  '{"tx_id":"tx_01m7xxbeehcmwpcyh5xbv0t62s","status":"FAILED","changed":false}',
);

const KE_PARTIES =
  '"sender":{"email":"ana.souza@example.com","phone":"+5511987654321","country":"BR","ic_type":"CPF","ic_number":"52998224725","name_last":"Souza","name_first":"Ana"},"recipient":{"name":"Mwangaza Wholesalers","country":"KE","account_no":"123456"}';

export const NOTIFICATION_EXAMPLES = {
  success: example(
    "Sent to {url}/webhooks/transactions/success",
    `{"tx_id":"tx_01m7xx973x9est9zf2g8ka8rh4","status":"SUCCESS","amount":1500.00,"fee":0.47,"percentage_fee":0.17,"fixed_fee":0.30,${KE_PARTIES},"event_id":"evt_01m7xx9krh0y9g66pndrqk5bj5","event_type":"transaction.success","occurred_at":"2026-11-21T01:59:50.287Z"}`,
  ),
  refunded: example(
    "Sent to {url}/webhooks/transactions/refunded",
    `{"tx_id":"tx_01m7xx973x9est9zf2g8ka8rh4","status":"REFUNDED","amount":1500.00,"fee":0.47,"percentage_fee":0.17,"fixed_fee":0.30,${KE_PARTIES},"refund_reason":"customer cancelled the order","event_id":"evt_01m7xx9n4bv0xxxkta81df5536","event_type":"transaction.refunded","occurred_at":"2026-11-21T01:59:51.688Z"}`,
  ),
  failed: example(
    "Sent to {url}/webhooks/transactions/failed",
    '{"tx_id":"tx_01m7xxbeehcmwpcyh5xbv0t62s","status":"FAILED","amount":100.00,"fee":0.74,"percentage_fee":0.44,"fixed_fee":0.30,"sender":{"email":"ana.souza@example.com","phone":"+5511987654321","country":"BR","ic_type":"CPF","ic_number":"52998224725","name_last":"Souza","name_first":"Ana"},"recipient":{"name":"Sofía Romero","country":"PE","name_last":"Romero","account_no":"+51987659999","name_first":"Sofía"},"failure_reason":"sandbox: destination account is closed","event_id":"evt_01m7xxbg6nnzhdahxxbagerc7q","event_type":"transaction.failed","occurred_at":"2026-11-21T02:00:52.166Z"}',
  ),
  statementClosed: example(
    "Sent to {url}/webhooks/statements/closed",
    '{"statement_id":"stmt_20261120_3f1c0b9a2e7d4c5b6a18","partner_id":"ptr_01m7xx8z3k4vq2t8m0n6w9y5bc","date":"2026-11-20","time_zone":"UTC","period_start":"2026-11-20T00:00:00.000Z","period_end":"2026-11-21T00:00:00.000Z","revision":1,"currency":"USD","opening_balance_usd":"1000","closing_balance_usd":"964.939726027397260274","line_count":3,"total_debits_usd":"35.060273972602739726","total_credits_usd":"0","sha256":"9f2b6c1e4a7d3b8c5e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f","event_id":"evt_01m7xxc1q2w3e4r5t6y7u8i9o0","event_type":"statement.closed","occurred_at":"2026-11-21T00:10:00.412Z"}',
  ),
  batchItemSuccess: example(
    "An item of a bulk payout: batch_id and item_ref name it",
    '{"tx_id":"tx_01m7xxd2e9h4k6m8p0r2t4v6x8","batch_id":"bat_01m7xx9726hzfmmn1fcz6t8605","item_ref":"payroll-0001","status":"SUCCESS","amount":135.00,"fee":0.68,"percentage_fee":0.38,"fixed_fee":0.30,"sender":{"name_first":"Ana","name_last":"Souza","country":"BR"},"recipient":{"name":"Bruno Lima","country":"BR","name_last":"Lima","account_no":"52998224725","name_first":"Bruno"},"event_id":"evt_01m7xxd3f0j5l7n9q1s3u5w7y9","event_type":"transaction.success","occurred_at":"2026-11-21T03:00:12.031Z"}',
  ),
  batchCompleted: example(
    "Sent to {url}/webhooks/batches/completed",
    '{"batch_id":"bat_01m7xx9726hzfmmn1fcz6t8605","partner_id":"ptr_01m7xx8z3k4vq2t8m0n6w9y5bc","status":"COMPLETED","parent_batch_id":null,"counts":{"total":4,"succeeded":2,"failed":1,"invalid":1,"excluded":0},"paid_usd":"51.36","released_usd":"25.68","event_id":"evt_01m7xxd9a1c3e5g7j9l1n3q5s7","event_type":"batch.completed","occurred_at":"2026-11-21T03:00:14.512Z"}',
  ),
  test: example(
    "POST /webhookConfigs/{id}/test: a synthetic success marked test",
    '{"tx_id":"tx_test","status":"SUCCESS","amount":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30,"sender":{"name_first":"Test","name_last":"Sender","country":"US"},"recipient":{"name_first":"Test","name_last":"Recipient","country":"BR"},"event_id":"evt_test_01m7xx9s2sver6t336v3w1tf4e","event_type":"transaction.success","occurred_at":"2026-11-21T01:59:55.737Z","test":true}',
  ),
};

export const STATEMENT_PAGE_EXAMPLE = example(
  "A credit, then a payout and its fee",
  '{"entries":[{"id":"sl_41_0","type":"credit","tx_id":null,"partner_transaction_id":null,"amount":null,"currency":null,"exchange_rate":null,"amount_usd":"1000","created_at":"2026-11-21T01:50:00.000Z","balance_usd":"1000"},{"id":"sl_57_0","type":"payout","tx_id":"tx_01m7xx97788x0dzdjdrxc6tyy1","partner_transaction_id":"order-1","amount":"50000","currency":"NGN","exchange_rate":"1460","amount_usd":"-34.246575342465753425","created_at":"2026-11-21T01:59:40.282Z","balance_usd":"965.753424657534246575"},{"id":"sl_57_1","type":"fee","tx_id":"tx_01m7xx97788x0dzdjdrxc6tyy1","partner_transaction_id":"order-1","amount":null,"currency":null,"exchange_rate":null,"amount_usd":"-0.813698630136986301","created_at":"2026-11-21T01:59:40.282Z","balance_usd":"964.939726027397260274"}],"next_cursor":"WyI4MjMiLCI1NyIsMV0"}',
);

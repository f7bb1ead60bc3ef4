/** One entry of `GET /listBanks`: a code to send as payment_destination_code (or BIN), and what it is. */
export interface Bank {
  readonly code: string;
  readonly name: string;
  readonly type: "bank" | "mobile_money";
}

/**
 * The provider that moves the money. The ledger only submits; the verdict comes back later through the
 * gateway's signed callback route (RecordRailResult). A real provider is another implementation of this
 * interface. Submissions must be idempotent by tx_id: the ledger resubmits when it is unsure.
 */
export interface PayoutSubmission {
  readonly txId: string;
  readonly countryCode: string;
  readonly currency: string;
  /** Local amount, decimal string. */
  readonly amount: string;
  readonly destinationType: string;
  readonly paymentDestination: string;
  readonly paymentDestinationCode: string;
}

export interface SubmissionReceipt {
  readonly providerReference: string;
  /** False when the rail refused the payout outright (the ledger then fails and reverses it). */
  readonly accepted: boolean;
}

export interface PayoutRail {
  submit(submission: PayoutSubmission): Promise<SubmissionReceipt>;
}

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

export interface CancellationVerdict {
  /**
   * True: the rail will never pay this payout (it never had it and now refuses it for good, or withdrew
   * it), so the ledger may reverse the debit. False: the rail has it and may still pay; its verdict comes
   * by callback.
   */
  readonly cancelled: boolean;
  /** The rail's reference of the payout it has (when not cancelled). */
  readonly providerReference: string;
}

export interface PayoutRail {
  submit(submission: PayoutSubmission): Promise<SubmissionReceipt>;
  /** Asks the rail not to pay `txId`; idempotent, and final once it answered cancelled. */
  cancel(txId: string, reason: string): Promise<CancellationVerdict>;
}

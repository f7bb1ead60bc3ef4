-- Operators' reads across partners (the admin API's console routes, LedgerAdminService).
-- Newest transactions of every partner, and the overview's counts of recent ones, by creation time.
CREATE INDEX transactions_created ON ledger.transactions (created_at DESC, tx_id DESC);
-- A partner's reference searched without naming the partner.
CREATE INDEX transactions_reference_any ON ledger.transactions (partner_transaction_id)
  WHERE partner_transaction_id <> '';
-- A balance history pages by entry id within one account: the account index gains the id as its last
-- column (same prefix, so nothing that used the old one loses it, and no index is added to the write path).
DROP INDEX ledger.entries_account;
CREATE INDEX entries_account ON ledger.entries (partner_id, kind, entry_id);

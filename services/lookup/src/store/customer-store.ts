import type { Queryable } from "@payouts/platform/database/database";
import type { CustomerFields } from "../domain/customers/customer.js";

/** A customer as stored: the validated fields plus identity and creation time. */
export interface StoredCustomer extends CustomerFields {
  readonly customer_id: string;
  readonly partner_id: string;
  readonly created_at: Date;
}

const COLUMNS =
  "customer_id, partner_id, name_first, name_last, country, ic_type, ic_number, phone, email, external_reference, created_at";

export async function insertCustomer(
  db: Queryable,
  customer: { customer_id: string; partner_id: string; created_at: Date } & CustomerFields,
): Promise<StoredCustomer> {
  const res = await db.query<StoredCustomer>(
    `INSERT INTO lookup.customers (${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING ${COLUMNS}`,
    [
      customer.customer_id,
      customer.partner_id,
      customer.name_first,
      customer.name_last,
      customer.country,
      customer.ic_type,
      customer.ic_number,
      customer.phone,
      customer.email,
      customer.external_reference,
      customer.created_at,
    ],
  );
  return toCustomer(res.rows[0]!);
}

/** The partner's customer; undefined when it does not exist or belongs to another partner. */
export async function findCustomer(
  db: Queryable,
  partnerId: string,
  customerId: string,
): Promise<StoredCustomer | undefined> {
  const res = await db.query<StoredCustomer>(
    `SELECT ${COLUMNS} FROM lookup.customers WHERE customer_id = $1 AND partner_id = $2`,
    [customerId, partnerId],
  );
  const row = res.rows[0];
  return row === undefined ? undefined : toCustomer(row);
}

// PGlite and node-postgres both return timestamptz as Date; normalise in case a driver hands back text.
const toCustomer = (row: StoredCustomer): StoredCustomer => ({
  ...row,
  created_at: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
});

-- Reference data of the pricing service. Money and rates are NUMERIC(38,18): exact decimals with the
-- 18-decimal INTERNAL_SCALE the code computes at.

CREATE TABLE pricing.fx_rates (
  -- Upper-case ISO 4217 code; USD is implicitly 1 and never needs a row.
  currency text PRIMARY KEY CHECK (currency ~ '^[A-Z]{3}$'),
  -- Units of `currency` per 1 USD.
  rate_per_usd numeric(38, 18) NOT NULL CHECK (rate_per_usd > 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE pricing.corridors (
  -- ISO 3166 alpha-2 destination country.
  country_code text PRIMARY KEY CHECK (country_code ~ '^[A-Z]{2}$'),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  -- Inclusive limits of one payout, in local currency.
  min_amount numeric(38, 18) NOT NULL CHECK (min_amount >= 0),
  max_amount numeric(38, 18) NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (max_amount >= min_amount)
);

CREATE TABLE pricing.partner_pricing (
  -- The gateway owns partners; pricing keeps only their prices, keyed by the same id.
  partner_id text PRIMARY KEY,
  -- Targets of previewQuotations, in the operator's order; empty means USD only.
  supported_currencies text[] NOT NULL DEFAULT '{}',
  -- Percent of amount_usd ("1.5" = 1.5 %).
  fee_percent numeric(38, 18) NOT NULL DEFAULT 0 CHECK (fee_percent >= 0 AND fee_percent < 100),
  fee_fixed_usd numeric(38, 18) NOT NULL DEFAULT 0 CHECK (fee_fixed_usd >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The developer area's remaining account items (issue 11). Portable between H2 2.x and PostgreSQL 15; epoch ms (UTC).

-- Email verification (README "The developer area"): accounts that exist already were made by the operator or
-- before verification existed, and count as verified.
ALTER TABLE accounts ADD COLUMN email_verified_at BIGINT;
UPDATE accounts SET email_verified_at = created_at;

-- One-time links now serve three purposes: sign-in (admin login-link), email verification, password reset.
ALTER TABLE login_links ADD COLUMN purpose VARCHAR(20) DEFAULT 'sign_in' NOT NULL;

-- The model each AI pipeline uses for an account when a request names none (spec §2.5), chosen on the provider
-- keys page; no row: the service's default.
CREATE TABLE pipeline_models (
    account_id  VARCHAR(40) NOT NULL REFERENCES accounts(id),
    pipeline    VARCHAR(20) NOT NULL,
    model       VARCHAR(200) NOT NULL,
    PRIMARY KEY (account_id, pipeline)
);

-- Operations per account and UTC day (yyyy-mm-dd), counted as usage_counters counts them per month (spec §8):
-- the usage chart of the developer area. (DAY is a keyword of H2.)
CREATE TABLE usage_days (
    account_id     VARCHAR(40) NOT NULL REFERENCES accounts(id),
    utc_day        VARCHAR(10) NOT NULL,
    operations     INTEGER     NOT NULL,
    ai_operations  INTEGER     NOT NULL,
    PRIMARY KEY (account_id, utc_day)
);

-- The developer area (issue 11). Portable between H2 2.x and PostgreSQL 15; times are epoch milliseconds (UTC).
-- A password is optional: accounts made by `admin create-account` get one after signing in by a login link.
ALTER TABLE accounts ADD COLUMN password_hash VARCHAR(100);
ALTER TABLE api_keys ADD COLUMN name VARCHAR(100);
ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT;

-- One-time sign-in links (`admin login-link`): only the SHA-256 of the token is kept.
CREATE TABLE login_links (
    token_hash  VARCHAR(64) PRIMARY KEY,
    account_id  VARCHAR(40) NOT NULL REFERENCES accounts(id),
    expires_at  BIGINT      NOT NULL,
    used_at     BIGINT
);

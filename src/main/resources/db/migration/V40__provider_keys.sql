-- AI operations (issue 6): an account's own model provider keys, encrypted (AES-GCM, see ai/SecretBox).
CREATE TABLE provider_keys (
    id            VARCHAR(40)   PRIMARY KEY,
    account_id    VARCHAR(40)   NOT NULL REFERENCES accounts(id),
    provider      VARCHAR(20)   NOT NULL,
    model         VARCHAR(200)  NOT NULL,
    base_url      VARCHAR(2000),
    key_sealed    VARCHAR(4000) NOT NULL,
    created_at    BIGINT        NOT NULL,
    UNIQUE (account_id, provider)
);

-- Portable between H2 2.x and PostgreSQL 15. Timestamps are epoch milliseconds (UTC).
CREATE TABLE accounts (
    id              VARCHAR(40)  PRIMARY KEY,
    email           VARCHAR(320) NOT NULL UNIQUE,
    plan            VARCHAR(20)  NOT NULL,
    plan_expires_at BIGINT,
    webhook_secret  VARCHAR(100) NOT NULL,
    created_at      BIGINT       NOT NULL
);

CREATE TABLE api_keys (
    id          VARCHAR(40)  PRIMARY KEY,
    account_id  VARCHAR(40)  NOT NULL REFERENCES accounts(id),
    prefix      VARCHAR(20)  NOT NULL UNIQUE,
    key_hash    VARCHAR(64)  NOT NULL UNIQUE,
    created_at  BIGINT       NOT NULL,
    revoked_at  BIGINT
);

CREATE TABLE files (
    id           VARCHAR(40)  PRIMARY KEY,
    account_id   VARCHAR(40)  NOT NULL REFERENCES accounts(id),
    name         VARCHAR(255) NOT NULL,
    size         BIGINT       NOT NULL,
    content_type VARCHAR(120) NOT NULL,
    kind         VARCHAR(20)  NOT NULL,
    pages        INTEGER,
    encrypted    BOOLEAN      NOT NULL,
    source       VARCHAR(10)  NOT NULL,
    created_at   BIGINT       NOT NULL,
    expires_at   BIGINT       NOT NULL,
    deleted_at   BIGINT,
    purged       BOOLEAN      NOT NULL DEFAULT FALSE
);
CREATE INDEX files_account_created ON files(account_id, created_at);
CREATE INDEX files_expires ON files(expires_at);

CREATE TABLE jobs (
    id            VARCHAR(40)  PRIMARY KEY,
    account_id    VARCHAR(40)  NOT NULL REFERENCES accounts(id),
    operation     VARCHAR(40)  NOT NULL,
    status        VARCHAR(12)  NOT NULL,
    input_json    TEXT         NOT NULL,
    output_json   TEXT,
    error_code    VARCHAR(40),
    error_message VARCHAR(2000),
    progress_json VARCHAR(200),
    webhook_json  TEXT,
    node          VARCHAR(120),
    heartbeat_at  BIGINT,
    created_at    BIGINT       NOT NULL,
    started_at    BIGINT,
    finished_at   BIGINT
);
CREATE INDEX jobs_account_created ON jobs(account_id, created_at);
CREATE INDEX jobs_status ON jobs(status, created_at);

-- Successful operations per account and UTC calendar month (spec §8); kept after jobs are deleted.
CREATE TABLE usage_counters (
    account_id     VARCHAR(40) NOT NULL REFERENCES accounts(id),
    period         VARCHAR(7)  NOT NULL,
    operations     INTEGER     NOT NULL,
    ai_operations  INTEGER     NOT NULL,
    PRIMARY KEY (account_id, period)
);

-- Service-wide secrets (signed-link key), created once and shared by every node.
CREATE TABLE service_secrets (
    name   VARCHAR(40)  PRIMARY KEY,
    secret VARCHAR(200) NOT NULL
);

-- Workflows, webhook deliveries and quota reservations (issue 4). Portable between H2 2.x and PostgreSQL 15.

-- Saved workflows (spec §2.4, §4.3): steps as JSON [{operation, options}], validated when saved.
CREATE TABLE workflows (
    id          VARCHAR(40)  PRIMARY KEY,
    account_id  VARCHAR(40)  NOT NULL REFERENCES accounts(id),
    name        VARCHAR(200) NOT NULL,
    steps_json  TEXT         NOT NULL,
    created_at  BIGINT       NOT NULL
);
CREATE INDEX workflows_account ON workflows(account_id, created_at);

-- Webhook deliveries still to be attempted (spec §6). A row is due at next_attempt_at; every node polls for due
-- rows and claims one with a conditional update, so retries survive a restart. Rows are deleted when done.
CREATE TABLE webhook_deliveries (
    id              VARCHAR(40)  PRIMARY KEY,
    job_id          VARCHAR(40)  NOT NULL,
    account_id      VARCHAR(40)  NOT NULL,
    url             VARCHAR(2000) NOT NULL,
    payload         TEXT         NOT NULL,
    attempts        INTEGER      NOT NULL,
    next_attempt_at BIGINT       NOT NULL,
    created_at      BIGINT       NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at);
CREATE UNIQUE INDEX webhook_deliveries_job ON webhook_deliveries(job_id);

-- Operations reserved at admission and not yet counted or released (spec §8: concurrent requests cannot overshoot
-- the quota). usage_counters.reserved is the sum of the open reservations of that account and period.
ALTER TABLE usage_counters ADD COLUMN reserved INTEGER NOT NULL DEFAULT 0;
CREATE TABLE usage_reservations (
    id          VARCHAR(40) PRIMARY KEY,
    account_id  VARCHAR(40) NOT NULL,
    period      VARCHAR(7)  NOT NULL,
    remaining   INTEGER     NOT NULL,
    job_id      VARCHAR(40),
    created_at  BIGINT      NOT NULL
);
CREATE INDEX usage_reservations_created ON usage_reservations(created_at);

-- One row per account, locked (SELECT ... FOR UPDATE) while a job is admitted, so that counting the account's active
-- jobs and creating the new one cannot interleave (spec §8 job cap). A table of its own, without foreign keys:
-- locking the accounts row itself would block the job insert's foreign-key check on PostgreSQL.
CREATE TABLE admission_locks (
    account_id VARCHAR(40) PRIMARY KEY
);

-- Request rate limit buckets shared by all nodes (issue 15): Bucket4j's PostgreSQL proxy manager, select-for-update
-- (dev.docapi.limits.SharedRequestBuckets). id = the API key's public prefix; state = Bucket4j's serialized bucket;
-- expires_at = epoch milliseconds when the bucket is full again, after which the row may be deleted.
-- Portable between H2 2.x (BYTEA is its alias of VARBINARY) and PostgreSQL 15; H2 keeps buckets in memory and
-- leaves this table empty.
CREATE TABLE rate_limit_buckets (
    id         VARCHAR(64) PRIMARY KEY,
    state      BYTEA,
    expires_at BIGINT
);
CREATE INDEX rate_limit_buckets_expires ON rate_limit_buckets(expires_at);

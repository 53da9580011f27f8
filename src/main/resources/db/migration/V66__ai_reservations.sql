-- AI operations on the service's model reserved at admission like operations (issue 25 item 5). Portable between H2
-- 2.x and PostgreSQL 15.
ALTER TABLE usage_counters ADD COLUMN ai_reserved INTEGER DEFAULT 0 NOT NULL;
ALTER TABLE usage_reservations ADD COLUMN ai_remaining INTEGER DEFAULT 0 NOT NULL;

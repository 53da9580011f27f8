-- Operability (issue 24). Portable between H2 2.x and PostgreSQL 15.

-- The W3C traceparent of the request that admitted the job: the node that runs it (maybe another) continues that trace.
ALTER TABLE jobs ADD COLUMN trace_parent VARCHAR(64);

-- The queue-depth gauges count queued jobs and find the oldest at every scrape.
CREATE INDEX jobs_status_created ON jobs(status, created_at);

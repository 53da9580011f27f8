-- Durable job queue (issue 15). Portable between H2 2.x and PostgreSQL 15.

-- db-scheduler's executions: one row per queued or running job (task 'job', instance = job id). A node claims a row
-- (picked, picked_by, version) and keeps last_heartbeat fresh while the job runs; a row whose heartbeat stops is a
-- dead execution, handled by JobQueue. Columns as db-scheduler 16 expects them.
CREATE TABLE scheduled_tasks (
    task_name            VARCHAR(100) NOT NULL,
    task_instance        VARCHAR(100) NOT NULL,
    task_data            BYTEA,
    execution_time       TIMESTAMP WITH TIME ZONE NOT NULL,
    picked               BOOLEAN      NOT NULL,
    picked_by            VARCHAR(200),
    last_success         TIMESTAMP WITH TIME ZONE,
    last_failure         TIMESTAMP WITH TIME ZONE,
    consecutive_failures INTEGER,
    last_heartbeat       TIMESTAMP WITH TIME ZONE,
    version              BIGINT       NOT NULL,
    priority             SMALLINT,
    PRIMARY KEY (task_name, task_instance)
);
CREATE INDEX scheduled_tasks_execution_time ON scheduled_tasks(execution_time);
CREATE INDEX scheduled_tasks_last_heartbeat ON scheduled_tasks(last_heartbeat);
CREATE INDEX scheduled_tasks_priority_time ON scheduled_tasks(priority DESC, execution_time ASC);

-- What a node needs to run a job it did not admit: {files, options} of an operation or {files, steps} of a workflow,
-- secrets (passwords) included, sealed with SecretBox under the account id. input_json stays the redacted view.
ALTER TABLE jobs ADD COLUMN payload TEXT;

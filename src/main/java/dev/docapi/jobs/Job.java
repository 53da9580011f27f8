package dev.docapi.jobs;

import java.time.Instant;
import tools.jackson.databind.node.ObjectNode;

/**
 * A job record (spec §2.3). {@code input} is {@code {files, options}} with passwords removed; {@code output} holds
 * output file ids under {@code files} plus the operation's members; {@code progress} is {@code {done, total, unit}}
 * while running (DESIGN §4); {@code webhook} is the delivery record when a {@code webhook_url} was given.
 */
public record Job(String id, String accountId, String operation, JobStatus status, ObjectNode input, ObjectNode output,
                  String errorCode, String errorMessage, ObjectNode progress, ObjectNode webhook, Instant createdAt,
                  Instant startedAt, Instant finishedAt) {
}

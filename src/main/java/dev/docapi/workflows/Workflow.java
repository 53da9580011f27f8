package dev.docapi.workflows;

import java.time.Instant;
import tools.jackson.databind.node.ArrayNode;

/** A saved workflow (spec §2.4): {@code steps} as stored, {@code [{operation, options}]}, validated when saved. */
public record Workflow(String id, String accountId, String name, ArrayNode steps, Instant createdAt) {
}

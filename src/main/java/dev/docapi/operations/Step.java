package dev.docapi.operations;

import tools.jackson.databind.node.ObjectNode;

/** One validated workflow step (spec §2.4): an operation and its options (passwords included, never shown). */
public record Step(Operation<?> operation, ObjectNode options) {

    /** {@code {operation, options}} with secret options removed, as shown and stored on jobs. */
    public ObjectNode view(ObjectNode empty) {
        empty.put("operation", operation.name());
        empty.set("options", operation.options().redact(options));
        return empty;
    }
}

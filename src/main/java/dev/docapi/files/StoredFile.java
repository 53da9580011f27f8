package dev.docapi.files;

import dev.docapi.core.FileKind;
import java.time.Instant;

/**
 * A file's metadata (spec §2.2). {@code pages} is exact for PDFs and images and null where unknown (Office, HTML,
 * text, and PDFs that need a password to open). {@code encrypted} is true when opening needs a user password.
 */
public record StoredFile(String id, String accountId, String name, long size, String contentType, FileKind kind,
                         Integer pages, boolean encrypted, String source, Instant createdAt, Instant expiresAt,
                         Instant deletedAt) {

    /** The name without its last extension, for naming outputs ({@code report.pdf} → {@code report}). */
    public String baseName() {
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}

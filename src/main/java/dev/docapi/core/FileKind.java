package dev.docapi.core;

/**
 * What a stored file is, decided from its content at upload (spec §2.2 "accepted input types"). {@code CERTIFICATE}
 * is a PKCS#12 key store (.p12/.pfx) that {@code sign} takes by file id (issue 27), never an operation's input file.
 */
public enum FileKind {
    PDF, IMAGE, OFFICE, HTML, MARKDOWN, TEXT, ZIP, JSON, CERTIFICATE;

    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

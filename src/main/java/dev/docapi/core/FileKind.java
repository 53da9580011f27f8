package dev.docapi.core;

/** What a stored file is, decided from its content at upload (spec §2.2 "accepted input types"). */
public enum FileKind {
    PDF, IMAGE, OFFICE, HTML, MARKDOWN, TEXT, ZIP, JSON;

    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

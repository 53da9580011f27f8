package dev.docapi.jobs;

import java.util.Locale;

/** Job states (spec §3): queued until a runner claims it, then running, then succeeded or failed. */
public enum JobStatus {
    QUEUED, RUNNING, SUCCEEDED, FAILED;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean finished() {
        return this == SUCCEEDED || this == FAILED;
    }

    public static JobStatus of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}

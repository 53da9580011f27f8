package dev.docapi.web;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.springframework.stereotype.Component;

/** Formats for the pages, called from templates as {@code @areaFormat}. Times are UTC, as the API's. */
@Component("areaFormat")
class AreaFormat {
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** {@code 2026-11-23 21:55 UTC}, or a dash when there is no time. */
    public String time(Instant t) {
        return t == null ? "—" : MINUTE.format(t);
    }

    /** A job's run time, e.g. {@code 1.4 s}, or a dash while it has not finished. */
    public String duration(Instant start, Instant end) {
        return start == null || end == null ? "—" : String.format("%.1f s", (end.toEpochMilli() - start.toEpochMilli()) / 1000.0);
    }
}

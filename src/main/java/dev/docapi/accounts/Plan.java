package dev.docapi.accounts;

import java.util.Locale;

/** Account plans (spec §8). The free plan has a monthly operation quota; paid plans are unlimited within fair use. */
public enum Plan {
    FREE, WEEK_PASS, PRO, TEAM;

    public boolean paid() {
        return this != FREE;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException for a name that is not a plan */
    public static Plan of(String id) {
        try {
            return valueOf(id.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown plan '" + id + "' (free, week_pass, pro, team)");
        }
    }
}

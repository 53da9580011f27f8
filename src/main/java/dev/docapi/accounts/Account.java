package dev.docapi.accounts;

import java.time.Instant;

/** An account: who owns files, jobs and keys. {@code planExpiresAt} is set for a week pass (7 days). */
public record Account(String id, String email, Plan plan, Instant planExpiresAt, String webhookSecret, Instant createdAt) {

    /** The plan in force now: a week pass past its end counts as free. */
    public Plan effectivePlan(Instant now) {
        if (planExpiresAt != null && now.isAfter(planExpiresAt)) return Plan.FREE;
        return plan;
    }
}

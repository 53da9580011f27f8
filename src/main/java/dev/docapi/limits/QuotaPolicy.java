package dev.docapi.limits;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.Plan;
import java.time.Instant;
import org.springframework.stereotype.Component;

/** The monthly limits that apply to an account now (spec §8): its effective plan decides them. */
@Component
public class QuotaPolicy {
    private final LimitsProperties limits;

    public QuotaPolicy(LimitsProperties limits) {
        this.limits = limits;
    }

    /** The plan in force now (a week pass ends after 7 days). */
    public Plan plan(Account account) {
        return account.effectivePlan(Instant.now());
    }

    /** Successful operations allowed this month: the free quota, or the paid plans' fair-use threshold. */
    public int operations(Account account) {
        return plan(account).paid() ? limits.fairUseOperations() : limits.freeOperations();
    }

    /** Whether the operation limit is shown to the client (free plan) or is only the hidden fair-use ceiling. */
    public boolean operationsLimitShown(Account account) {
        return !plan(account).paid();
    }

    /** AI operations on the service's own model allowed this month. */
    public int aiOperations(Account account) {
        return plan(account).paid() ? limits.paidAiOperations() : limits.freeAiOperations();
    }
}

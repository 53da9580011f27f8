package dev.docapi.limits;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.UsageService;
import dev.docapi.http.Authenticated;
import jakarta.servlet.http.HttpServletRequest;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/usage} (spec §4.2, DESIGN §4): {@code {object:"usage", plan, period_start, period_end,
 * operations:{used, limit}, ai_operations:{used, limit}}}; a null {@code limit} means unlimited (paid plans, within
 * fair use). The period is the UTC calendar month: start inclusive, end exclusive, ISO 8601.
 */
@RestController
class UsageController {
    private final UsageService usage;
    private final QuotaPolicy policy;

    UsageController(UsageService usage, QuotaPolicy policy) {
        this.usage = usage;
        this.policy = policy;
    }

    @GetMapping("/v1/usage")
    Map<String, Object> usage(HttpServletRequest request) {
        Account account = Authenticated.account(request);
        int[] used = usage.current(account.id());
        LocalDate first = LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "usage");
        body.put("plan", policy.plan(account).id());
        body.put("period_start", first.atStartOfDay().toInstant(ZoneOffset.UTC).toString());
        body.put("period_end", first.plusMonths(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString());
        Map<String, Object> ops = new LinkedHashMap<>();
        ops.put("used", used[0]);
        ops.put("limit", policy.operationsLimitShown(account) ? policy.operations(account) : null);
        body.put("operations", ops);
        Map<String, Object> ai = new LinkedHashMap<>();
        ai.put("used", used[1]);
        ai.put("limit", policy.aiOperations(account));
        body.put("ai_operations", ai);
        return body;
    }
}

package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.UsageService;
import dev.docapi.limits.QuotaPolicy;
import java.security.Principal;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** Usage (spec §8): this month's counters against the plan's quotas, and a server-made SVG chart of operations per day. */
@Controller
class UsagePageController {
    /** The chart's days, today included. */
    static final int CHART_DAYS = 7;
    private final UsageService usage;
    private final QuotaPolicy quotas;
    private final CurrentAccount current;

    UsagePageController(UsageService usage, QuotaPolicy quotas, CurrentAccount current) {
        this.usage = usage;
        this.quotas = quotas;
        this.current = current;
    }

    /** One bar of the chart: its day, count, and height as a percentage of the tallest. */
    record Bar(LocalDate day, long count, int percent) {
    }

    @GetMapping("/usage")
    String usage(Principal principal, Model model) {
        Account a = current.of(principal);
        int[] used = usage.current(a.id());
        model.addAttribute("account", a);
        model.addAttribute("plan", quotas.plan(a).id());
        model.addAttribute("period", UsageService.currentPeriod());
        model.addAttribute("operations", used[0]);
        model.addAttribute("operationsLimit", quotas.operationsLimitShown(a) ? quotas.operations(a) : null);
        model.addAttribute("aiOperations", used[1]);
        model.addAttribute("aiOperationsLimit", quotas.aiOperations(a));
        model.addAttribute("bars", bars(a.id()));
        return "usage";
    }

    private List<Bar> bars(String accountId) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate first = today.minusDays(CHART_DAYS - 1);
        // operations as the quotas count them (a workflow's steps, an agent's operations), not jobs
        Map<LocalDate, Integer> perDay = usage.operationsPerDay(accountId, first);
        int max = Math.max(1, perDay.values().stream().mapToInt(Integer::intValue).max().orElse(1));
        List<Bar> bars = new ArrayList<>();
        for (LocalDate d = first; !d.isAfter(today); d = d.plusDays(1)) {
            int n = perDay.getOrDefault(d, 0);
            bars.add(new Bar(d, n, (int) (n * 100 / max)));
        }
        return bars;
    }
}

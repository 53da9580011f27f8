package dev.docapi.api;

import dev.docapi.accounts.Account;
import dev.docapi.http.Authenticated;
import dev.docapi.jobs.JobStore;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.ObjectNode;

/** Jobs (spec §4.2): list (newest first, limit 1-100, default 20) and get (to poll). */
@RestController
public class JobsController {
    private final JobStore jobs;
    private final Views views;

    public JobsController(JobStore jobs, Views views) {
        this.jobs = jobs;
        this.views = views;
    }

    @GetMapping("/v1/jobs")
    ObjectNode list(HttpServletRequest request, @RequestParam(required = false) String limit) {
        Account account = Authenticated.account(request);
        return views.list(jobs.list(account.id(), Limits.limit(limit, 1, 100, 20)).stream().map(views::job).toList());
    }

    @GetMapping("/v1/jobs/{id}")
    ObjectNode get(HttpServletRequest request, @PathVariable String id) {
        return views.job(jobs.get(Authenticated.account(request).id(), id));
    }
}

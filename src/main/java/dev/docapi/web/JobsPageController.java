package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.api.Views;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobStore;
import java.security.Principal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import tools.jackson.databind.json.JsonMapper;

/** Recent jobs with live progress (htmx polls the table while a job runs), and one job's JSON, output files and webhook delivery. */
@Controller
class JobsPageController {
    static final int RECENT = 50;
    private final JobStore jobs;
    private final Views views;
    private final JsonMapper json;
    private final CurrentAccount current;

    JobsPageController(JobStore jobs, Views views, JsonMapper json, CurrentAccount current) {
        this.jobs = jobs;
        this.views = views;
        this.json = json;
        this.current = current;
    }

    @GetMapping("/jobs")
    String jobs(Principal principal, Model model) {
        rows(principal, model);
        return "jobs";
    }

    /** The table alone, what htmx swaps in every 2 s while a job is queued or running. */
    @GetMapping("/jobs/rows")
    String rows(Principal principal, Model model) {
        var list = jobs.list(current.of(principal).id(), RECENT);
        model.addAttribute("jobs", list);
        model.addAttribute("live", list.stream().anyMatch(j -> !j.status().finished()));
        return "jobs :: rows";
    }

    @GetMapping("/jobs/{id}")
    String job(Principal principal, @PathVariable String id, Model model) {
        Account a = current.of(principal);
        Job job = jobs.find(id).filter(j -> j.accountId().equals(a.id())).orElseThrow(CurrentAccount::notFound);
        var view = views.job(job);
        model.addAttribute("job", job);
        model.addAttribute("json", json.writerWithDefaultPrettyPrinter().writeValueAsString(view));
        model.addAttribute("outputs", view.path("output").path("files"));
        model.addAttribute("webhook", view.path("webhook"));
        return "job";
    }
}

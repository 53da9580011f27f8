package dev.docapi.web;

import dev.docapi.accounts.AccountService;
import dev.docapi.webhooks.WebhookDispatcher;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobStore;
import java.security.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import tools.jackson.databind.JsonNode;

/**
 * The webhook signing secret (spec §6): revealed on request, rotated with confirmation; a test event sent to a URL;
 * the recent deliveries of the account's jobs with their attempts (as each job's {@code webhook} record has them).
 */
@Controller
class WebhooksPageController {
    private final AccountService accounts;
    private final WebhookDispatcher webhooks;
    static final int RECENT = 50;
    private final JobStore jobs;
    private final CurrentAccount current;

    WebhooksPageController(AccountService accounts, WebhookDispatcher webhooks, JobStore jobs, CurrentAccount current) {
        this.accounts = accounts;
        this.jobs = jobs;
        this.webhooks = webhooks;
        this.current = current;
    }

    /** One attempt: when, the receiver's HTTP status (null: no answer) and what went wrong (null: delivered). */
    record Attempt(Instant at, Integer statusCode, String error) {
    }

    /** A job's delivery: its event, URL, status ({@code pending|delivered|failed}) and attempts, oldest first. */
    record Delivery(String jobId, String event, String url, String status, List<Attempt> attempts) {
    }

    @ModelAttribute("deliveries")
    List<Delivery> deliveries(Principal principal) {
        return jobs.withWebhook(current.of(principal).id(), RECENT).stream().map(WebhooksPageController::delivery).toList();
    }

    private static Delivery delivery(Job job) {
        JsonNode w = job.webhook();
        List<Attempt> attempts = new ArrayList<>();
        for (JsonNode a : w.path("attempts")) {
            JsonNode code = a.path("status_code");
            attempts.add(new Attempt(Instant.parse(a.path("at").asString()), code.isNumber() ? code.asInt() : null, a.path("error").asString(null)));
        }
        String event = job.status().finished() ? "job." + job.status().name().toLowerCase(java.util.Locale.ROOT) : "—";
        return new Delivery(job.id(), event, w.path("url").asString(""), w.path("status").asString(""), attempts);
    }

    @GetMapping("/webhooks")
    String webhooks() {
        return "webhooks";
    }

    /** A POST, so the secret is never in a page a plain GET (or a prefetch) brings back. */
    @PostMapping("/webhooks/secret")
    String reveal(Principal principal, Model model) {
        model.addAttribute("secret", current.of(principal).webhookSecret());
        return "webhooks";
    }

    @PostMapping("/webhooks/secret/rotate")
    String rotate(Principal principal, Model model) {
        model.addAttribute("secret", accounts.rotateWebhookSecret(current.of(principal).id()));
        model.addAttribute("rotated", true);
        return "webhooks";
    }

    /** Sends one signed test {@code job.succeeded} event, as real deliveries are sent, and shows what the receiver answered. */
    @PostMapping("/webhooks/test")
    String test(Principal principal, @RequestParam String url, Model model) {
        model.addAttribute("testUrl", url);
        model.addAttribute("outcome", webhooks.sendTest(current.of(principal), url.strip()));
        return "webhooks";
    }
}

package dev.docapi.web;

import dev.docapi.accounts.AccountService;
import dev.docapi.webhooks.WebhookDispatcher;
import java.security.Principal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The webhook signing secret (spec §6): revealed on request, rotated with confirmation; a test event sent to a URL. */
@Controller
class WebhooksPageController {
    private final AccountService accounts;
    private final WebhookDispatcher webhooks;
    private final CurrentAccount current;

    WebhooksPageController(AccountService accounts, WebhookDispatcher webhooks, CurrentAccount current) {
        this.accounts = accounts;
        this.webhooks = webhooks;
        this.current = current;
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

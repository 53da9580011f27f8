package dev.docapi.web;

import dev.docapi.accounts.AccountService;
import java.security.Principal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;

/** The webhook signing secret (spec §6): revealed on request, rotated with confirmation. */
@Controller
class WebhooksPageController {
    private final AccountService accounts;
    private final CurrentAccount current;

    WebhooksPageController(AccountService accounts, CurrentAccount current) {
        this.accounts = accounts;
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
}

package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.AccountService;
import dev.docapi.mail.AccountMail;
import java.security.Principal;
import java.util.Optional;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * API keys (spec §5): create with a name (the key is shown once, on the answer to the form), list, revoke. With
 * SMTP ({@code DOCAPI_SMTP_URL}), an account whose email is not verified yet cannot create one.
 */
@Controller
class KeysController {
    private final AccountService accounts;
    private final CurrentAccount current;
    private final boolean verificationMailed;

    KeysController(AccountService accounts, CurrentAccount current, Optional<AccountMail> mail) {
        this.accounts = accounts;
        this.current = current;
        this.verificationMailed = mail.isPresent();
    }

    @GetMapping({"/", "/keys"})
    String keys(Principal principal, Model model) {
        Account a = current.of(principal);
        model.addAttribute("keys", accounts.listKeys(a.id()));
        model.addAttribute("unverified", unverified(a));
        return "keys";
    }

    /** Answers the page itself rather than a redirect, so the new key lives in no URL, session or later page. */
    @PostMapping("/keys")
    String create(Principal principal, @RequestParam(defaultValue = "") String name, Model model) {
        Account a = current.of(principal);
        String clean = name.strip();
        if (unverified(a)) {
            model.addAttribute("problem", "Verify your email first: follow the link mailed to " + a.email() + ".");
        } else if (clean.isEmpty() || clean.length() > 100) {
            model.addAttribute("problem", "Give the key a name of 1 to 100 characters.");
        } else {
            model.addAttribute("newKey", accounts.createKey(a.id(), clean));
            model.addAttribute("newKeyName", clean);
        }
        return keys(principal, model);
    }

    private boolean unverified(Account a) {
        return verificationMailed && !accounts.isEmailVerified(a.id());
    }

    @PostMapping("/keys/{id}/revoke")
    String revoke(Principal principal, @PathVariable String id) {
        if (!accounts.revokeKey(current.of(principal).id(), id)) throw CurrentAccount.notFound();
        return "redirect:/keys?revoked";
    }
}

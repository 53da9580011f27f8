package dev.docapi.web;

import dev.docapi.accounts.AccountService;
import dev.docapi.accounts.LoginLinks;
import dev.docapi.accounts.LoginLinks.Purpose;
import dev.docapi.mail.AccountMail;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The pages of the mailed one-time links (issue 11), only with {@code DOCAPI_SMTP_URL} (else 404): "forgot password"
 * and the reset page, email verification and sending its link again. As with the sign-in link, a link's GET shows a
 * button and only the POST uses the token, so that a mail scanner fetching the link does not use it up.
 */
@Controller
@ConditionalOnWebApplication
class MailLinksController {
    private static final String INVALID = "This link is not valid: it was used already, has expired, or was mistyped.";
    private final AccountService accounts;
    private final LoginLinks links;
    private final PasswordEncoder encoder;
    private final OwnerSessions sessions;
    private final CurrentAccount current;
    private final Optional<AccountMail> mail;

    MailLinksController(AccountService accounts, LoginLinks links, PasswordEncoder encoder, OwnerSessions sessions,
                        CurrentAccount current, Optional<AccountMail> mail) {
        this.accounts = accounts;
        this.links = links;
        this.encoder = encoder;
        this.sessions = sessions;
        this.current = current;
        this.mail = mail;
    }

    @GetMapping("/signin/forgot")
    String forgotPage() {
        mail();
        return "forgot";
    }

    /** The same answer whether or not the email has an account; the mail goes out on its own thread ({@link AccountMail}). */
    @PostMapping("/signin/forgot")
    String forgot(@RequestParam String email, Model model) {
        AccountMail m = mail();
        accounts.findByEmail(email.strip()).ifPresent(m::sendPasswordReset);
        model.addAttribute("sent", true);
        return "forgot";
    }

    @GetMapping("/reset")
    String resetPage(@RequestParam(defaultValue = "") String token, Model model) {
        mail();
        model.addAttribute("token", token);
        return "reset";
    }

    /**
     * Sets the password of the account the token was made for (there is no other account field to tamper with),
     * marks its email verified (the link came through it) and ends its sessions elsewhere.
     */
    @PostMapping("/reset")
    String reset(@RequestParam String token, @RequestParam String password, Model model, HttpServletRequest request) {
        mail();
        model.addAttribute("token", token);
        if (password.length() < SignInController.MIN_PASSWORD) {
            // checked before the token is used, so that the owner can try again with the same link
            model.addAttribute("problem", "The new password needs at least " + SignInController.MIN_PASSWORD + " characters.");
            return "reset";
        }
        var account = links.redeem(token, Purpose.RESET_PASSWORD).flatMap(accounts::findById);
        if (account.isEmpty()) {
            model.addAttribute("token", "");
            model.addAttribute("problem", INVALID);
            return "reset";
        }
        accounts.setPasswordHash(account.get().id(), encoder.encode(password));
        accounts.markEmailVerified(account.get().id());
        sessions.endOthers(account.get().email(), request);
        return "redirect:/signin?reset";
    }

    @GetMapping("/verify")
    String verifyPage(@RequestParam(defaultValue = "") String token, Model model) {
        mail();
        model.addAttribute("token", token);
        return "verify";
    }

    @PostMapping("/verify")
    String verify(@RequestParam String token, Model model) {
        mail();
        var accountId = links.redeem(token, Purpose.VERIFY_EMAIL);
        model.addAttribute("token", "");
        if (accountId.isEmpty()) {
            model.addAttribute("problem", INVALID);
        } else {
            accounts.markEmailVerified(accountId.get());
            model.addAttribute("verified", true);
        }
        return "verify";
    }

    /** Mails the signed-in owner a new verification link. */
    @PostMapping("/account/verify")
    String sendVerification(Principal principal) {
        mail().sendVerification(current.of(principal));
        return "redirect:/account?verification-sent";
    }

    private AccountMail mail() {
        return mail.orElseThrow(CurrentAccount::notFound);
    }
}

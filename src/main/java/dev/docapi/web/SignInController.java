package dev.docapi.web;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.AccountService;
import dev.docapi.accounts.LoginLinks;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import dev.docapi.mail.AccountMail;
import java.security.Principal;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.webauthn.api.CredentialRecord;
import org.springframework.security.web.webauthn.api.PublicKeyCredentialUserEntity;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialUserEntityRepository;
import org.springframework.security.web.webauthn.management.UserCredentialRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Sign up ({@code DOCAPI_SIGNUP=open|closed}; with SMTP, a verification mail), sign in by one-time link, and the
 * account page (change password, which ends the account's other sessions; the account's passkeys, listed and
 * removed here, registered by {@code /js/passkeys.js} through Spring Security's WebAuthn endpoints). Sign in by
 * password or passkey and sign out are Spring Security's ({@link WebSecurityConfig}); the mailed links are
 * {@link MailLinksController}'s.
 */
@Controller
@ConditionalOnWebApplication // its PasswordEncoder comes with the pages' security, absent from `bin/docapi admin`
class SignInController {
    static final int MIN_PASSWORD = 10;
    private final AccountService accounts;
    private final LoginLinks links;
    private final PasswordEncoder encoder;
    private final CurrentAccount current;
    private final boolean signupOpen;
    private final OwnerSessions sessions;
    private final Optional<AccountMail> mail;
    private final PublicKeyCredentialUserEntityRepository passkeyUsers;
    private final UserCredentialRepository passkeys;

    SignInController(AccountService accounts, LoginLinks links, PasswordEncoder encoder, CurrentAccount current,
                     @Value("${docapi.signup:open}") String signup, OwnerSessions sessions, Optional<AccountMail> mail,
                     PublicKeyCredentialUserEntityRepository passkeyUsers, UserCredentialRepository passkeys) {
        this.accounts = accounts;
        this.passkeyUsers = passkeyUsers;
        this.passkeys = passkeys;
        this.sessions = sessions;
        this.mail = mail;
        this.links = links;
        this.encoder = encoder;
        this.current = current;
        if (!signup.equals("open") && !signup.equals("closed")) throw new IllegalArgumentException("DOCAPI_SIGNUP must be open or closed, not '" + signup + "'");
        this.signupOpen = signup.equals("open");
    }

    @GetMapping("/signin")
    String signIn(Model model) {
        model.addAttribute("signupOpen", signupOpen);
        model.addAttribute("resetOffered", mail.isPresent());
        return "signin";
    }

    @GetMapping("/signup")
    String signUp(Model model) {
        model.addAttribute("signupOpen", signupOpen);
        return "signup";
    }

    @PostMapping("/signup")
    String signUp(@RequestParam String email, @RequestParam String password, Model model, HttpServletRequest request,
                  HttpServletResponse response) {
        model.addAttribute("signupOpen", signupOpen);
        model.addAttribute("email", email);
        String problem = !signupOpen ? "Sign-up is closed on this server: ask its operator for an account."
                : !email.strip().matches("[^@\\s]+@[^@\\s]+") ? "Enter a valid email address."
                : password.length() < MIN_PASSWORD ? "The password needs at least " + MIN_PASSWORD + " characters."
                : null;
        if (problem == null) {
            try {
                Account a = accounts.signUp(email.strip(), encoder.encode(password));
                mail.ifPresent(m -> m.sendVerification(a));
                sessions.signIn(a.email(), request, response);
                return "redirect:/keys";
            } catch (IllegalArgumentException taken) {
                // the same words as any refusal of this form: whether an email has an account is not told
                problem = "This email cannot be used to sign up. If it is yours, sign in instead.";
            }
        }
        model.addAttribute("problem", problem);
        return "signup";
    }

    /** The link's page: a button that posts the token, so that a mail scanner fetching the link does not use it up. */
    @GetMapping("/signin/link")
    String link(@RequestParam(defaultValue = "") String token, Model model) {
        model.addAttribute("token", token);
        return "signin-link";
    }

    @PostMapping("/signin/link")
    String useLink(@RequestParam String token, HttpServletRequest request, HttpServletResponse response, Model model) {
        var account = links.redeem(token).flatMap(accounts::findById);
        if (account.isEmpty()) {
            model.addAttribute("token", "");
            model.addAttribute("problem", "This link is not valid: it was used already, has expired, or was mistyped.");
            return "signin-link";
        }
        sessions.signIn(account.get().email(), request, response);
        return "redirect:/account";
    }

    @GetMapping("/account")
    String account(Principal principal, Model model) {
        Account a = current.of(principal);
        model.addAttribute("account", a);
        model.addAttribute("hasPassword", accounts.passwordHash(principal.getName()).isPresent());
        model.addAttribute("unverified", mail.isPresent() && !accounts.isEmailVerified(a.id()));
        model.addAttribute("passkeys", passkeysOf(a));
        return "account";
    }

    /** The account's passkeys, oldest first; none before its first one is registered (no WebAuthn user yet). */
    private List<CredentialRecord> passkeysOf(Account a) {
        PublicKeyCredentialUserEntity user = passkeyUsers.findByUsername(a.email());
        if (user == null) return List.of();
        return passkeys.findByUserId(user.getId()).stream()
                .sorted(Comparator.comparing(CredentialRecord::getCreated, Comparator.nullsFirst(Comparator.naturalOrder()))).toList();
    }

    /**
     * Removes one of the account's passkeys (id: base64url); another account's id answers 404 like an unknown one. The
     * account's other sessions end, as after a password change: any of them may have been signed in with that passkey
     * (a lost device's, say), and a session does not record how it was signed in.
     */
    @PostMapping("/account/passkeys/{id}/remove")
    String removePasskey(Principal principal, @PathVariable String id, HttpServletRequest request, Model model) {
        Account a = current.of(principal);
        CredentialRecord passkey = passkeysOf(a).stream().filter(c -> c.getCredentialId().toBase64UrlString().equals(id))
                .findFirst().orElseThrow(CurrentAccount::notFound);
        passkeys.delete(passkey.getCredentialId());
        sessions.endOthers(a.email(), request);
        model.addAttribute("message", "Passkey \"" + passkey.getLabel() + "\" removed: it no longer signs in, and your other sessions "
                + "were signed out (any of them may have used it).");
        return account(principal, model);
    }

    /** Sets or changes the password; the current one is asked when there is one. The account's other sessions end. */
    @PostMapping("/account/password")
    String changePassword(Principal principal, @RequestParam(defaultValue = "") String current,
                          @RequestParam String password, Model model, HttpServletRequest request) {
        Account a = this.current.of(principal);
        var hash = accounts.passwordHash(a.email());
        String problem = hash.isPresent() && !encoder.matches(current, hash.get()) ? "The current password is not right."
                : password.length() < MIN_PASSWORD ? "The new password needs at least " + MIN_PASSWORD + " characters."
                : null;
        if (problem == null) {
            accounts.setPasswordHash(a.id(), encoder.encode(password));
            sessions.endOthers(a.email(), request);
            model.addAttribute("message", "Password saved. Your other sessions are signed out.");
        } else {
            model.addAttribute("problem", problem);
        }
        return account(principal, model);
    }
}

package dev.docapi.mail;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.LoginLinks;
import dev.docapi.accounts.LoginLinks.Purpose;
import dev.docapi.config.PublicBaseUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.mail.MailException;
import org.springframework.mail.SimpleMailMessage;
import org.springframework.mail.javamail.JavaMailSender;

/**
 * The developer area's mails (issue 11), present only when {@code DOCAPI_SMTP_URL} is set ({@link MailConfig}):
 * a verification link at sign-up and a password reset link, each a one-time {@link LoginLinks} token. Mails are sent
 * on a thread of their own, so that the answer to "forgot password" takes as long whether or not a mail goes out
 * (it must not tell whether the email has an account) and a slow SMTP server does not hold a page.
 */
public class AccountMail {
    private static final Logger log = LoggerFactory.getLogger(AccountMail.class);
    private final JavaMailSender sender;
    private final String from;
    private final LoginLinks links;
    private final PublicBaseUrl baseUrl;

    AccountMail(JavaMailSender sender, String from, LoginLinks links, PublicBaseUrl baseUrl) {
        this.sender = sender;
        this.from = from;
        this.links = links;
        this.baseUrl = baseUrl;
    }

    /** Mails a link to {@code /verify} (valid 24 hours) to the account's address. */
    public void sendVerification(Account account) {
        String link = link(account, Purpose.VERIFY_EMAIL, "/verify");
        send(account.email(), "Verify your email for docapi", """
                Open this link to verify the email of your docapi account (valid %d hours):

                %s

                If you did not sign up for docapi, ignore this mail.
                """.formatted(Purpose.VERIFY_EMAIL.validity.toHours(), link));
    }

    /** Mails a link to {@code /reset} (valid 30 minutes) to the account's address. */
    public void sendPasswordReset(Account account) {
        String link = link(account, Purpose.RESET_PASSWORD, "/reset");
        send(account.email(), "Reset your docapi password", """
                Open this link to choose a new password for your docapi account (valid %d minutes, once):

                %s

                If you did not ask for it, ignore this mail: your password stays as it is.
                """.formatted(Purpose.RESET_PASSWORD.validity.toMinutes(), link));
    }

    private String link(Account account, Purpose purpose, String page) {
        return baseUrl.site() + page + "?token=" + links.create(account.id(), purpose);
    }

    private void send(String to, String subject, String text) {
        SimpleMailMessage m = new SimpleMailMessage();
        m.setFrom(from);
        m.setTo(to);
        m.setSubject(subject);
        m.setText(text);
        Thread.ofVirtual().name("account-mail").start(() -> {
            try {
                sender.send(m);
            } catch (MailException e) {
                // the link is not logged: it is a credential
                log.warn("could not send '{}' to {}: {}", subject, to, e.getMessage());
            }
        });
    }
}

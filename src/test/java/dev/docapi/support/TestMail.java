package dev.docapi.support;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SMTP server of the tests: one GreenMail for the whole test JVM, on a free port chosen once, started before the
 * shared Spring context reads {@code docapi.smtp-url} ({@link ApiTestBase}); so the service sends real mails over
 * SMTP with authentication, and no test needs a context of its own.
 */
public final class TestMail {
    private static final String USER = "docapi";
    private static final String PASSWORD = "mail-secret";
    private static final Pattern LINK = Pattern.compile("https?://\\S+\\?token=[A-Za-z0-9]+");
    private static final GreenMail SERVER = start();

    private TestMail() {
    }

    private static GreenMail start() {
        GreenMail g = new GreenMail(ServerSetupTest.SMTP.dynamicPort())
                .withConfiguration(GreenMailConfiguration.aConfig().withUser(USER, PASSWORD));
        g.start();
        return g;
    }

    /** {@code DOCAPI_SMTP_URL} for the service under test. */
    static String url() {
        return "smtp://" + USER + ":" + PASSWORD + "@127.0.0.1:" + SERVER.getSmtp().getPort() + "?from=docapi%40test.localhost";
    }

    /** The mails caught so far for {@code to} with {@code subject}, oldest first. */
    public static List<MimeMessage> mails(String to, String subject) {
        List<MimeMessage> out = new ArrayList<>();
        try {
            for (MimeMessage m : SERVER.getReceivedMessages()) {
                boolean addressed = Arrays.stream(m.getRecipients(Message.RecipientType.TO)).anyMatch(a -> a.toString().equalsIgnoreCase(to));
                if (addressed && subject.equals(m.getSubject())) out.add(m);
            }
        } catch (MessagingException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    /** Waits (at most 20 s: mails go out on a thread of their own) for the {@code n}-th such mail and returns its link. */
    public static String awaitLink(String to, String subject, int n) {
        Instant end = Instant.now().plus(Duration.ofSeconds(20));
        while (mails(to, subject).size() < n) {
            if (Instant.now().isAfter(end)) throw new AssertionError("no mail #" + n + " '" + subject + "' to " + to);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        try {
            String text = String.valueOf(mails(to, subject).get(n - 1).getContent());
            Matcher m = LINK.matcher(text);
            if (!m.find()) throw new AssertionError("no link in the mail: " + text);
            return m.group();
        } catch (IOException | MessagingException e) {
            throw new IllegalStateException(e);
        }
    }
}

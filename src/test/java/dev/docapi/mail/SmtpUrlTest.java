package dev.docapi.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code DOCAPI_SMTP_URL} as operators write it (README "Configuration"). */
class SmtpUrlTest {
    @Test
    void smtpWithUserPortAndFrom() {
        SmtpUrl u = SmtpUrl.parse("smtp://apikey:p%40ss+w%3Ard@mail.example.com:2525?from=docapi%40example.com");
        assertThat(u).isEqualTo(new SmtpUrl(false, "mail.example.com", 2525, "apikey", "p@ss+w:rd", "docapi@example.com"));
        var sender = u.sender();
        assertThat(sender.getJavaMailProperties()).containsEntry("mail.smtp.auth", "true").containsEntry("mail.smtp.starttls.enable", "true")
                .containsEntry("mail.smtp.timeout", "10000");
    }

    @Test
    void defaultsPortsAndSender() {
        assertThat(SmtpUrl.parse("smtps://me%40example.com:pw@smtp.example.com")).isEqualTo(
                new SmtpUrl(true, "smtp.example.com", 465, "me@example.com", "pw", "me@example.com"));
        SmtpUrl anonymous = SmtpUrl.parse("smtp://relay.internal");
        assertThat(anonymous).isEqualTo(new SmtpUrl(false, "relay.internal", 587, null, null, "docapi@relay.internal"));
        assertThat(anonymous.sender().getJavaMailProperties()).containsEntry("mail.smtp.auth", "false");
    }

    @Test
    void aWrongUrlIsRefusedWithoutEchoingThePassword() {
        assertThatThrownBy(() -> SmtpUrl.parse("http://u:secret@host")).hasMessageContaining("smtp://").hasMessageNotContaining("secret");
        assertThatThrownBy(() -> SmtpUrl.parse("smtp://u:secret@/")).hasMessageContaining("no host").hasMessageNotContaining("secret");
        assertThat(SmtpUrl.parse("smtp://u:secret@host").toString()).doesNotContain("secret");
    }
}

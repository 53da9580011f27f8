package dev.docapi.mail;

import dev.docapi.accounts.LoginLinks;
import dev.docapi.config.PublicBaseUrl;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Mail only when {@code DOCAPI_SMTP_URL} is set: then an {@link AccountMail} bean exists, and the developer area
 * offers email verification and password reset; without it, neither (the admin login link stays).
 */
@Configuration
@ConditionalOnExpression("!'${docapi.smtp-url:}'.isBlank()")
class MailConfig {
    @Bean
    AccountMail accountMail(@Value("${docapi.smtp-url}") String url, LoginLinks links, PublicBaseUrl baseUrl) {
        SmtpUrl smtp = SmtpUrl.parse(url);
        return new AccountMail(smtp.sender(), smtp.from(), links, baseUrl);
    }
}

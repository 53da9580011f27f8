package dev.docapi.mail;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.springframework.mail.javamail.JavaMailSenderImpl;

/**
 * {@code DOCAPI_SMTP_URL}: {@code smtp://[user:password@]host[:port][?from=address]} (STARTTLS when the server
 * offers it; port 587 by default) or {@code smtps://…} (TLS from the first byte; port 465). User and password are
 * URL-encoded ({@code %40} for {@code @}). The sender address is {@code from}, else the user when it is an address,
 * else {@code docapi@<host>}.
 *
 * @param password null when the URL has no user
 */
public record SmtpUrl(boolean tls, String host, int port, String user, String password, String from) {
    private static final int TIMEOUT_MS = 10_000;

    /** @throws IllegalArgumentException naming what is wrong (never echoing the password) */
    public static SmtpUrl parse(String url) {
        URI u;
        try {
            u = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("DOCAPI_SMTP_URL is not a URL: expected smtp://user:password@host:port or smtps://…");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("smtp") && !scheme.equals("smtps")) throw new IllegalArgumentException("DOCAPI_SMTP_URL must start with smtp:// or smtps://");
        if (u.getHost() == null || u.getHost().isBlank()) throw new IllegalArgumentException("DOCAPI_SMTP_URL has no host");
        boolean tls = scheme.equals("smtps");
        String user = null;
        String password = null;
        if (u.getRawUserInfo() != null) {
            String[] parts = u.getRawUserInfo().split(":", 2);
            user = decode(parts[0]);
            password = parts.length > 1 ? decode(parts[1]) : "";
        }
        String from = null;
        if (u.getRawQuery() != null) {
            for (String pair : u.getRawQuery().split("&")) {
                if (pair.startsWith("from=")) from = decode(pair.substring(5));
            }
        }
        if (from == null) from = user != null && user.contains("@") ? user : "docapi@" + u.getHost();
        return new SmtpUrl(tls, u.getHost(), u.getPort() > 0 ? u.getPort() : tls ? 465 : 587, user, password, from);
    }

    /** A Jakarta Mail sender for this server, with connect, read and write timeouts (a stuck server fails the send). */
    JavaMailSenderImpl sender() {
        JavaMailSenderImpl s = new JavaMailSenderImpl();
        s.setProtocol(tls ? "smtps" : "smtp");
        s.setHost(host);
        s.setPort(port);
        s.setUsername(user);
        s.setPassword(password);
        s.setDefaultEncoding("UTF-8");
        String p = "mail." + s.getProtocol() + ".";
        Properties props = new Properties();
        props.setProperty(p + "auth", String.valueOf(user != null));
        if (!tls) props.setProperty(p + "starttls.enable", "true");
        props.setProperty(p + "connectiontimeout", String.valueOf(TIMEOUT_MS));
        props.setProperty(p + "timeout", String.valueOf(TIMEOUT_MS));
        props.setProperty(p + "writetimeout", String.valueOf(TIMEOUT_MS));
        s.setJavaMailProperties(props);
        return s;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return (tls ? "smtps://" : "smtp://") + (user == null ? "" : user + ":***@") + host + ":" + port;
    }
}

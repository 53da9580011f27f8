package dev.docapi.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Service-Signature} header (spec §6): {@code t=<unix seconds>,v1=<hex>} where {@code v1} is the lowercase
 * hex HMAC-SHA256, keyed with the account's webhook signing secret, of {@code "<t>.<raw body>"}.
 */
public final class WebhookSignature {
    public static final String HEADER = "Service-Signature";

    private WebhookSignature() {
    }

    /** The header value for {@code body} sent at {@code unixSeconds}. */
    public static String header(String secret, long unixSeconds, byte[] body) {
        return "t=" + unixSeconds + ",v1=" + hmacHex(secret, unixSeconds, body);
    }

    static String hmacHex(String secret, long unixSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((unixSeconds + ".").getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}

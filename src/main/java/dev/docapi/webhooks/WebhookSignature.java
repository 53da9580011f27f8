package dev.docapi.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A delivery's signatures. {@link #HEADER} is the spec's (§6): {@code Service-Signature: t=<unix seconds>,v1=<hex>}
 * where {@code v1} is the lowercase hex HMAC-SHA256, keyed with the account's webhook signing secret as text, of
 * {@code "<t>.<raw body>"}. Beside it, as an addition, the Standard Webhooks headers (standardwebhooks.com, v1):
 * {@code webhook-id}, {@code webhook-timestamp} (unix seconds) and {@code webhook-signature: v1,<base64>}, the
 * HMAC-SHA256 of {@code "<id>.<timestamp>.<raw body>"} keyed with the base64-decoded part of the secret after
 * {@code whsec_}, so Standard Webhooks and Svix verifiers check a delivery with the same secret.
 */
public final class WebhookSignature {
    public static final String HEADER = "Service-Signature";
    /** Standard Webhooks' unique message id: the delivery's id, the same on every attempt of one delivery. */
    public static final String ID_HEADER = "webhook-id";
    /** Standard Webhooks' send time, unix seconds. */
    public static final String TIMESTAMP_HEADER = "webhook-timestamp";
    /** Standard Webhooks' signatures, space-separated {@code v1,<base64>}. */
    public static final String STANDARD_HEADER = "webhook-signature";
    private static final String SECRET_PREFIX = "whsec_";

    private WebhookSignature() {
    }

    /** The {@link #HEADER} value for {@code body} sent at {@code unixSeconds}. */
    public static String header(String secret, long unixSeconds, byte[] body) {
        return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(hmac(secret.getBytes(StandardCharsets.UTF_8), unixSeconds + ".", body));
    }

    /**
     * The {@link #STANDARD_HEADER} value for delivery {@code id} of {@code body} sent at {@code unixSeconds}.
     *
     * @param secret {@code whsec_} and base64 (every account's secret is {@code whsec_} and 40 base62 characters, which
     *               decode to a 30-byte key)
     */
    public static String standard(String secret, String id, long unixSeconds, byte[] body) {
        byte[] key = Base64.getDecoder().decode(secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret);
        return "v1," + Base64.getEncoder().encodeToString(hmac(key, id + "." + unixSeconds + ".", body));
    }

    private static byte[] hmac(byte[] key, String prefix, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(prefix.getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}

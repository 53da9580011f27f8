package dev.docapi.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docapi.client.generated.ApiClient;
import dev.docapi.client.generated.model.WebhookEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies webhook deliveries (spec §6). The {@value #HEADER} header is {@code t=<unix seconds>,v1=<hex>}: {@code v1}
 * is the lowercase hex HMAC-SHA256, keyed with the account's webhook signing secret, of {@code "<t>.<raw body>"}.
 */
public final class WebhookSignature {
    public static final String HEADER = "Service-Signature";
    /**
     * The header that names the delivery (Standard Webhooks' {@code webhook-id}): the same on every retry of one
     * delivery, so a receiver that already handled it can answer 2xx and do nothing.
     */
    public static final String DELIVERY_ID_HEADER = "webhook-id";
    /** The tolerance the spec recommends between {@code t} and now. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);
    private static final ObjectMapper JSON = ApiClient.createDefaultObjectMapper();

    private WebhookSignature() {
    }

    /** {@link #verify(byte[], String, String, Duration, Instant)} with a 300 s tolerance, now. */
    public static WebhookEvent verify(byte[] rawBody, String header, String secret) {
        return verify(rawBody, header, secret, DEFAULT_TOLERANCE, Instant.now());
    }

    /**
     * Checks the signature of a delivery and returns its event. Every {@code v1} in the header is tried, compared in
     * constant time; {@code t} must be within {@code tolerance} of {@code now}.
     *
     * @param rawBody the request body exactly as received
     * @param header the {@value #HEADER} header value
     * @param secret the account's webhook signing secret
     * @throws WebhookSignatureException when the header is missing or malformed, no signature matches, or {@code t} is
     *     too far from now
     */
    public static WebhookEvent verify(byte[] rawBody, String header, String secret, Duration tolerance, Instant now) {
        if (header == null || header.isBlank()) throw new WebhookSignatureException("no " + HEADER + " header");
        Long t = null;
        List<byte[]> signatures = new ArrayList<>();
        for (String part : header.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length != 2) continue;
            if (kv[0].equals("t") && kv[1].matches("[0-9]{1,18}")) t = Long.parseLong(kv[1]);
            if (kv[0].equals("v1") && kv[1].matches("([0-9a-f]{2})+")) signatures.add(HexFormat.of().parseHex(kv[1]));
        }
        if (t == null || signatures.isEmpty()) throw new WebhookSignatureException(HEADER + " is not t=<unix time>,v1=<hex>");
        byte[] expected = hmac(secret, t, rawBody);
        if (signatures.stream().noneMatch(s -> MessageDigest.isEqual(s, expected))) {
            throw new WebhookSignatureException("no signature matches the body and the secret");
        }
        if (Math.abs(now.getEpochSecond() - t) > tolerance.toSeconds()) {
            throw new WebhookSignatureException("the signature's timestamp is more than " + tolerance.toSeconds() + " s from now");
        }
        try {
            return JSON.readValue(rawBody, WebhookEvent.class);
        } catch (IOException e) {
            throw new UncheckedIOException("a signed body that is not a webhook event", e);
        }
    }

    private static byte[] hmac(String secret, long t, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** A delivery that did not pass {@link #verify}; the message says which check failed. */
    public static final class WebhookSignatureException extends RuntimeException {
        public WebhookSignatureException(String message) {
            super(message);
        }
    }
}

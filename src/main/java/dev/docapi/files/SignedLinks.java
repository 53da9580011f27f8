package dev.docapi.files;

import dev.docapi.config.MasterKey;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.stereotype.Component;

/**
 * Signed download links (spec §2.2 {@code download_url}, §5 rule 4): {@code e} is the expiry in Unix seconds, {@code t}
 * the hex HMAC-SHA256 of {@code <file id>.<e>} under a key derived from the {@link MasterKey} (issue 10; the nodes of
 * a cluster share it through {@code DOCAPI_SECRET}).
 */
@Component
public class SignedLinks {
    public static final Duration VALIDITY = Duration.ofHours(1);
    private final byte[] key;

    public SignedLinks(MasterKey master) {
        this.key = master.derive("link signing");
    }

    /** The signed query string for {@code fileId}, valid for one hour from now: {@code e=...&t=...}. */
    public String query(String fileId) {
        return query(fileId, Instant.now().plus(VALIDITY));
    }

    /** The signed query string for {@code fileId} expiring at {@code expiry}. */
    public String query(String fileId, Instant expiry) {
        long e = expiry.getEpochSecond();
        return "e=" + e + "&t=" + sign(fileId, e);
    }

    public enum Check { VALID, EXPIRED, INVALID }

    /**
     * Checks a link's {@code e} and {@code t}: a bad or missing signature is INVALID even when also expired; an expiry
     * further ahead than a link is ever made for ({@link #VALIDITY}, plus a minute for clocks of other nodes) is
     * EXPIRED whatever its signature, so even a leaked signing key cannot mint long-lived links (issue 10).
     */
    public Check check(String fileId, String e, String t) {
        if (e == null || t == null) return Check.INVALID;
        long expiry;
        try {
            expiry = Long.parseLong(e);
        } catch (NumberFormatException ex) {
            return Check.INVALID;
        }
        if (expiry > Instant.now().plus(VALIDITY).plusSeconds(60).getEpochSecond()) return Check.EXPIRED;
        byte[] expected = sign(fileId, expiry).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, t.getBytes(StandardCharsets.US_ASCII))) return Check.INVALID;
        return Instant.now().getEpochSecond() > expiry ? Check.EXPIRED : Check.VALID;
    }

    private String sign(String fileId, long expiry) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal((fileId + "." + expiry).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException ex) {
            throw new IllegalStateException(ex);
        }
    }
}

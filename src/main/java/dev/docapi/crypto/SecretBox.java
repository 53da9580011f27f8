package dev.docapi.crypto;

import dev.docapi.config.MasterKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Encrypts secrets at rest with AES-256-GCM (JDK crypto): account provider keys, webhook signing secrets and saved
 * workflow steps (which may hold passwords). The key is derived with HKDF from the {@link MasterKey} (issue 10), which
 * never lies in the database. Stored form: {@code v2:<base64(12-byte nonce || ciphertext+tag)>}; the account id is
 * bound as associated data. Values of older versions ({@code v1:}, keyed by SHA-256 of {@code DOCAPI_SECRET} or of a
 * secret kept in the database) are still opened, and re-sealed at start-up by {@link SecretMigration}.
 */
@Component
public class SecretBox {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final SecretKeySpec key;
    private final SecretKeySpec legacy;
    /** The HKDF purpose of the sealing key. */
    static final String PURPOSE = "sealed secrets";

    /** A box sealing under an already derived key (key rotation); it opens only its own seals. */
    SecretBox(byte[] key) {
        this.key = new SecretKeySpec(key, "AES");
        this.legacy = null;
    }

    /**
     * @param operatorSecret {@code docapi.ai.secret} ({@code DOCAPI_SECRET}), read as {@link MasterKey} reads it (not
     *                       through {@code AiProperties}, so the box stands below every package that stores a secret)
     */
    @org.springframework.beans.factory.annotation.Autowired
    public SecretBox(MasterKey master, @Value("${docapi.ai.secret:}") String operatorSecret, JdbcClient db) {
        this.key = new SecretKeySpec(master.derive(PURPOSE), "AES");
        String old = operatorSecret != null && !operatorSecret.isBlank() ? operatorSecret
                : db.sql("SELECT secret FROM service_secrets WHERE name = 'provider_keys'").query(String.class).optional().orElse(null);
        try {
            this.legacy = old == null ? null : new SecretKeySpec(
                    MessageDigest.getInstance("SHA-256").digest(("docapi provider keys\0" + old).getBytes(StandardCharsets.UTF_8)), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** True when {@code sealed} is in the current form (not to be re-sealed). */
    public static boolean current(String sealed) {
        return sealed != null && sealed.startsWith("v2:");
    }

    public String seal(String plain, String accountId) {
        try {
            byte[] nonce = new byte[12];
            RANDOM.nextBytes(nonce);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            c.updateAAD(accountId.getBytes(StandardCharsets.UTF_8));
            byte[] ct = c.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            return "v2:" + Base64.getEncoder().encodeToString(ByteBuffer.allocate(12 + ct.length).put(nonce).put(ct).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @throws IllegalStateException when the value was sealed under another secret or altered */
    public String open(String sealed, String accountId) {
        try {
            SecretKeySpec k = current(sealed) ? key : sealed.startsWith("v1:") ? legacy : null;
            if (k == null) throw new IllegalStateException("a stored secret is in an unknown form or its old key is gone");
            byte[] all = Base64.getDecoder().decode(sealed.substring(3));
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, k, new GCMParameterSpec(128, all, 0, 12));
            c.updateAAD(accountId.getBytes(StandardCharsets.UTF_8));
            return new String(c.doFinal(all, 12, all.length - 12), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a stored secret cannot be decrypted (was DOCAPI_SECRET or secrets.key changed?)", e);
        }
    }
}

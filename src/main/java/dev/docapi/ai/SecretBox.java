package dev.docapi.ai;

import dev.docapi.files.SignedLinks;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Encrypts account provider keys at rest with AES-256-GCM (JDK crypto). The key is SHA-256 of the operator secret
 * {@code DOCAPI_SECRET} when set, otherwise of a random secret generated once and kept in the database
 * ({@code service_secrets}, name {@code provider_keys}). Set {@code DOCAPI_SECRET} so that a copy of the database
 * alone does not reveal the keys; changing it makes stored keys unreadable (add them again).
 * Stored form: {@code v1:<base64(12-byte nonce || ciphertext+tag)>}; the account id is bound as associated data.
 */
@Component
public class SecretBox {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final SecretKeySpec key;

    public SecretBox(AiProperties props, JdbcClient db) {
        String secret = AiProperties.blank(props.secret()) ? SignedLinks.loadOrCreateSecret(db, "provider_keys") : props.secret();
        try {
            byte[] k = MessageDigest.getInstance("SHA-256").digest(("docapi provider keys\0" + secret).getBytes(StandardCharsets.UTF_8));
            this.key = new SecretKeySpec(k, "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public String seal(String plain, String accountId) {
        try {
            byte[] nonce = new byte[12];
            RANDOM.nextBytes(nonce);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            c.updateAAD(accountId.getBytes(StandardCharsets.UTF_8));
            byte[] ct = c.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            return "v1:" + Base64.getEncoder().encodeToString(ByteBuffer.allocate(12 + ct.length).put(nonce).put(ct).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @throws IllegalStateException when the value was sealed under another secret or altered */
    public String open(String sealed, String accountId) {
        try {
            if (!sealed.startsWith("v1:")) throw new IllegalStateException("unknown sealed format");
            byte[] all = Base64.getDecoder().decode(sealed.substring(3));
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, all, 0, 12));
            c.updateAAD(accountId.getBytes(StandardCharsets.UTF_8));
            return new String(c.doFinal(all, 12, all.length - 12), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a stored provider key cannot be decrypted (was DOCAPI_SECRET changed?)", e);
        }
    }
}

package dev.docapi.accounts;

import dev.docapi.config.Ids;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * One-time sign-in links of the developer area ({@code bin/docapi admin login-link}): a random token, valid
 * {@link #VALIDITY} and once; only its SHA-256 is stored, like an API key's.
 */
@Service
public class LoginLinks {
    public static final Duration VALIDITY = Duration.ofMinutes(15);
    private final JdbcClient db;

    public LoginLinks(JdbcClient db) {
        this.db = db;
    }

    /** A new token for the account (43 base62 characters). */
    public String create(String accountId) {
        String token = Ids.random(43);
        db.sql("INSERT INTO login_links(token_hash, account_id, expires_at) VALUES (?,?,?)")
                .params(AccountService.hash(token), accountId, Instant.now().plus(VALIDITY).toEpochMilli()).update();
        return token;
    }

    /** Uses the token up: the account id when it was valid, unused and not expired; empty otherwise. */
    public Optional<String> redeem(String token) {
        String h = AccountService.hash(token);
        long now = Instant.now().toEpochMilli();
        // the conditional update decides: of two concurrent uses, only one changes the row
        int used = db.sql("UPDATE login_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?")
                .params(now, h, now).update();
        if (used == 0) return Optional.empty();
        return db.sql("SELECT account_id FROM login_links WHERE token_hash = ?").param(h).query(String.class).optional();
    }
}

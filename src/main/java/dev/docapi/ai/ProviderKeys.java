package dev.docapi.ai;

import dev.docapi.config.Ids;
import dev.docapi.crypto.SecretBox;
import dev.docapi.net.SafeHttpClient;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * An account's own model provider keys (spec §2.5): validated with the provider when added, sealed at rest by
 * {@link SecretBox}, used only for that account's requests and never returned or logged. One key per provider and
 * account; adding again replaces it.
 */
@Service
public class ProviderKeys {
    private final JdbcClient db;
    private final SecretBox box;
    private final SafeHttpClient safe;
    private final AiProperties props;
    private final OkHttpClient open = new OkHttpClient.Builder().followRedirects(false)
            .callTimeout(Duration.ofSeconds(30)).build();

    public ProviderKeys(JdbcClient db, SecretBox box, SafeHttpClient safe, AiProperties props) {
        this.db = db;
        this.box = box;
        this.safe = safe;
        this.props = props;
    }

    /** A stored key's public part: never the key itself. */
    public record Entry(String accountId, Provider provider, String model, String baseUrl) {
        public ModelId modelId() {
            return new ModelId(provider, model);
        }
    }

    /** A stored key, opened for one call. */
    public record Opened(Entry entry, String key) {
    }

    /**
     * Validates {@code key} with the provider (a cheap authenticated call: list models, or OpenRouter's key info)
     * and stores it sealed.
     *
     * @param provider a prefix ({@code openai}) or a model id ({@code openai/gpt-4.1}) naming the default model
     * @param baseUrl  required for {@code custom}: a public https address; ignored for hosted providers
     * @return the stored entry
     * @throws IllegalArgumentException with a message for the operator when anything is wrong (the key is not echoed)
     */
    public Entry add(String accountId, String provider, String key, String baseUrl) {
        if (key == null || key.isBlank()) throw new IllegalArgumentException("--key is required");
        ModelId id;
        if (provider.contains("/")) {
            id = ModelId.parse(provider);
        } else {
            Provider p = Provider.ofPrefix(provider);
            if (p == null) throw new IllegalArgumentException("unknown provider '" + provider + "' (openai, anthropic, google, openrouter, custom)");
            if (p.defaultModel() == null) throw new IllegalArgumentException("name the model: --provider " + p.prefix() + "/<model name>");
            id = new ModelId(p, p.defaultModel());
        }
        String url = null;
        if (id.provider() == Provider.CUSTOM) {
            url = checkCustomBaseUrl(baseUrl);
        }
        verify(id.provider(), key.strip(), url);
        db.sql("DELETE FROM provider_keys WHERE account_id = ? AND provider = ?").params(accountId, id.provider().prefix()).update();
        db.sql("INSERT INTO provider_keys(id, account_id, provider, model, base_url, key_sealed, created_at) VALUES (?,?,?,?,?,?,?)")
                .params(Ids.newId("pk"), accountId, id.provider().prefix(), id.name(), url, box.seal(key.strip(), accountId),
                        System.currentTimeMillis())
                .update();
        return new Entry(accountId, id.provider(), id.name(), url);
    }

    /**
     * An account's {@code custom/} base URL must be a public https address (checked again, address included, by
     * {@link SafeHttpClient} at every call). {@code DOCAPI_ALLOW_PRIVATE_URLS=true} also allows http (development).
     *
     * @return the URL without a trailing slash
     */
    public String checkCustomBaseUrl(String baseUrl) {
        if (baseUrl == null || baseUrl.isBlank()) throw new IllegalArgumentException("--base-url is required for custom models");
        HttpUrl u = HttpUrl.parse(baseUrl);
        if (u == null) throw new IllegalArgumentException("--base-url is not an http(s) URL");
        if (!u.isHttps() && !safe.allowsPrivate()) throw new IllegalArgumentException("--base-url must be an https address");
        String refused = safe.refuse(baseUrl, false);
        if (refused != null) throw new IllegalArgumentException("--base-url is refused: " + refused);
        return baseUrl.replaceAll("/+$", "");
    }

    /** Deletes the account's key for {@code provider}; false when it has none. */
    public boolean delete(String accountId, Provider provider) {
        return db.sql("DELETE FROM provider_keys WHERE account_id = ? AND provider = ?").params(accountId, provider.prefix()).update() > 0;
    }

    /** The account's entries, oldest first. */
    public List<Entry> list(String accountId) {
        return db.sql("SELECT provider, model, base_url FROM provider_keys WHERE account_id = ? ORDER BY created_at, id")
                .param(accountId)
                .query((rs, i) -> new Entry(accountId, Provider.ofPrefix(rs.getString(1)), rs.getString(2), rs.getString(3)))
                .list();
    }

    /** The account's key for {@code provider}, decrypted for one call. */
    public Optional<Opened> open(String accountId, Provider provider) {
        return db.sql("SELECT model, base_url, key_sealed FROM provider_keys WHERE account_id = ? AND provider = ?")
                .params(accountId, provider.prefix())
                .query((rs, i) -> new Opened(new Entry(accountId, provider, rs.getString(1), rs.getString(2)),
                        box.open(rs.getString(3), accountId)))
                .optional();
    }

    private void verify(Provider p, String key, String customUrl) {
        String base = p == Provider.CUSTOM ? customUrl : props.baseUrl(p);
        Request.Builder rb = switch (p) {
            case OPENAI, CUSTOM -> new Request.Builder().url(base + "/models").header("Authorization", "Bearer " + key);
            case OPENROUTER -> new Request.Builder().url(base + "/key").header("Authorization", "Bearer " + key);
            case ANTHROPIC -> new Request.Builder().url(base + "/models").header("x-api-key", key).header("anthropic-version", "2023-06-01");
            case GOOGLE -> new Request.Builder().url(base + "/models").header("x-goog-api-key", key);
        };
        OkHttpClient client = (p == Provider.CUSTOM ? safe.client() : open).newBuilder().retryOnConnectionFailure(true).build();
        try (Response r = client.newCall(rb.get().build()).execute()) {
            if (r.code() == 401 || r.code() == 403) throw new IllegalArgumentException(p.prefix() + " refused the key (HTTP " + r.code() + ")");
            if (!r.isSuccessful()) throw new IllegalArgumentException(p.prefix() + " could not check the key (HTTP " + r.code() + " from " + base + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException(p.prefix() + " could not be reached at " + base + ": " + e.getMessage());
        }
    }
}

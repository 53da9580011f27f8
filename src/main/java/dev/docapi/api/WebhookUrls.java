package dev.docapi.api;

import dev.docapi.core.ApiException;
import dev.docapi.net.PublicAddresses;
import dev.docapi.net.SafeHttpClient;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/** Checks {@code webhook_url} at request time (spec §6 rule 4): a public http(s) address on port 80 or 443. */
@Component
public class WebhookUrls {
    private final SafeHttpClient http;

    public WebhookUrls(SafeHttpClient http) {
        this.http = http;
    }

    /**
     * @return the URL, or null when none was given
     * @throws ApiException 400 {@code invalid_request} saying why the URL is refused
     */
    public String check(JsonNode value) {
        if (value == null || value.isNull()) return null;
        if (!value.isString()) throw ApiException.invalid("'webhook_url' must be a string");
        String url = value.asString();
        String refused = http.refuse(url, true);
        if (refused != null) throw ApiException.invalid("'webhook_url' is refused: " + refused);
        if (!http.allowsPrivate()) {
            String host = okhttp3.HttpUrl.get(url).host(); // parsed as refuse() did; java.net.URI rejects what OkHttp encodes
            try {
                for (InetAddress a : InetAddress.getAllByName(host)) {
                    if (!PublicAddresses.isPublic(a)) {
                        throw ApiException.invalid("'webhook_url' is refused: " + host + " resolves to " + a.getHostAddress() + ", which is not a public address");
                    }
                }
            } catch (UnknownHostException e) {
                throw ApiException.invalid("'webhook_url' is refused: the host " + host + " does not resolve");
            }
        }
        return url;
    }
}

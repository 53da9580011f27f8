package dev.docapi.net;

import dev.docapi.config.DocapiProperties;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import okhttp3.Dns;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The one outbound HTTP client (URL import, webhooks, {@code custom/} models), safe against SSRF: each host is
 * resolved once, every non-public address is refused, the connection is pinned to the first public address, and
 * redirects are never followed. {@code DOCAPI_ALLOW_PRIVATE_URLS=true} lifts the address rule for local development.
 */
@Component
public class SafeHttpClient {
    private static final Logger log = LoggerFactory.getLogger(SafeHttpClient.class);

    /** Thrown (as the cause of an IOException) when a host resolves to an address that is not public. */
    public static class RefusedAddressException extends UnknownHostException {
        public RefusedAddressException(String message) {
            super(message);
        }
    }

    private final OkHttpClient client;
    private final boolean allowPrivate;

    public SafeHttpClient(DocapiProperties props) {
        this.allowPrivate = props.allowPrivateUrls();
        if (allowPrivate) log.warn("DOCAPI_ALLOW_PRIVATE_URLS=true: URL imports and webhooks may reach loopback and private addresses. Never use this in production.");
        this.client = new OkHttpClient.Builder()
                .dns(this::resolve)
                .followRedirects(false)
                .followSslRedirects(false)
                // Servers close idle keep-alive connections (Node after 5 s, Python's http.server at once): a pooled
                // connection found closed is retried once on a fresh one, to the same pinned address (issue 13).
                .retryOnConnectionFailure(true)
                .connectTimeout(Duration.ofSeconds(10))
                .readTimeout(Duration.ofSeconds(30))
                .writeTimeout(Duration.ofSeconds(30))
                .callTimeout(Duration.ofMinutes(3))
                .build();
    }

    /** The client; per-call timeouts may be narrowed with {@code newBuilder()} (which keeps the DNS rule). */
    public OkHttpClient client() {
        return client;
    }

    /** Said with every refusal of a private address or port, so a developer testing on their laptop knows the way. */
    static final String LOCAL_DEVELOPMENT = " (for local development, DOCAPI_ALLOW_PRIVATE_URLS=true on the service allows it)";

    public boolean allowsPrivate() {
        return allowPrivate;
    }

    /**
     * Checks a URL before any request: http or https, a host, no user info.
     *
     * @return a reason it is refused, or null when acceptable
     */
    public String refuse(String url, boolean standardPortsOnly) {
        HttpUrl parsed = HttpUrl.parse(url == null ? "" : url);
        if (parsed == null) return "it is not an http or https URL";
        try {
            new java.net.URI(url); // RFC 3986 strictly: OkHttp would quietly re-encode spaces and stray '%'
        } catch (java.net.URISyntaxException e) {
            return "it is not a valid URL (" + e.getReason().toLowerCase(java.util.Locale.ROOT) + " at character " + (e.getIndex() + 1) + ")";
        }
        if (!parsed.username().isEmpty() || !parsed.password().isEmpty()) return "URLs with user info are not accepted";
        if (standardPortsOnly && !allowPrivate && parsed.port() != 80 && parsed.port() != 443) return "only ports 80 and 443 are allowed" + LOCAL_DEVELOPMENT;
        String host = parsed.host();
        if (!allowPrivate && (host.equals("localhost") || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local")))
            return "the host " + host + " is not a public address" + LOCAL_DEVELOPMENT;
        // OkHttp connects to an IP literal without asking its Dns, so the address rule is applied to literals here
        if (!allowPrivate && new inet.ipaddr.IPAddressString(host).isIPAddress()) {
            try {
                if (!PublicAddresses.isPublic(InetAddress.getByName(host))) return "the host " + host + " is not a public address" + LOCAL_DEVELOPMENT;
            } catch (UnknownHostException e) {
                return "the host " + host + " is not an address";
            }
        }
        return null;
    }

    private List<InetAddress> resolve(String host) throws UnknownHostException {
        InetAddress[] all = InetAddress.getAllByName(host);
        if (allowPrivate) return List.of(all[0]);
        for (InetAddress a : all) {
            if (!PublicAddresses.isPublic(a)) {
                throw new RefusedAddressException(host + " resolves to " + a.getHostAddress() + ", which is not a public address" + LOCAL_DEVELOPMENT);
            }
        }
        return List.of(all[0]);
    }

    /** Dns used by OkHttp; exposed for tests of the address rule. */
    public Dns dns() {
        return this::resolve;
    }
}

package dev.docapi.web;

import dev.docapi.support.TestMail;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A browser-like HTTP client of the developer area for the security tests: keeps cookies, follows no redirect
 * (the tests look at where they go), and posts forms with the CSRF token read from the page, as a browser would.
 */
public final class AreaClient {
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
    private final HttpClient http;
    private final String site;

    public AreaClient(int port) {
        this(HttpClient.newBuilder().cookieHandler(new CookieManager()).followRedirects(HttpClient.Redirect.NEVER).build(), port);
    }

    private AreaClient(HttpClient http, int port) {
        this.http = http;
        this.site = "http://localhost:" + port;
    }

    /** The same browser (its cookies) on another service at localhost, e.g. another node behind a balancer. */
    public AreaClient at(int port) {
        return new AreaClient(http, port);
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(site + path)).GET());
    }

    /** Posts {@code fields} with the CSRF token of the page at {@code formPage}. */
    public HttpResponse<String> submit(String formPage, String action, Map<String, String> fields) {
        Matcher m = CSRF.matcher(get(formPage).body());
        if (!m.find()) throw new AssertionError("no CSRF token on " + formPage);
        Map<String, String> all = new LinkedHashMap<>(fields);
        all.put("_csrf", m.group(1));
        return post(action, all);
    }

    /** Posts {@code fields} as they are (no CSRF token unless given). */
    HttpResponse<String> post(String action, Map<String, String> fields) {
        String body = fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(site + action)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Signs up and follows the verification link mailed to the address, as an owner does before creating keys. */
    HttpResponse<String> signUp(String email, String password) {
        HttpResponse<String> r = signUpUnverified(email, password);
        verify(TestMail.awaitLink(email, "Verify your email for docapi", 1));
        return r;
    }

    HttpResponse<String> signUpUnverified(String email, String password) {
        return submit("/signup", "/signup", Map.of("email", email, "password", password));
    }

    /** Follows a mailed verification link: its page, then the button that uses the token. */
    HttpResponse<String> verify(String link) {
        return submit(path(link), "/verify", Map.of("token", token(link)));
    }

    /** The path and query of a mailed link (its host is the service's public address). */
    static String path(String link) {
        URI u = URI.create(link);
        return u.getRawPath() + "?" + u.getRawQuery();
    }

    static String token(String link) {
        return link.substring(link.indexOf("token=") + 6);
    }

    public HttpResponse<String> signIn(String email, String password) {
        return submit("/signin", "/signin", Map.of("email", email, "password", password));
    }

    public static String location(HttpResponse<?> r) {
        return r.headers().firstValue("Location").orElse("");
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}

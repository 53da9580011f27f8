package dev.docapi.api;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.AccountService;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.http.Authenticated;
import dev.docapi.http.ErrorWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * API keys (spec §5): {@code Authorization: Bearer <key>} or {@code X-API-Key: <key>} on every {@code /v1} request
 * except {@code GET /v1}, {@code GET /v1/openapi.json} and {@code GET /v1/files/{id}/content} with a signed query
 * (checked by the controller). 401 {@code missing_api_key} / {@code invalid_api_key}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class AuthFilter extends OncePerRequestFilter {
    private final AccountService accounts;
    private final ErrorWriter errors;

    public AuthFilter(AccountService accounts, ErrorWriter errors) {
        this.accounts = accounts;
        this.errors = errors;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        // the path Jetty maps, decoded and normalised ("//v1/mcp", "/./v1/mcp" and "/x/../v1/mcp" are "/v1/mcp"),
        // never the raw URI: a rule on the raw form is bypassed by any of its spellings (issue 10)
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (!path.equals("/v1") && !path.startsWith("/v1/")) {
            chain.doFilter(request, response);
            return;
        }
        String key = key(request);
        if (key == null) {
            if (isPublic(request.getMethod(), path)) {
                chain.doFilter(request, response);
                return;
            }
            errors.write(response, new ApiException(ErrorCode.MISSING_API_KEY,
                    "send your API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"));
            return;
        }
        Optional<Account> account;
        try {
            account = accounts.authenticate(key);
        } catch (DataAccessException e) {
            errors.write(response, ApiException.databaseUnavailable(e));
            return;
        }
        if (account.isEmpty()) {
            errors.write(response, new ApiException(ErrorCode.INVALID_API_KEY, "the API key is not valid (unknown or revoked)"));
            return;
        }
        request.setAttribute(Authenticated.ATTRIBUTE, account.get());
        chain.doFilter(request, response);
    }

    static boolean isPublic(String method, String path) {
        if (!method.equals("GET") && !method.equals("HEAD")) return false;
        return path.equals("/v1") || path.equals("/v1/") || path.equals("/v1/openapi.json")
                || path.matches("/v1/files/[^/]+/content");
    }

    private static String key(HttpServletRequest request) {
        String auth = request.getHeader("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String k = auth.substring(7).strip();
            if (!k.isEmpty()) return k;
        }
        String header = request.getHeader("X-API-Key");
        return header == null || header.isBlank() ? null : header.strip();
    }
}

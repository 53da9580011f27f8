package dev.docapi.web;

import dev.docapi.limits.RequestBuckets;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Throttles {@code POST /signin}: every attempt, right or wrong, takes a token from the email's bucket and from the
 * client address's bucket ({@link WebSecurityConfig#ATTEMPTS_PER_EMAIL}, {@link WebSecurityConfig#ATTEMPTS_PER_ADDRESS}
 * per minute). Past either, the form comes back with "too many attempts" and the password is not checked. Only in
 * the developer area's security chain, never registered as a servlet filter of its own.
 */
final class SignInThrottle extends OncePerRequestFilter {
    private final RequestBuckets perEmail;
    private final RequestBuckets perAddress;

    SignInThrottle(RequestBuckets perEmail, RequestBuckets perAddress) {
        this.perEmail = perEmail;
        this.perAddress = perAddress;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getMethod().equals("POST") && request.getServletPath().equals("/signin")) {
            String email = String.valueOf(request.getParameter("email")).strip().toLowerCase(Locale.ROOT);
            // both buckets are charged, so that spreading guesses over emails still meets the address limit
            boolean emailOk = perEmail.tryConsume("signin-email:" + email).isConsumed();
            boolean addressOk = perAddress.tryConsume("signin-address:" + request.getRemoteAddr()).isConsumed();
            if (!emailOk || !addressOk) {
                response.sendRedirect(request.getContextPath() + "/signin?throttled");
                return;
            }
        }
        chain.doFilter(request, response);
    }
}

package dev.docapi.web;

import dev.docapi.limits.RequestBuckets;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Throttles {@code POST /signin} and {@code POST /signin/forgot} (each a mail to the address): every attempt, right
 * or wrong, takes a token from the email's bucket and from the client address's bucket
 * ({@link WebSecurityConfig#ATTEMPTS_PER_EMAIL}, {@link WebSecurityConfig#ATTEMPTS_PER_ADDRESS} per minute). Past
 * either, the form comes back with "too many attempts" and the password is not checked (nor a mail sent).
 * {@code POST /login/webauthn} (a passkey's signed answer, which names no email) takes a token from the address's bucket
 * and answers 429 past it, as the page's script reads JSON.
 * {@code POST /signup} takes a token from the client address's sign-up bucket
 * ({@code DOCAPI_SIGNUPS_PER_ADDRESS} a minute, default 3; issue 40: 25 accounts in 71 s came from one address);
 * past it the form comes back with "too many sign-ups" and nothing is created (nor a mail sent).
 * {@code POST /account/verify} (the verification link mailed again) takes a token from the signed-in owner's own
 * bucket only: an owner cannot guess anything there, only fill an inbox. Only in the developer area's security
 * chain, after the session is read, never registered as a servlet filter of its own.
 */
final class SignInThrottle extends OncePerRequestFilter {
    private final RequestBuckets perEmail;
    private final RequestBuckets perAddress;
    private final RequestBuckets signUpsPerAddress;

    SignInThrottle(RequestBuckets perEmail, RequestBuckets perAddress, RequestBuckets signUpsPerAddress) {
        this.perEmail = perEmail;
        this.perAddress = perAddress;
        this.signUpsPerAddress = signUpsPerAddress;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String form = request.getServletPath();
        if (request.getMethod().equals("POST") && form.equals("/account/verify")) {
            String owner = signedIn();
            if (owner != null && !perEmail.tryConsume("verify-email:" + owner.toLowerCase(Locale.ROOT)).isConsumed()) {
                response.sendRedirect(request.getContextPath() + "/account?throttled");
                return;
            }
        } else if (request.getMethod().equals("POST") && form.equals("/signup")) {
            if (!signUpsPerAddress.tryConsume("signup-address:" + request.getRemoteAddr()).isConsumed()) {
                response.sendRedirect(request.getContextPath() + "/signup?throttled");
                return;
            }
        } else if (request.getMethod().equals("POST") && form.equals("/login/webauthn")) {
            if (!perAddress.tryConsume("signin-address:" + request.getRemoteAddr()).isConsumed()) {
                response.sendError(HttpStatus.TOO_MANY_REQUESTS.value());
                return;
            }
        } else if (request.getMethod().equals("POST") && (form.equals("/signin") || form.equals("/signin/forgot"))) {
            String email = String.valueOf(request.getParameter("email")).strip().toLowerCase(Locale.ROOT);
            // both buckets are charged, so that spreading guesses over emails still meets the address limit
            boolean emailOk = perEmail.tryConsume("signin-email:" + email).isConsumed();
            boolean addressOk = perAddress.tryConsume("signin-address:" + request.getRemoteAddr()).isConsumed();
            if (!emailOk || !addressOk) {
                response.sendRedirect(request.getContextPath() + form + "?throttled");
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /** The signed-in owner's email (the username), or null before sign-in (the chain then asks for it). */
    private static String signedIn() {
        Authentication a = SecurityContextHolder.getContext().getAuthentication();
        return a == null || !a.isAuthenticated() || a instanceof AnonymousAuthenticationToken ? null : a.getName();
    }
}

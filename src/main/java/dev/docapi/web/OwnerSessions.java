package dev.docapi.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.session.SessionInformation;
import org.springframework.security.core.session.SessionRegistry;
import org.springframework.security.web.authentication.session.ChangeSessionIdAuthenticationStrategy;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;

/**
 * The owners' sessions: signing in without a password (by a one-time link) and ending an account's other sessions
 * after its password changes or a passkey is removed. The sessions are in the database (Spring Session JDBC, table
 * {@code SPRING_SESSION}), indexed by the signed-in account's email, so a session ended on one node is ended on every
 * node: {@link SessionRegistry} here is Spring Session's view of that table, and an expired session is signed out on
 * its next request wherever it lands ({@code ConcurrentSessionFilter}).
 */
final class OwnerSessions {
    private final SessionRegistry registry;
    private final SecurityContextRepository contexts = new HttpSessionSecurityContextRepository();

    OwnerSessions(SessionRegistry registry) {
        this.registry = registry;
    }

    /** A new session id (no fixation) holding the signed-in owner (the account's email). */
    void signIn(String email, HttpServletRequest request, HttpServletResponse response) {
        var auth = UsernamePasswordAuthenticationToken.authenticated(email, null, List.of(new SimpleGrantedAuthority("ROLE_OWNER")));
        new ChangeSessionIdAuthenticationStrategy().onAuthentication(auth, request, response);
        SecurityContext context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(auth);
        SecurityContextHolder.setContext(context);
        contexts.saveContext(context, request, response);
    }

    /**
     * Ends every session of the account but the request's own (if it has one). Every way of signing in names the
     * session by the email: form login's user, a passkey's WebAuthn user, {@link #signIn}'s token.
     */
    void endOthers(String email, HttpServletRequest request) {
        var own = request.getSession(false);
        String keep = own == null ? null : own.getId();
        for (SessionInformation s : registry.getAllSessions(email, false)) {
            if (!s.getSessionId().equals(keep)) s.expireNow();
        }
    }
}

package dev.docapi.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.AuthenticatedPrincipal;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.session.SessionInformation;
import org.springframework.security.core.session.SessionRegistry;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.web.authentication.session.ChangeSessionIdAuthenticationStrategy;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.security.web.webauthn.api.PublicKeyCredentialUserEntity;

/**
 * The owners' sessions: signing in without a password (by a one-time link) and ending an account's other sessions
 * after its password changes. Spring Security's {@link SessionRegistry} knows every session signed in (form login
 * registers them, {@link #signIn} too); an expired one is signed out on its next request ({@code ConcurrentSessionFilter}).
 * The registry is in memory: on several nodes, only the sessions of the node that changed the password end.
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
        registry.registerNewSession(request.getSession().getId(), email);
    }

    /** Ends every session of the account but the request's own (if it has one). */
    void endOthers(String email, HttpServletRequest request) {
        var own = request.getSession(false);
        String keep = own == null ? null : own.getId();
        for (Object principal : registry.getAllPrincipals()) {
            if (!email.equals(name(principal))) continue;
            for (SessionInformation s : registry.getAllSessions(principal, false)) {
                if (!s.getSessionId().equals(keep)) s.expireNow();
            }
        }
    }

    /** Form login registers a {@link UserDetails}, a passkey its WebAuthn user (named by the email), {@link #signIn} the email itself. */
    private static String name(Object principal) {
        return switch (principal) {
            case UserDetails u -> u.getUsername();
            case PublicKeyCredentialUserEntity u -> u.getName();
            case AuthenticatedPrincipal p -> p.getName();
            default -> principal.toString();
        };
    }
}

package dev.docapi.web;

import dev.docapi.accounts.AccountService;
import dev.docapi.config.PublicBaseUrl;
import dev.docapi.limits.RequestBuckets;
import io.github.bucket4j.TimeMeter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.core.session.SessionRegistry;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.session.security.SpringSessionBackedSessionRegistry;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.authentication.session.ChangeSessionIdAuthenticationStrategy;
import org.springframework.security.web.authentication.session.CompositeSessionAuthenticationStrategy;
import org.springframework.security.web.authentication.session.RegisterSessionAuthenticationStrategy;
import org.springframework.security.web.webauthn.authentication.WebAuthnAuthenticationFilter;
import org.springframework.security.web.webauthn.management.JdbcPublicKeyCredentialUserEntityRepository;
import org.springframework.security.web.webauthn.management.JdbcUserCredentialRepository;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialUserEntityRepository;
import org.springframework.security.web.webauthn.management.UserCredentialRepository;
import org.springframework.security.web.webauthn.management.WebAuthnRelyingPartyOperations;
import org.springframework.security.web.firewall.FirewalledRequest;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Spring Security for the developer area's pages only (issue 11): a server-side session, CSRF on every form, BCrypt
 * password hashes, sign-in throttled per email and per address, passkeys (WebAuthn, issue 26 item 5) beside the
 * password. {@code /v1} is not touched: no chain matches it and the firewall lets it through as it is, so the API
 * keeps its own {@code AuthFilter}, CORS and error shapes.
 */
@Configuration
@ConditionalOnWebApplication
class WebSecurityConfig {
    /** Sign-in attempts per minute for one email, and for one client address. */
    static final int ATTEMPTS_PER_EMAIL = 5;
    static final int ATTEMPTS_PER_ADDRESS = 20;

    @Bean
    SecurityFilterChain developerArea(HttpSecurity http, DataSource dataSource, SessionRegistry sessionRegistry,
                                      @org.springframework.beans.factory.annotation.Value("${docapi.signups-per-address:3}") int signUpsPerAddress)
            throws MetaDataAccessException {
        // Bucket4j buckets as the API's request limit uses: shared through PostgreSQL, in memory on H2
        SignInThrottle throttle = new SignInThrottle(
                RequestBuckets.forDatabase(dataSource, ATTEMPTS_PER_EMAIL, TimeMeter.SYSTEM_MILLISECONDS),
                RequestBuckets.forDatabase(dataSource, ATTEMPTS_PER_ADDRESS, TimeMeter.SYSTEM_MILLISECONDS),
                // sign-ups a minute from one client address (DOCAPI_SIGNUPS_PER_ADDRESS, default 3; issue 40 item 5)
                RequestBuckets.forDatabase(dataSource, signUpsPerAddress, TimeMeter.SYSTEM_MILLISECONDS));
        http.securityMatcher(request -> !isApi(request) && !dev.docapi.management.ManagementPort.isManagementPath(request))
                .authorizeHttpRequests(a -> a
                        .requestMatchers(publicPage()).permitAll()
                        .anyRequest().authenticated())
                .formLogin(f -> f.loginPage("/signin").usernameParameter("email").failureUrl("/signin?error").defaultSuccessUrl("/", false).permitAll())
                .logout(l -> l.logoutUrl("/signout").logoutSuccessUrl("/signin?signedout"))
                // Spring Security's endpoints, called by /js/passkeys.js: POST /webauthn/register/options and
                // /webauthn/register (signed in), POST /webauthn/authenticate/options and /login/webauthn (signing in)
                .webAuthn(w -> w.disableDefaultRegistrationPage(true).withObjectPostProcessor(new ObjectPostProcessor<WebAuthnAuthenticationFilter>() {
                    @Override
                    public <O extends WebAuthnAuthenticationFilter> O postProcess(O filter) {
                        // as form login and OwnerSessions.signIn: a new session id, registered for OwnerSessions.endOthers
                        filter.setSessionAuthenticationStrategy(new CompositeSessionAuthenticationStrategy(List.of(
                                new ChangeSessionIdAuthenticationStrategy(), new RegisterSessionAuthenticationStrategy(sessionRegistry))));
                        return filter;
                    }
                }))
                // every session in the registry, so that a password reset can end the others (OwnerSessions)
                .sessionManagement(s -> s.maximumSessions(-1).sessionRegistry(sessionRegistry).expiredUrl("/signin?expired"))
                .addFilterBefore(throttle, UsernamePasswordAuthenticationFilter.class);
        return http.build();
    }

    private static RequestMatcher publicPage() {
        return request -> {
            String p = path(request);
            return p.equals("/signin") || p.equals("/signup") || p.equals("/signin/link") || p.equals("/error")
                    || p.equals("/signin/forgot") || p.equals("/reset") || p.equals("/verify")
                    || p.equals("/reference.html") // the rendered API reference: the OpenAPI document is public too
                    || p.startsWith("/webjars/") || p.startsWith("/css/") || p.startsWith("/js/");
        };
    }

    /** The API, by the path Tomcat maps (as {@code AuthFilter} reads it), and the error pages of API requests. */
    static boolean isApi(HttpServletRequest request) {
        String p = path(request);
        if (request.getDispatcherType() == DispatcherType.ERROR && request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String uri) {
            p = uri;
        }
        return p.equals("/v1") || p.startsWith("/v1/");
    }

    private static String path(HttpServletRequest request) {
        return request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    }

    /** Spring Security's strict firewall for the pages; {@code /v1} requests pass unchanged, as before the pages existed. */
    @Bean
    WebSecurityCustomizer apiUntouchedByFirewall() {
        HttpFirewall strict = new StrictHttpFirewall();
        HttpFirewall firewall = new HttpFirewall() {
            @Override
            public FirewalledRequest getFirewalledRequest(HttpServletRequest request) {
                if (!isApi(request)) return strict.getFirewalledRequest(request);
                return new FirewalledRequest(request) {
                    @Override
                    public void reset() {
                    }
                };
            }

            @Override
            public jakarta.servlet.http.HttpServletResponse getFirewalledResponse(jakarta.servlet.http.HttpServletResponse response) {
                return strict.getFirewalledResponse(response);
            }
        };
        return web -> web.httpFirewall(firewall);
    }

    /**
     * The sessions of every node, as Spring Session JDBC keeps them in the database (V68, indexed by the signed-in
     * email): a session signed in on one node is known to the others, and one ended on any node ends everywhere.
     */
    @Bean
    SessionRegistry sessionRegistry(FindByIndexNameSessionRepository<? extends Session> sessions) {
        return new SpringSessionBackedSessionRegistry<>(sessions);
    }

    @Bean
    OwnerSessions ownerSessions(SessionRegistry registry) {
        return new OwnerSessions(registry);
    }

    /** The passkeys' WebAuthn users (name: the account's email) and credentials, in the service's database (V67). */
    @Bean
    PublicKeyCredentialUserEntityRepository passkeyUsers(DataSource dataSource) {
        return new JdbcPublicKeyCredentialUserEntityRepository(new JdbcTemplate(dataSource));
    }

    @Bean
    UserCredentialRepository passkeyCredentials(DataSource dataSource) {
        return new JdbcUserCredentialRepository(new JdbcTemplate(dataSource));
    }

    @Bean
    WebAuthnRelyingPartyOperations relyingParty(PublicKeyCredentialUserEntityRepository users, UserCredentialRepository credentials,
                                                PublicBaseUrl baseUrl) {
        return new SiteRelyingParty(users, credentials, baseUrl);
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return new BCryptPasswordEncoder();
    }

    /** Accounts by email; one without a password (made by the admin CLI) cannot sign in by password. */
    @Bean
    UserDetailsService accountsByEmail(AccountService accounts) {
        return email -> accounts.passwordHash(email)
                .map(hash -> User.withUsername(email).password(hash).roles("OWNER").build())
                .orElseThrow(() -> new UsernameNotFoundException("no password for this email"));
    }
}

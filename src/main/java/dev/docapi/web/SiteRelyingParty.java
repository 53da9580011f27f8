package dev.docapi.web;

import dev.docapi.config.PublicBaseUrl;
import java.net.URI;
import java.util.Set;
import org.springframework.security.web.webauthn.api.CredentialRecord;
import org.springframework.security.web.webauthn.api.PublicKeyCredentialCreationOptions;
import org.springframework.security.web.webauthn.api.PublicKeyCredentialRequestOptions;
import org.springframework.security.web.webauthn.api.PublicKeyCredentialRpEntity;
import org.springframework.security.web.webauthn.api.PublicKeyCredentialUserEntity;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialCreationOptionsRequest;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialRequestOptionsRequest;
import org.springframework.security.web.webauthn.management.PublicKeyCredentialUserEntityRepository;
import org.springframework.security.web.webauthn.management.RelyingPartyAuthenticationRequest;
import org.springframework.security.web.webauthn.management.RelyingPartyRegistrationRequest;
import org.springframework.security.web.webauthn.management.UserCredentialRepository;
import org.springframework.security.web.webauthn.management.WebAuthnRelyingPartyOperations;
import org.springframework.security.web.webauthn.management.Webauthn4JRelyingPartyOperations;

/**
 * The developer area as a WebAuthn relying party (passkeys, issue 26 item 5): Spring Security's webauthn4j operations
 * with the relying-party id and the one allowed origin taken from the site's address ({@link PublicBaseUrl#site()}:
 * {@code DOCAPI_PUBLIC_BASE_URL} without its {@code /v1}, or {@code http://localhost:<port>}). Made on first use,
 * because without {@code DOCAPI_PUBLIC_BASE_URL} the port is known only once the server listens.
 */
final class SiteRelyingParty implements WebAuthnRelyingPartyOperations {
    private final PublicKeyCredentialUserEntityRepository users;
    private final UserCredentialRepository credentials;
    private final PublicBaseUrl baseUrl;
    private volatile WebAuthnRelyingPartyOperations operations;

    SiteRelyingParty(PublicKeyCredentialUserEntityRepository users, UserCredentialRepository credentials, PublicBaseUrl baseUrl) {
        this.users = users;
        this.credentials = credentials;
        this.baseUrl = baseUrl;
    }

    private WebAuthnRelyingPartyOperations operations() {
        if (operations == null) {
            URI site = URI.create(baseUrl.site());
            String origin = site.getScheme() + "://" + site.getHost() + (site.getPort() == -1 ? "" : ":" + site.getPort());
            operations = new Webauthn4JRelyingPartyOperations(users, credentials,
                    PublicKeyCredentialRpEntity.builder().id(site.getHost()).name("docapi").build(), Set.of(origin));
        }
        return operations;
    }

    @Override
    public PublicKeyCredentialCreationOptions createPublicKeyCredentialCreationOptions(PublicKeyCredentialCreationOptionsRequest request) {
        return operations().createPublicKeyCredentialCreationOptions(request);
    }

    @Override
    public CredentialRecord registerCredential(RelyingPartyRegistrationRequest request) {
        return operations().registerCredential(request);
    }

    @Override
    public PublicKeyCredentialRequestOptions createCredentialRequestOptions(PublicKeyCredentialRequestOptionsRequest request) {
        return operations().createCredentialRequestOptions(request);
    }

    @Override
    public PublicKeyCredentialUserEntity authenticate(RelyingPartyAuthenticationRequest request) {
        return operations().authenticate(request);
    }
}

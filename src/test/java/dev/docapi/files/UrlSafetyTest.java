package dev.docapi.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.config.DocapiProperties;
import dev.docapi.net.PublicAddresses;
import dev.docapi.net.SafeHttpClient;
import java.net.InetAddress;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SSRF rules of URL import with private addresses NOT allowed (the production default). */
class UrlSafetyTest {
    private final SafeHttpClient strict = new SafeHttpClient(new DocapiProperties(8080, Path.of("/tmp"), null, null, null, null, 1, false, java.time.Duration.ofSeconds(1), 0, 0, null));

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.1.2.3", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1",
            "0.0.0.0", "::1", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1", "::a9fe:a9fe", "::ffff:0:7f00:1", "64:ff9b::127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "2002:c0a8:101::", "::", "224.0.0.1",
            "172.31.255.255", "100.127.255.255", "198.19.255.255", "255.255.255.255", "fc00::1", "ff02::1"})
    void nonPublicAddressesAreRefused(String address) throws Exception {
        assertThat(PublicAddresses.isPublic(InetAddress.getByName(address))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "93.184.216.34", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8",
            "172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0", "198.20.0.0", "11.0.0.0", "223.255.255.255"})
    void publicAddressesPass(String address) throws Exception {
        assertThat(PublicAddresses.isPublic(InetAddress.getByName(address))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "127.0.0.1", "169.254.169.254", "[::1]"})
    void theResolverRefusesPrivateHosts(String host) {
        assertThatThrownBy(() -> strict.dns().lookup(host.replace("[", "").replace("]", "")))
                .isInstanceOf(SafeHttpClient.RefusedAddressException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://localhost/a.pdf", "file:///etc/passwd", "http://user:pw@example.com/a.pdf", "gopher://example.com/"})
    void urlsAreCheckedBeforeAnyRequest(String url) {
        assertThat(strict.refuse(url, false)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com:8443/hook", "http://example.com:22/hook"})
    void webhooksOnlyGoToPorts80And443(String url) {
        assertThat(strict.refuse(url, true)).isNotNull();
        assertThat(strict.refuse("https://example.com/hook", true)).isNull();
    }
}

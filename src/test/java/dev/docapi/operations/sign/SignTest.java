package dev.docapi.operations.sign;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Map;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaCertStore;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoGeneratorBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.bouncycastle.tsp.TSPAlgorithms;
import org.bouncycastle.tsp.TimeStampRequest;
import org.bouncycastle.tsp.TimeStampResponseGenerator;
import org.bouncycastle.tsp.TimeStampTokenGenerator;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * sign and verify-signatures (issue 27) with a certificate made here by BouncyCastle: the signed PDF checked by
 * poppler's {@code pdfsig} (an independent validator) and by verify-signatures; one byte changed breaks it; B-T
 * against an RFC 3161 authority served here on loopback (the tests allow private URLs); a wrong password is a 400.
 */
class SignTest extends ApiTestBase {
    private static final String PASSWORD = "correct horse 7";

    @Autowired
    private JdbcClient db;

    @Test
    void signedPdfValidatesWithPdfsigAndDssAndAByteChangedAfterwardsBreaksIt() throws Exception {
        String key = newKey();
        String pdf = uploadId(key, corpus("pdf-text/two-column-paper-2p.pdf"));
        JsonNode p12 = upload(key, pkcs12("Ada Signer", PASSWORD), "ada.p12");
        assertThat(p12.get("content_type").asString()).isEqualTo("application/x-pkcs12");

        JsonNode job = run(key, "sign", Map.of("file", pdf, "certificate", p12.get("id").asString(), "password", PASSWORD,
                "reason", "Approved", "location", "Lisbon",
                "visible", Map.of("page", 2, "x", 40, "y", 60, "width", 220, "height", 60, "text", "Signed by Ada")));
        assertThat(job.at("/output/note").asString()).contains("PAdES-BASELINE-B");
        // the password is a secret: not on the job as the API shows it, nor in the database row in clear
        assertThat(get(key, "/jobs/" + job.get("id").asString()).raw()).asString().doesNotContain(PASSWORD);
        String row = db.sql("SELECT * FROM jobs WHERE id = ?").param(job.get("id").asString()).query().listOfRows().toString();
        assertThat(row).contains("Approved").doesNotContain(PASSWORD);
        Path signed = downloadOutput(job, 0);

        Independent.Run pdfsig = Independent.run("pdfsig", signed.toString());
        assertThat(pdfsig.output()).contains("Signer Certificate Common Name: Ada Signer", "Signature Validation: Signature is Valid.",
                "Total document signed", "Signature Type: ETSI.CAdES.detached");
        try (PDDocument doc = Independent.pdfbox(signed)) {
            PDSignature dictionary = doc.getSignatureDictionaries().getFirst();
            assertThat(dictionary.getReason()).isEqualTo("Approved");
            assertThat(dictionary.getLocation()).isEqualTo("Lisbon");
        }
        assertThat(Independent.pdftotext(signed, 2)).contains("Signed by Ada");

        JsonNode sig = verify(key, signed);
        assertThat(sig.get("signer").asString()).isEqualTo("Ada Signer");
        assertThat(sig.get("format").asString()).isEqualTo("PAdES-BASELINE-B");
        assertThat(sig.get("intact").asBoolean()).isTrue();
        assertThat(sig.get("covers_whole_document").asBoolean()).isTrue();
        assertThat(sig.get("modified_after").asBoolean()).isFalse();
        assertThat(sig.get("certificate_valid_at_signing_time").asBoolean()).isTrue();
        assertThat(Instant.parse(sig.get("signing_time").asString())).isCloseTo(Instant.now(), org.assertj.core.api.Assertions.within(10, ChronoUnit.MINUTES));
        // self-signed and trusted by nothing: intact, but no chain to a trust anchor
        assertThat(sig.get("indication").asString()).isEqualTo("INDETERMINATE");
        assertThat(sig.at("/certificate_chain/0/subject").asString()).contains("CN=Ada Signer");
        assertThat(sig.at("/certificate_chain/0/self_signed").asBoolean()).isTrue();
        assertThat(sig.at("/certificate_chain/0/trusted").asBoolean()).isFalse();

        // a later operation on the signed PDF says it loses the signature
        JsonNode rotated = run(key, "rotate", Map.of("file", uploadId(key, signed), "angle", 90));
        assertThat(rotated.at("/output/note").asString()).contains("was digitally signed");

        // one signed byte changed (in the header's binary comment, so the file still parses): both validators see it
        byte[] bytes = Files.readAllBytes(signed);
        assertThat(bytes[11] & 0xFF).isGreaterThan(127);
        bytes[11] ^= 0x01;
        Path tampered = signed.resolveSibling("tampered.pdf");
        Files.write(tampered, bytes);
        assertThat(Independent.run("pdfsig", tampered.toString()).output()).contains("Digest Mismatch").doesNotContain("Signature is Valid.");
        JsonNode broken = verify(key, tampered);
        assertThat(broken.get("intact").asBoolean()).isFalse();
        assertThat(broken.get("indication").asString()).isEqualTo("TOTAL_FAILED");
    }

    @Test
    void timestampUrlGivesBaselineTWithTheAuthoritysTime() throws Exception {
        KeyPair tsaKey = rsa();
        X509Certificate tsaCert = certificate("Test TSA", tsaKey, true);
        HttpServer tsa = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        tsa.createContext("/tsa", exchange -> {
            try {
                TimeStampRequest request = new TimeStampRequest(exchange.getRequestBody().readAllBytes());
                TimeStampTokenGenerator tokens = new TimeStampTokenGenerator(new JcaSimpleSignerInfoGeneratorBuilder().build("SHA256withRSA",
                        tsaKey.getPrivate(), tsaCert), new JcaDigestCalculatorProviderBuilder().build().get(
                        new org.bouncycastle.asn1.x509.AlgorithmIdentifier(org.bouncycastle.asn1.nist.NISTObjectIdentifiers.id_sha256)),
                        new ASN1ObjectIdentifier("1.2.3.4.1"));
                tokens.addCertificates(new JcaCertStore(java.util.List.of(tsaCert)));
                byte[] answer = new TimeStampResponseGenerator(tokens, TSPAlgorithms.ALLOWED)
                        .generate(request, BigInteger.valueOf(System.nanoTime()), new Date()).getEncoded();
                exchange.getResponseHeaders().add("Content-Type", "application/timestamp-reply");
                exchange.sendResponseHeaders(200, answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            } catch (Exception e) {
                exchange.sendResponseHeaders(500, -1);
            } finally {
                exchange.close();
            }
        });
        tsa.start();
        try {
            String key = newKey();
            String pdf = uploadId(key, corpus("pdf-text/two-column-paper-2p.pdf"));
            String p12 = upload(key, pkcs12("Tim Stamp", PASSWORD), "tim.pfx").get("id").asString();
            JsonNode job = run(key, "sign", Map.of("file", pdf, "certificate", p12, "password", PASSWORD,
                    "timestamp_url", "http://127.0.0.1:" + tsa.getAddress().getPort() + "/tsa",
                    "visible", Map.of("page", 1, "x", 365, "y", 10, "width", 220, "height", 40)));
            assertThat(job.at("/output/note").asString()).contains("PAdES-BASELINE-T");
            Path signed = downloadOutput(job, 0);
            // a box without text shows the signer and the time, where it was asked for (the page's empty top margin)
            assertThat(Independent.run("pdftotext", "-f", "1", "-l", "1", "-x", "365", "-y", "10", "-W", "220", "-H", "40", signed.toString(), "-")
                    .output()).contains("Digitally signed by Tim Stamp").doesNotContain("Dense Passage");
            assertThat(Independent.run("pdfsig", signed.toString()).output()).contains("Signature is Valid.", "Total document signed");
            JsonNode sig = verify(key, signed);
            assertThat(sig.get("format").asString()).isEqualTo("PAdES-BASELINE-T");
            assertThat(sig.get("intact").asBoolean()).isTrue();
            assertThat(Instant.parse(sig.get("timestamp_time").asString())).isCloseTo(Instant.now(), org.assertj.core.api.Assertions.within(10, ChronoUnit.MINUTES));

            // an authority that gives no timestamp fails the job (a 5xx code, spec §7 rule 3) and says why
            Response failed = post(key, "/sign", Map.of("file", pdf, "certificate", p12, "password", PASSWORD,
                    "timestamp_url", "http://127.0.0.1:" + tsa.getAddress().getPort() + "/missing"));
            assertThat(failed.body().at("/job/status").asString()).isEqualTo("failed");
            assertThat(failed.body().at("/error/message").asString()).contains("timestamp authority gave no timestamp", "HTTP 404");
        } finally {
            tsa.stop(0);
        }
    }

    @Test
    void wrongPasswordOrWrongFileIsA400BeforeAnyJob() throws Exception {
        String key = newKey();
        String pdf = uploadId(key, corpus("pdf-text/two-column-paper-2p.pdf"));
        String p12 = upload(key, pkcs12("Eve", PASSWORD), "eve.p12").get("id").asString();

        Response wrong = post(key, "/sign", Map.of("file", pdf, "certificate", p12, "password", "not it"));
        assertThat(wrong.status()).isEqualTo(400);
        assertThat(wrong.code()).isEqualTo("invalid_request");
        assertThat(wrong.body().at("/error/message").asString()).contains("password does not open the certificate");

        Response notACertificate = post(key, "/sign", Map.of("file", pdf, "certificate", pdf, "password", PASSWORD));
        assertThat(notACertificate.status()).isEqualTo(400);
        assertThat(notACertificate.body().at("/error/message").asString()).contains("'certificate' takes [certificate] files");

        Response offThePage = post(key, "/sign", Map.of("file", pdf, "certificate", p12, "password", PASSWORD,
                "visible", Map.of("page", 1, "x", 500, "y", 10, "width", 200, "height", 40)));
        assertThat(offThePage.status()).isEqualTo(400);
        assertThat(offThePage.body().at("/error/message").asString()).contains("does not fit page 1, which is 595 × 842 points");

        Response unknown = post(key, "/sign", Map.of("file", pdf, "certificate", "file_nope", "password", PASSWORD));
        assertThat(unknown.status()).isEqualTo(404);

        JsonNode unsigned = run(key, "verify-signatures", Map.of("file", pdf));
        assertThat(unsigned.at("/output/data/signatures").size()).isZero();
        assertThat(unsigned.at("/output/note").asString()).contains("no digital signatures");
    }

    private JsonNode verify(String key, Path pdf) {
        JsonNode job = run(key, "verify-signatures", Map.of("file", uploadId(key, pdf)));
        JsonNode signatures = job.at("/output/data/signatures");
        assertThat(signatures.size()).isEqualTo(1);
        return signatures.get(0);
    }

    /** A PKCS#12 file with a new RSA key and its self-signed certificate for {@code name}. */
    private static Path pkcs12(String name, String password) throws Exception {
        KeyPair pair = rsa();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("signer", pair.getPrivate(), password.toCharArray(), new X509Certificate[]{certificate(name, pair, false)});
        Path p = Files.createTempFile(DATA_DIR, "cert-", ".p12");
        try (OutputStream out = Files.newOutputStream(p)) {
            store.store(out, password.toCharArray());
        }
        return p;
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    /** A self-signed certificate valid from a day ago for a year; a timestamping one has the critical EKU RFC 3161 asks for. */
    private static X509Certificate certificate(String name, KeyPair pair, boolean timestamping) throws Exception {
        X500Name subject = new X500Name("CN=" + name + ",O=docapi tests");
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minus(1, ChronoUnit.DAYS)), Date.from(now.plus(365, ChronoUnit.DAYS)), subject, pair.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        if (timestamping) {
            builder.addExtension(Extension.extendedKeyUsage, true, new ExtendedKeyUsage(KeyPurposeId.id_kp_timeStamping));
        } else {
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.nonRepudiation));
        }
        PrivateKey signing = pair.getPrivate();
        return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(signing)));
    }
}

package dev.docapi.engines.dss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.docapi.engines.EngineFailure;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Date;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS12PfxPduBuilder;
import org.bouncycastle.pkcs.PKCS12SafeBag;
import org.bouncycastle.pkcs.jcajce.JcaPKCS12SafeBagBuilder;
import org.bouncycastle.pkcs.jcajce.JcePKCS12MacCalculatorBuilder;
import org.bouncycastle.pkcs.jcajce.JcePKCSPBEOutputEncryptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40 item 0: the key-derivation iterations of a PKCS#12 file are added up before any derivation; a key hidden
 * in an encrypted part counts too.
 */
class Pkcs12BoundsTest {
    private static final char[] PASSWORD = "correct horse".toCharArray();
    private static final BouncyCastleProvider BC = new BouncyCastleProvider();
    @TempDir
    Path dir;

    @Test
    void aKeyStoreAsTheJdkWritesItOpensAndAWrongPasswordIsTold() throws Exception {
        KeyPair pair = rsa();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("signer", pair.getPrivate(), PASSWORD, new X509Certificate[] {certificate(pair)});
        Path p12 = dir.resolve("jdk.p12");
        try (OutputStream out = Files.newOutputStream(p12)) {
            store.store(out, PASSWORD);
        }
        assertThatCode(() -> Pkcs12Bounds.check(p12, PASSWORD, 1_000_000, "LIMIT")).doesNotThrowAnyException();
        EngineFailure wrong = catchThrowableOfType(EngineFailure.class, () -> Pkcs12Bounds.check(p12, "not it".toCharArray(), 1_000_000, "LIMIT"));
        assertThat(wrong.kind()).isEqualTo(EngineFailure.Kind.PASSWORD_NEEDED);
        // the JDK's defaults (10,000 a derivation, three derivations) are over a limit of 20,000 in all
        EngineFailure over = catchThrowableOfType(EngineFailure.class, () -> Pkcs12Bounds.check(p12, PASSWORD, 20_000, "LIMIT"));
        assertThat(over.kind()).isEqualTo(EngineFailure.Kind.INVALID_INPUT);
        assertThat(over.getMessage()).contains("the limit is 20,000 (LIMIT)");
    }

    @Test
    void aKeyInsideAnEncryptedPartIsCountedAfterThePartIsOpened() throws Exception {
        KeyPair pair = rsa();
        // the part opens with 1 iteration; the key inside it asks for 50,000, over a limit of 40,000
        PKCS12SafeBag key = new JcaPKCS12SafeBagBuilder(pair.getPrivate(), new JcePKCSPBEOutputEncryptorBuilder(PKCSObjectIdentifiers.pbeWithSHAAnd3_KeyTripleDES_CBC)
                .setProvider(BC).setIterationCount(50_000).build(PASSWORD)).build();
        PKCS12PfxPduBuilder pfx = new PKCS12PfxPduBuilder();
        pfx.addEncryptedData(new JcePKCSPBEOutputEncryptorBuilder(PKCSObjectIdentifiers.pbeWithSHAAnd3_KeyTripleDES_CBC).setProvider(BC).setIterationCount(1).build(PASSWORD),
                new PKCS12SafeBag[] {new JcaPKCS12SafeBagBuilder(certificate(pair)).build(), key});
        Path p12 = Files.write(dir.resolve("hidden.p12"), pfx.build(new JcePKCS12MacCalculatorBuilder(NISTObjectIdentifiers.id_sha256).setProvider(BC).setIterationCount(1), PASSWORD)
                .getEncoded(ASN1Encoding.DER));
        EngineFailure over = catchThrowableOfType(EngineFailure.class, () -> Pkcs12Bounds.check(p12, PASSWORD, 40_000, "LIMIT"));
        assertThat(over.kind()).isEqualTo(EngineFailure.Kind.INVALID_INPUT);
        assertThat(over.getMessage()).contains("at least 50,002").contains("the limit is 40,000");
        assertThatCode(() -> Pkcs12Bounds.check(p12, PASSWORD, 60_000, "LIMIT")).doesNotThrowAnyException();
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static X509Certificate certificate(KeyPair pair) throws Exception {
        X500Name subject = new X500Name("CN=Bounds,O=docapi tests");
        long now = System.currentTimeMillis();
        return new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(subject, BigInteger.ONE, new Date(now - 86_400_000L),
                new Date(now + 86_400_000L), subject, pair.getPublic()).build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate())));
    }
}

package dev.docapi.engines.dss;

import dev.docapi.engines.EngineFailure;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.pkcs.AuthenticatedSafe;
import org.bouncycastle.asn1.pkcs.ContentInfo;
import org.bouncycastle.asn1.pkcs.EncryptedData;
import org.bouncycastle.asn1.pkcs.EncryptedPrivateKeyInfo;
import org.bouncycastle.asn1.pkcs.KeyDerivationFunc;
import org.bouncycastle.asn1.pkcs.MacData;
import org.bouncycastle.asn1.pkcs.PBEParameter;
import org.bouncycastle.asn1.pkcs.PBES2Parameters;
import org.bouncycastle.asn1.pkcs.PBKDF2Params;
import org.bouncycastle.asn1.pkcs.PKCS12PBEParams;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.Pfx;
import org.bouncycastle.asn1.pkcs.SafeBag;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.pkcs.PKCS12SafeBag;
import org.bouncycastle.pkcs.PKCS12SafeBagFactory;
import org.bouncycastle.pkcs.PKCSException;
import org.bouncycastle.pkcs.jcajce.JcePKCSPBEInputDecryptorProviderBuilder;

/**
 * The key-derivation work a PKCS#12 file (RFC 7292) asks for, counted before any is done (issue 40 item 0). Opening
 * a key store derives a key from the password once for its MAC, once for each encrypted part and once for each
 * encrypted private key, each with the iteration count the file chooses: {@code openssl pkcs12 -iter 5000000} makes a
 * 2.5 KB file that costs 11 s of CPU to open, wrong password or not. The counts are read with BouncyCastle's ASN.1
 * parser from the MAC data and the PBES2 (PBKDF2), PKCS#12 PBE and PBES1 parameters, and added up; an encrypted part
 * is decrypted here (its own derivation counted first) only to count the private keys inside it.
 */
final class Pkcs12Bounds {
    /** PBMAC1 (RFC 9579 / RFC 8018 §7.1): a MAC keyed by PBKDF2, which a PKCS#12 file may name in its MAC data. */
    private static final ASN1ObjectIdentifier PBMAC1 = PKCSObjectIdentifiers.pkcs_5.branch("14");
    /** SafeContents nested in SafeContents: deeper than any real key store. */
    private static final int MAX_NESTING = 8;
    private static final BouncyCastleProvider BC = new BouncyCastleProvider();

    private final long max;
    private final String setting;
    private BigInteger total = BigInteger.ZERO;

    private Pkcs12Bounds(long max, String setting) {
        this.max = max;
        this.setting = setting;
    }

    /**
     * Refuses {@code p12} when opening it with {@code password} would take more than {@code max} key-derivation
     * iterations in all.
     *
     * @param setting the name of the setting that sets {@code max}, for the message
     * @throws EngineFailure {@link EngineFailure.Kind#INVALID_INPUT} naming the count and the limit, or when the file
     *                       is not a PKCS#12 PFX; {@link EngineFailure.Kind#PASSWORD_NEEDED} when an encrypted part
     *                       does not open with the password (no more work is done then)
     */
    static void check(Path p12, char[] password, long max, String setting) throws EngineFailure {
        Pkcs12Bounds bounds = new Pkcs12Bounds(max, setting);
        // an empty password is tried twice by the JDK's key store (as empty and as a single zero character)
        int tries = password.length == 0 ? 2 : 1;
        byte[] der;
        Pfx pfx;
        try {
            der = Files.readAllBytes(p12);
            pfx = Pfx.getInstance(ASN1Primitive.fromByteArray(der));
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the certificate is not a readable PKCS#12 key store", e);
        }
        try {
            MacData mac = pfx.getMacData();
            if (mac != null) {
                AlgorithmIdentifier macAlgorithm = mac.getMac().getAlgorithmId();
                bounds.add(macAlgorithm.getAlgorithm().equals(PBMAC1) ? bounds.iterations(macAlgorithm) : mac.getIterationCount(), tries);
            }
            ContentInfo authSafe = pfx.getAuthSafe();
            if (!authSafe.getContentType().equals(PKCSObjectIdentifiers.data)) return; // public-key integrity: no password-based MAC
            AuthenticatedSafe safe = AuthenticatedSafe.getInstance(ASN1OctetString.getInstance(authSafe.getContent()).getOctets());
            for (ContentInfo part : safe.getContentInfo()) {
                ASN1ObjectIdentifier type = part.getContentType();
                if (type.equals(PKCSObjectIdentifiers.data)) {
                    bounds.bags(ASN1Sequence.getInstance(ASN1OctetString.getInstance(part.getContent()).getOctets()), tries, 0);
                } else if (type.equals(PKCSObjectIdentifiers.encryptedData)) {
                    EncryptedData encrypted = EncryptedData.getInstance(part.getContent());
                    bounds.add(bounds.iterations(encrypted.getEncryptionAlgorithm()), tries);
                    bounds.encryptedBags(part, password, tries);
                }
            }
        } catch (RuntimeException | StackOverflowError e) {
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the certificate is not a readable PKCS#12 key store", e);
        }
    }

    /** Counts the shrouded keys among {@code bags} (a SafeContents), and in the SafeContents nested in it. */
    private void bags(ASN1Sequence bags, int tries, int depth) throws EngineFailure {
        if (depth > MAX_NESTING) throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the certificate's key store nests its parts too deep");
        for (ASN1Encodable b : bags) {
            SafeBag bag = SafeBag.getInstance(b);
            if (bag.getBagId().equals(PKCSObjectIdentifiers.pkcs8ShroudedKeyBag)) {
                add(iterations(EncryptedPrivateKeyInfo.getInstance(bag.getBagValue()).getEncryptionAlgorithm()), tries);
            } else if (bag.getBagId().equals(PKCSObjectIdentifiers.safeContentsBag)) {
                bags(ASN1Sequence.getInstance(bag.getBagValue()), tries, depth + 1);
            }
        }
    }

    /** Decrypts an encrypted part (its derivation counted already) to count the shrouded keys in it. */
    private void encryptedBags(ContentInfo part, char[] password, int tries) throws EngineFailure {
        try {
            PKCS12SafeBagFactory factory = new PKCS12SafeBagFactory(part, new JcePKCSPBEInputDecryptorProviderBuilder().setProvider(BC).build(password));
            for (PKCS12SafeBag bag : factory.getSafeBags()) {
                if (bag.getType().equals(PKCSObjectIdentifiers.pkcs8ShroudedKeyBag)) {
                    add(iterations(EncryptedPrivateKeyInfo.getInstance(bag.toASN1Structure().getBagValue()).getEncryptionAlgorithm()), tries);
                } else if (bag.getType().equals(PKCSObjectIdentifiers.safeContentsBag)) {
                    bags(ASN1Sequence.getInstance(bag.toASN1Structure().getBagValue()), tries, 1);
                }
            }
        } catch (PKCSException | RuntimeException e) {
            // the JDK's key store fails at this same part, having derived no more keys than are counted
            throw new EngineFailure(EngineFailure.Kind.PASSWORD_NEEDED, "the password does not open the certificate", e);
        }
    }

    /** The iterations of a password-based algorithm (PBES2 with PBKDF2, PBMAC1, PKCS#12 PBE, PBES1); 0 for others. */
    private BigInteger iterations(AlgorithmIdentifier algorithm) {
        ASN1ObjectIdentifier oid = algorithm.getAlgorithm();
        ASN1Encodable params = algorithm.getParameters();
        if (params == null) return BigInteger.ZERO;
        if (oid.equals(PKCSObjectIdentifiers.id_PBES2)) return kdf(PBES2Parameters.getInstance(params).getKeyDerivationFunc());
        if (oid.equals(PBMAC1)) return kdf(KeyDerivationFunc.getInstance(ASN1Sequence.getInstance(params).getObjectAt(0)));
        if (oid.on(PKCSObjectIdentifiers.pkcs_12PbeIds)) return PKCS12PBEParams.getInstance(params).getIterations();
        if (oid.on(PKCSObjectIdentifiers.pkcs_5)) return PBEParameter.getInstance(params).getIterationCount();
        return BigInteger.ZERO;
    }

    private static BigInteger kdf(KeyDerivationFunc kdf) {
        if (!kdf.getAlgorithm().equals(PKCSObjectIdentifiers.id_PBKDF2)) return BigInteger.ZERO;
        return PBKDF2Params.getInstance(kdf.getParameters()).getIterationCount();
    }

    private void add(BigInteger iterations, int tries) throws EngineFailure {
        total = total.add(iterations.max(BigInteger.ZERO).multiply(BigInteger.valueOf(tries)));
        if (total.compareTo(BigInteger.valueOf(max)) > 0) {
            String asked = total.bitLength() > 62 ? "more than 2^62" : String.format(Locale.ROOT, "at least %,d", total);
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, String.format(Locale.ROOT,
                    "opening the certificate file takes %s key-derivation iterations; the limit is %,d (%s)", asked, max, setting));
        }
    }
}

package dev.docapi.engines.dss;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Calendar;
import java.util.Date;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationWidget;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.pdfbox.pdmodel.interactive.form.PDSignatureField;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.SignatureInterface;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.SignatureOptions;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaCertStore;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedDataGenerator;
import org.bouncycastle.cms.jcajce.JcaSignerInfoGeneratorBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;

/**
 * Signed PDFs made here, hostile ones included (issue 40): a signature whose CMS is {@code depth} nested ASN.1
 * SEQUENCEs (BouncyCastle's parser recurses once per level), and signatures whose dictionary has no {@code /M}.
 * Each signature is a PDFBox incremental update over a one-page document.
 */
public final class HostileSignatures {
    private HostileSignatures() {
    }

    /** {@code depth} nested SEQUENCEs of indefinite length (4 bytes a level): {@code 30 80 … 00 00}. */
    public static byte[] nestedSequences(int depth) {
        byte[] der = new byte[depth * 4];
        for (int i = 0; i < depth; i++) {
            der[2 * i] = 0x30;
            der[2 * i + 1] = (byte) 0x80;
        }
        return der; // the end-of-contents octets are the zeros that follow
    }

    /** A one-page PDF signed {@code count} times, each with the CMS {@code cms} makes of the signed bytes; {@code withDate}: a /M. */
    public static Path signed(Path file, int count, boolean withDate, Cms cms) throws IOException {
        try (PDDocument doc = new PDDocument()) {
            doc.addPage(new PDPage());
            doc.save(file.toFile());
        }
        for (int i = 0; i < count; i++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (PDDocument doc = org.apache.pdfbox.Loader.loadPDF(Files.readAllBytes(file)); SignatureOptions options = new SignatureOptions()) {
                PDSignature signature = new PDSignature();
                signature.setFilter(PDSignature.FILTER_ADOBE_PPKLITE);
                signature.setSubFilter(PDSignature.SUBFILTER_ADBE_PKCS7_DETACHED);
                signature.setName("Signer " + (i + 1));
                if (withDate) signature.setSignDate(Calendar.getInstance());
                options.setPreferredSignatureSize(Math.max(SignatureOptions.DEFAULT_SIGNATURE_SIZE, cms.size() + 16));
                SignatureInterface sign = content -> cms.sign(content.readAllBytes());
                doc.addSignature(signature, sign, options);
                doc.saveIncremental(out); // the original bytes, then the update with the signature
            }
            Files.write(file, out.toByteArray());
        }
        return file;
    }

    /**
     * {@code signed} with a second signature field whose value is a copy of the first's dictionary: two signature
     * dictionaries with the same byte range (and, when the first has none, no {@code /M}). Saved whole, with object
     * streams or without.
     */
    public static Path duplicated(Path signed, Path file, boolean compressed) throws IOException {
        try (PDDocument doc = org.apache.pdfbox.Loader.loadPDF(signed.toFile())) {
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm();
            PDSignatureField first = (PDSignatureField) form.getFields().getFirst();
            COSDictionary copy = new COSDictionary();
            first.getSignature().getCOSObject().entrySet().forEach(e -> copy.setItem(e.getKey(), e.getValue()));
            PDSignatureField second = new PDSignatureField(form);
            second.setPartialName("Copy");
            second.getCOSObject().setItem(COSName.V, copy);
            PDAnnotationWidget widget = second.getWidgets().getFirst();
            widget.setRectangle(new PDRectangle());
            widget.setPage(doc.getPage(0));
            doc.getPage(0).getAnnotations().add(widget);
            form.getFields().add(second);
            // compressed: the dictionaries go into object streams, out of sight of a scan of the file's bytes
            doc.save(file.toFile(), compressed ? org.apache.pdfbox.pdfwriter.compress.CompressParameters.DEFAULT_COMPRESSION
                    : org.apache.pdfbox.pdfwriter.compress.CompressParameters.NO_COMPRESSION);
        }
        return file;
    }

    /** A CMS of {@code depth} nested SEQUENCEs, for {@link #signed}. */
    public static Cms nested(int depth) {
        return new Cms() {
            public byte[] sign(byte[] content) {
                return nestedSequences(depth);
            }

            public int size() {
                return depth * 4;
            }
        };
    }

    /** Makes a signature's CMS from the bytes it covers. */
    public interface Cms {
        byte[] sign(byte[] content) throws IOException;

        /** The most bytes {@link #sign} returns. */
        default int size() {
            return 8192;
        }
    }

    /** A real detached CMS (SHA-256 with RSA) with a new self-signed certificate. */
    public static Cms realCms() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=Hostile Tester,O=docapi tests");
            Instant now = Instant.now();
            ContentSigner signer = new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate());
            X509Certificate cert = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(subject,
                    BigInteger.valueOf(now.toEpochMilli()), Date.from(now.minus(1, ChronoUnit.DAYS)), Date.from(now.plus(365, ChronoUnit.DAYS)),
                    subject, pair.getPublic()).build(signer));
            return content -> {
                try {
                    CMSSignedDataGenerator g = new CMSSignedDataGenerator();
                    g.addSignerInfoGenerator(new JcaSignerInfoGeneratorBuilder(new JcaDigestCalculatorProviderBuilder().build())
                            .build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate()), cert));
                    g.addCertificates(new JcaCertStore(List.of(cert)));
                    return g.generate(new CMSProcessableByteArray(content), false).getEncoded();
                } catch (Exception e) {
                    throw new IOException(e);
                }
            };
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.docapi.engines.dss;

import dev.docapi.engines.EngineFailure;
import eu.europa.esig.dss.enumerations.DigestAlgorithm;
import eu.europa.esig.dss.enumerations.SignatureLevel;
import eu.europa.esig.dss.model.DSSDocument;
import eu.europa.esig.dss.model.DSSException;
import eu.europa.esig.dss.model.FileDocument;
import eu.europa.esig.dss.model.SignatureValue;
import eu.europa.esig.dss.model.ToBeSigned;
import eu.europa.esig.dss.pades.PAdESSignatureParameters;
import eu.europa.esig.dss.pades.SignatureFieldParameters;
import eu.europa.esig.dss.pades.SignatureImageParameters;
import eu.europa.esig.dss.pades.SignatureImageTextParameters;
import eu.europa.esig.dss.pades.signature.PAdESService;
import eu.europa.esig.dss.spi.validation.CommonCertificateVerifier;
import eu.europa.esig.dss.token.DSSPrivateKeyEntry;
import eu.europa.esig.dss.token.Pkcs12SignatureToken;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.ZoneOffset;
import java.util.Locale;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import java.time.format.DateTimeFormatter;
import java.util.Date;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.springframework.stereotype.Component;

/**
 * PAdES baseline signatures (ETSI EN 319 142-1) with the EU's DSS library on PDFBox (issue 27): B-B, or B-T when a
 * timestamp authority is given. The signature is an incremental update, so earlier signatures stay valid.
 */
@Component
public class PadesSigner {
    /** The setting of {@link #maxIterations}. */
    static final String MAX_ITERATIONS_SETTING = "DOCAPI_MAX_PKCS12_ITERATIONS";
    private final long maxIterations;

    /**
     * @param maxIterations the most key-derivation iterations a certificate file may ask for, all its derivations
     *                      together ({@code DOCAPI_MAX_PKCS12_ITERATIONS}, default 1,000,000: real key stores ask for
     *                      2,048 to 10,000 a derivation), checked before any derivation ({@link Pkcs12Bounds})
     */
    public PadesSigner(@org.springframework.beans.factory.annotation.Value("${docapi.max-pkcs12-iterations:1000000}") long maxIterations) {
        this.maxIterations = maxIterations;
    }

    /**
     * A visible signature's box on a page.
     *
     * @param page   the page, from 1
     * @param x      the box's left edge, in PDF points from the page's left
     * @param y      the box's top edge, in PDF points from the page's top
     * @param width  in PDF points
     * @param height in PDF points
     * @param text   the text shown in the box (null: the signer's name and the signing time)
     */
    public record Appearance(int page, float x, float y, float width, float height, String text) {
    }

    /**
     * What to sign with and how.
     *
     * @param reason     the /Reason shown by viewers, or null
     * @param location   the /Location, or null
     * @param appearance a visible signature, or null for an invisible one
     * @param timestamps the timestamp authority for B-T, or null for B-B
     */
    public record Request(String reason, String location, Appearance appearance, TimestampAuthority timestamps) {
    }

    /**
     * Opens the PKCS#12 key store {@code p12} with {@code password} and finds a private key in it.
     *
     * @throws EngineFailure {@link EngineFailure.Kind#PASSWORD_NEEDED} when the password does not open it,
     *                       {@link EngineFailure.Kind#INVALID_INPUT} when it holds no private key, is unreadable or asks
     *                       for more key-derivation iterations than {@code DOCAPI_MAX_PKCS12_ITERATIONS}
     */
    public void check(Path p12, char[] password) throws EngineFailure {
        try (Pkcs12SignatureToken token = open(p12, password)) {
            key(token);
        }
    }

    /**
     * Signs {@code pdf} into {@code out}.
     *
     * @throws EngineFailure as {@link #check}; {@link EngineFailure.Kind#INVALID_INPUT} when DSS refuses the PDF or
     *                       the appearance (e.g. a page beyond the document); {@link EngineFailure.Kind#FAILED} when
     *                       the timestamp authority does not answer with a valid timestamp
     */
    public void sign(Path pdf, Path p12, char[] password, Request request, Path out) throws EngineFailure {
        try (Pkcs12SignatureToken token = open(p12, password)) {
            DSSPrivateKeyEntry key = key(token);
            PAdESService service = new PAdESService(new CommonCertificateVerifier());
            PAdESSignatureParameters params = new PAdESSignatureParameters();
            params.setSignatureLevel(request.timestamps() == null ? SignatureLevel.PAdES_BASELINE_B : SignatureLevel.PAdES_BASELINE_T);
            if (request.timestamps() != null) service.setTspSource(new TimestampSource(request.timestamps()));
            params.setDigestAlgorithm(DigestAlgorithm.SHA256);
            params.setSigningCertificate(key.getCertificate());
            params.setCertificateChain(key.getCertificateChain());
            params.setReason(request.reason());
            params.setLocation(request.location());
            Date now = new Date();
            params.bLevel().setSigningDate(now);
            if (request.appearance() != null) params.setImageParameters(image(request.appearance(), key, now));
            DSSDocument document = new FileDocument(pdf.toFile());
            ToBeSigned data = service.getDataToSign(document, params);
            SignatureValue value = token.sign(data, params.getDigestAlgorithm(), key);
            DSSDocument signed = service.signDocument(document, params, value);
            try (InputStream in = signed.openStream()) {
                Files.copy(in, out);
            }
        } catch (StackOverflowError | NullPointerException e) {
            // the PDF's earlier signatures, which DSS reads to sign after them, are hostile: said in our words (issue 40)
            EngineFailure f = PdfSignatureValidator.unreadable(e);
            throw new EngineFailure(f.kind(), "the PDF could not be signed: " + f.getMessage(), e);
        } catch (RuntimeException e) {
            // DSS says what it refuses (a box off the page or over another signature field) as its AlertException
            TimestampSource.Failure tsa = cause(e, TimestampSource.Failure.class);
            if (tsa != null) throw new EngineFailure(EngineFailure.Kind.FAILED, "the timestamp authority gave no timestamp: " + tsa.getMessage(), e);
            if (e instanceof eu.europa.esig.dss.alert.exception.AlertException) {
                throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the PDF could not be signed: " + e.getMessage(), e);
            }
            // any other failure's text is the library's (issue 40): in the log, and in our words for the client
            EngineFailure f = PdfSignatureValidator.unreadable(e);
            throw new EngineFailure(f.kind(), "the PDF could not be signed: " + f.getMessage(), e);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the signed PDF could not be written: " + e.getMessage(), e);
        }
    }

    /**
     * Why {@code a} cannot be drawn on {@code pdf}, or null when it can: its page must exist and the box must lie
     * within the page as shown (crop box, rotation applied), as DSS requires.
     *
     * @throws EngineFailure {@link EngineFailure.Kind#INVALID_INPUT} when PDFBox cannot read the PDF
     */
    public String refusal(Path pdf, Appearance a) throws EngineFailure {
        try (PDDocument doc = Loader.loadPDF(pdf.toFile(), "", null, null, IOUtils.createTempFileOnlyStreamCache())) {
            if (a.page() > doc.getNumberOfPages()) return "page " + a.page() + " is beyond the document's " + doc.getNumberOfPages() + " pages";
            PDPage page = doc.getPage(a.page() - 1);
            PDRectangle box = page.getCropBox();
            boolean turned = page.getRotation() % 180 != 0;
            float width = turned ? box.getHeight() : box.getWidth();
            float height = turned ? box.getWidth() : box.getHeight();
            if (a.x() + a.width() > width || a.y() + a.height() > height) {
                return String.format(Locale.ROOT, "the box (%.0f, %.0f, %.0f × %.0f) does not fit page %d, which is %.0f × %.0f points",
                        a.x(), a.y(), a.width(), a.height(), a.page(), width, height);
            }
            return null;
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the PDF could not be read: " + e.getMessage(), e);
        }
    }

    private static SignatureImageParameters image(Appearance a, DSSPrivateKeyEntry key, Date signingDate) {
        SignatureFieldParameters field = new SignatureFieldParameters();
        field.setPage(a.page());
        field.setOriginX(a.x());
        field.setOriginY(a.y());
        field.setWidth(a.width());
        field.setHeight(a.height());
        SignatureImageParameters image = new SignatureImageParameters();
        image.setFieldParameters(field);
        SignatureImageTextParameters text = new SignatureImageTextParameters();
        text.setText(a.text() != null ? a.text() : "Digitally signed by " + commonName(key) + "\n"
                + DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC).format(signingDate.toInstant()));
        image.setTextParameters(text);
        return image;
    }

    /** The certificate subject's common name, or its whole DN when it has none. */
    private static String commonName(DSSPrivateKeyEntry key) {
        X500Name subject = X500Name.getInstance(key.getCertificate().getSubject().getPrincipal().getEncoded());
        RDN[] cn = subject.getRDNs(BCStyle.CN);
        return cn.length > 0 ? IETFUtils.valueToString(cn[0].getFirst().getValue()) : subject.toString();
    }

    private Pkcs12SignatureToken open(Path p12, char[] password) throws EngineFailure {
        Pkcs12Bounds.check(p12, password, maxIterations, MAX_ITERATIONS_SETTING);
        try {
            return new Pkcs12SignatureToken(p12.toFile(), new KeyStore.PasswordProtection(password));
        } catch (IOException | DSSException e) {
            // KeyStore.load says a wrong password as an IOException whose cause is an UnrecoverableKeyException
            if (cause(e, java.security.UnrecoverableKeyException.class) != null || String.valueOf(e.getMessage()).contains("password")) {
                throw new EngineFailure(EngineFailure.Kind.PASSWORD_NEEDED, "the password does not open the certificate", e);
            }
            throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the certificate is not a readable PKCS#12 key store", e);
        }
    }

    private static DSSPrivateKeyEntry key(Pkcs12SignatureToken token) throws EngineFailure {
        try {
            var keys = token.getKeys();
            if (keys.isEmpty()) throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the certificate file holds no private key to sign with");
            return keys.getFirst();
        } catch (DSSException e) {
            throw new EngineFailure(EngineFailure.Kind.PASSWORD_NEEDED, "the password does not open the certificate's private key", e);
        }
    }

    static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) if (type.isInstance(t)) return type.cast(t);
        return null;
    }
}

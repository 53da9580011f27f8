package dev.docapi.engines.dss;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.process.ChildJvm;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import eu.europa.esig.dss.diagnostic.CertificateWrapper;
import eu.europa.esig.dss.diagnostic.DiagnosticData;
import eu.europa.esig.dss.diagnostic.PDFRevisionWrapper;
import eu.europa.esig.dss.diagnostic.SignatureWrapper;
import eu.europa.esig.dss.diagnostic.TimestampWrapper;
import eu.europa.esig.dss.model.FileDocument;
import eu.europa.esig.dss.simplereport.SimpleReport;
import eu.europa.esig.dss.spi.validation.CommonCertificateVerifier;
import eu.europa.esig.dss.validation.SignedDocumentValidator;
import eu.europa.esig.dss.validation.reports.Reports;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Validates every signature of a PDF with DSS (ETSI EN 319 102-1), offline: no certificate, revocation or trust
 * list is fetched, and no certificate is trusted, so a signature whose digest and signature value check out is
 * "intact" and its indication says what a full validation would still need (issue 27).
 *
 * <p>DSS runs in a child JVM ({@link DssVerifyMain}) in the engine sandbox, not in the service (issue 40): its time
 * grows with signatures × file size and neither it nor PDFBox looks at an interrupt, and a hostile CMS overflowed
 * BouncyCastle's recursive parser; a child is bounded in heap ({@value #HEAP_MB} MB), time
 * ({@code DOCAPI_SIGNATURES_TIMEOUT}, default 5 min) and CPU, and is killed with its sandbox.
 */
@Component
public class PdfSignatureValidator {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(PdfSignatureValidator.class);
    /** The child's heap: DSS holds the PDF's revisions and each signature's data. */
    static final int HEAP_MB = 768;
    private static final tools.jackson.databind.json.JsonMapper JSON = tools.jackson.databind.json.JsonMapper.builder().build();
    private final int maxSignatures;
    private final ProcessRunner runner;
    private final ChildJvm jvm;
    private final java.time.Duration timeout;

    /**
     * DSS in this JVM (the child's own, and tests).
     *
     * @param maxSignatures the most signatures a PDF may have ({@code DOCAPI_MAX_SIGNATURES}): counted after DSS has
     *                      found them and before it validates any (the costly part, about 1.4 s a signature in a 4 MB
     *                      file), for files whose signatures the bounded scan at validation could not see
     */
    public PdfSignatureValidator(int maxSignatures) {
        this.maxSignatures = maxSignatures;
        this.runner = null;
        this.jvm = null;
        this.timeout = null;
    }

    /**
     * DSS in a sandboxed child JVM.
     *
     * @param timeout how long one validation may take before its child is killed ({@code DOCAPI_SIGNATURES_TIMEOUT})
     */
    @org.springframework.beans.factory.annotation.Autowired
    public PdfSignatureValidator(ProcessRunner runner, @org.springframework.beans.factory.annotation.Value("${docapi.max-signatures:50}") int maxSignatures,
                                 @org.springframework.beans.factory.annotation.Value("${docapi.signatures-timeout:5m}") java.time.Duration timeout) {
        this.maxSignatures = maxSignatures;
        this.runner = runner;
        this.jvm = new ChildJvm(runner);
        this.timeout = timeout;
    }

    /**
     * One certificate of a chain, signing certificate first.
     *
     * @param notBefore start of validity
     * @param notAfter  end of validity
     * @param trusted   whether a trust anchor of the service's (none are configured) vouches for it
     */
    public record Certificate(String subject, String issuer, String serialNumber, Instant notBefore, Instant notAfter,
                              boolean selfSigned, boolean trusted) {
    }

    /**
     * One signature, as DSS validated it.
     *
     * @param field                the signature field's name, or null
     * @param signer               the signing certificate's subject common name (or DN), or null when not found
     * @param signingTime          the time the signer claims (the signed attributes or /M), or null
     * @param timestampTime        the earliest signature timestamp's time (PAdES B-T and above), or null
     * @param format               e.g. {@code PAdES-BASELINE-B}
     * @param intact               the signed bytes' digest matches and the signature value verifies with the certificate
     * @param coversWholeDocument  its byte range ends at the end of the file (nothing was appended after it)
     * @param modifiedAfter        a later revision changed the document's objects ({@code modifications} is not empty); a
     *                             later signature counts, as {@code form fields or signatures}
     * @param modifications        what DSS's object comparison of its revision with the final one found changed:
     *                             {@code annotations}, {@code form fields or signatures}, {@code extensions}, {@code other}
     *                             (DSS's visual checks, e.g. an annotation overlapping another, are not changes)
     * @param indication           DSS's conclusion: {@code TOTAL_PASSED}, {@code INDETERMINATE} or {@code TOTAL_FAILED}
     * @param subIndication        why, e.g. {@code NO_CERTIFICATE_CHAIN_FOUND}, {@code HASH_FAILURE}, or null
     * @param certificateChain     the signing certificate and its issuers
     * @param certificateValidAtSigning the signing certificate's validity period covers the signing time
     */
    public record Signature(String field, String signer, Instant signingTime, Instant timestampTime, String format, boolean intact,
                            boolean coversWholeDocument, boolean modifiedAfter, List<String> modifications, String indication,
                            String subIndication, List<Certificate> certificateChain, boolean certificateValidAtSigning) {
    }

    /**
     * Every signature and document timestamp's signature of {@code pdf}, in the order DSS finds them.
     *
     * @throws EngineFailure {@link EngineFailure.Kind#INVALID_INPUT} when DSS cannot read the PDF or its signatures,
     *                       in our words ({@link #unreadable}), or has more than {@code DOCAPI_MAX_SIGNATURES}
     *                       signatures; {@code FAILED} when the file cannot be read from disk
     */
    public List<Signature> validate(Path pdf) throws EngineFailure, InterruptedException {
        return runner == null ? validateHere(pdf) : validateInChild(pdf);
    }

    /**
     * {@link #validate} in a child JVM: its exit code says how it ended ({@link DssVerifyMain}); a run past the
     * timeout or a sandbox bound is stopped with its sandbox.
     */
    private List<Signature> validateInChild(Path pdf) throws EngineFailure, InterruptedException {
        jvm.train(DssVerifyMain.class, HEAP_MB, PdfSignatureValidator::trainingInput);
        Path dir = null;
        try {
            dir = runner.sandbox().newScratchDir("dss-");
            Path out = dir.resolve("signatures.json");
            java.util.List<String> command = jvm.command(DssVerifyMain.class, HEAP_MB, List.of(pdf.toString(), out.toString(), String.valueOf(maxSignatures)));
            java.util.List<Path> readable = new ArrayList<>(jvm.readable());
            readable.add(pdf);
            ProcessRunner.Result r;
            try {
                r = runner.run(command, timeout, Sandbox.Access.of(dir, readable), java.util.Map.of(), ProcessRunner.Expect.ANY_EXIT);
            } catch (EngineFailure e) {
                log.info("DSS's child JVM stopped: {}", e.getMessage());
                throw switch (e.kind()) {
                    case TIMEOUT -> new EngineFailure(EngineFailure.Kind.TIMEOUT, "the signatures were not validated within " + timeout.toSeconds()
                            + " s (DOCAPI_SIGNATURES_TIMEOUT): the file's signatures need more time than one validation may take", e);
                    case BOUND_EXCEEDED -> new EngineFailure(EngineFailure.Kind.BOUND_EXCEEDED,
                            "the signature validator was stopped by the memory, CPU time or output bound of one engine run", e);
                    default -> new EngineFailure(EngineFailure.Kind.FAILED, "the signature validator could not run on this node", e);
                };
            }
            return switch (r.exitCode()) {
                case 0 -> JSON.readValue(out.toFile(), new tools.jackson.core.type.TypeReference<List<Signature>>() {
                });
                // the last line is the child's own message, in our words (DssVerifyMain)
                case DssVerifyMain.EXIT_UNREADABLE -> throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, r.lastLine());
                case DssVerifyMain.EXIT_FAILED -> throw new EngineFailure(EngineFailure.Kind.FAILED, r.lastLine());
                case DssVerifyMain.EXIT_OUT_OF_MEMORY -> throw new EngineFailure(EngineFailure.Kind.BOUND_EXCEEDED,
                        "the signature validator needs more than its " + HEAP_MB + " MB of memory for this file");
                default -> {
                    log.warn("DSS's child JVM exited {}: {}", r.exitCode(), r.lastLine());
                    throw new EngineFailure(EngineFailure.Kind.FAILED, "the signature validator failed (exit " + r.exitCode() + ")");
                }
            };
        } catch (java.io.IOException | RuntimeException e) {
            log.warn("DSS's child JVM could not be run or read: {}", e.toString());
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the signature validator could not run on this node", e);
        } finally {
            if (dir != null) org.springframework.util.FileSystemUtils.deleteRecursively(dir.toFile());
        }
    }

    /** The child's training ({@link ChildJvm#train}): a one-page PDF the service writes itself, with no signature. */
    private static List<String> trainingInput(Path dir) {
        Path pdf = dir.resolve("blank.pdf");
        try (org.apache.pdfbox.pdmodel.PDDocument doc = new org.apache.pdfbox.pdmodel.PDDocument()) {
            doc.addPage(new org.apache.pdfbox.pdmodel.PDPage());
            doc.save(pdf.toFile());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return List.of(pdf.toString(), dir.resolve("signatures.json").toString(), "50");
    }

    /** {@link #validate} in this JVM. */
    List<Signature> validateHere(Path pdf) throws EngineFailure {
        Reports reports;
        long size;
        try {
            size = Files.size(pdf);
            SignedDocumentValidator validator = SignedDocumentValidator.fromDocument(new FileDocument(pdf.toFile()));
            validator.setCertificateVerifier(new CommonCertificateVerifier()); // no online sources: offline validation
            int found = validator.getSignatures().size();
            if (found > maxSignatures) {
                throw new EngineFailure(EngineFailure.Kind.INVALID_INPUT, String.format(java.util.Locale.ROOT,
                        "the PDF has %,d signatures; the limit is %,d per PDF (DOCAPI_MAX_SIGNATURES)", found, maxSignatures));
            }
            reports = validator.validateDocument();
        } catch (RuntimeException | StackOverflowError e) {
            throw unreadable(e);
        } catch (IOException e) {
            log.warn("the PDF could not be read for signature validation: {}", e.toString());
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the PDF could not be read from the service's storage", e);
        }
        SimpleReport simple = reports.getSimpleReport();
        DiagnosticData diagnostic = reports.getDiagnosticData();
        List<Signature> out = new ArrayList<>();
        for (SignatureWrapper s : diagnostic.getSignatures()) {
            String id = s.getId();
            PDFRevisionWrapper revision = s.getPDFRevision();
            boolean whole = revision != null && coversWhole(revision.getSignatureByteRange(), size);
            List<String> modifications = revision == null ? List.of() : modifications(revision);
            CertificateWrapper signing = s.getSigningCertificate();
            Date claimed = s.getClaimedSigningTime();
            out.add(new Signature(revision == null ? null : revision.getFirstFieldName(),
                    signing == null ? simple.getSignedBy(id) : signing.getCommonName() != null ? signing.getCommonName() : signing.getCertificateDN(),
                    instant(claimed), s.getSignatureTimestamps().stream().filter(PdfSignatureValidator::intact)
                            .map(TimestampWrapper::getProductionTime).min(Date::compareTo).map(Date::toInstant).orElse(null),
                    s.getSignatureFormat() == null ? null : s.getSignatureFormat().toString(), s.isSignatureIntact() && s.isSignatureValid(),
                    whole, !modifications.isEmpty(), modifications,
                    name(simple.getIndication(id)), name(simple.getSubIndication(id)),
                    s.getCertificateChain().stream().map(PdfSignatureValidator::certificate).toList(),
                    signing != null && claimed != null && !claimed.before(signing.getNotBefore()) && !claimed.after(signing.getNotAfter())));
        }
        return out;
    }

    /**
     * A failure of DSS (or BouncyCastle under it) on the file, in our words (issue 40): its own text, which can name
     * Java classes and methods, stays in the log. The why is what the kind of failure says of the file.
     */
    static EngineFailure unreadable(Throwable e) {
        log.info("DSS could not read the signatures: {}", e.toString());
        String why;
        if (e instanceof StackOverflowError) {
            why = "a signature's data nests structures too deeply to be read (a damaged or hostile signature)";
        } else if (causedBy(e, NullPointerException.class)) {
            why = "a signature dictionary lacks a value the signature reader needs (e.g. its signing time /M), "
                    + "so the signatures cannot be put in order";
        } else {
            why = "a signature's data is damaged or is not a PDF signature (CMS) the signature reader understands";
        }
        return new EngineFailure(EngineFailure.Kind.INVALID_INPUT, "the PDF's signatures could not be read: " + why, e);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) if (type.isInstance(t)) return true;
        return false;
    }

    private static boolean intact(TimestampWrapper t) {
        return t.isMessageImprintDataFound() && t.isMessageImprintDataIntact() && t.isSignatureIntact() && t.isSignatureValid();
    }

    /** A byte range {@code [a, b, c, d]} covers the file when its second part ends at the file's end. */
    static boolean coversWhole(List<BigInteger> range, long size) {
        return range != null && range.size() == 4 && range.get(2).add(range.get(3)).equals(BigInteger.valueOf(size));
    }

    private static List<String> modifications(PDFRevisionWrapper r) {
        List<String> out = new ArrayList<>();
        if (!r.getPdfAnnotationChanges().isEmpty()) out.add("annotations");
        if (!r.getPdfSignatureOrFormFillChanges().isEmpty()) out.add("form fields or signatures");
        if (!r.getPdfExtensionChanges().isEmpty()) out.add("extensions");
        if (!r.getPdfUndefinedChanges().isEmpty()) out.add("other");
        return out;
    }

    private static Certificate certificate(CertificateWrapper c) {
        return new Certificate(c.getCertificateDN(), c.getCertificateIssuerDN(), c.getSerialNumber(), instant(c.getNotBefore()),
                instant(c.getNotAfter()), c.isSelfSigned(), c.isTrusted());
    }

    private static Instant instant(Date d) {
        return d == null ? null : d.toInstant();
    }

    private static String name(Enum<?> e) {
        return e == null ? null : e.name();
    }
}

package dev.docapi.engines.dss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.docapi.core.ErrorCode;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.pdfbox.PdfSignatures;
import dev.docapi.operations.OperationService;
import dev.docapi.support.ApiTestBase;
import java.nio.file.Path;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile signature structures (issue 40), without Spring: the bounded scan finds them before DSS would read them,
 * and when DSS reads them anyway (a file the scan cannot see into) its failure reaches the client in our words — no
 * Java class or method name, no library text — as the file's fault ({@code invalid_file}).
 */
class HostileSignaturesTest {
    /** A Java class or method name, an exception's or error's, or a JVM package: what a library's own text shows. */
    static final String LIBRARY_TEXT = "(?s).*(\\b(java|javax|eu|org)\\.[a-z]+\\.|Exception|Error\\b|Cannot invoke|\\.get[A-Z]).*";

    @TempDir
    static Path dir;
    static Path nested, threeSigned;

    @BeforeAll
    static void files() throws Exception {
        nested = HostileSignatures.signed(dir.resolve("nested.pdf"), 1, true, HostileSignatures.nested(60_000));
        threeSigned = HostileSignatures.signed(dir.resolve("three.pdf"), 3, true, HostileSignatures.realCms());
    }

    @Test
    void sixtyThousandNestedSequencesAreFoundByTheScanAndDssFailsInOurWords() throws Exception {
        PdfSignatures.Scan scan = PdfSignatures.scan(nested, 50);
        assertThat(scan.count()).isEqualTo(1);
        assertThat(scan.hostile()).contains("signature 1's data (its CMS) nests more than 256 structures");

        // DSS's parser (BouncyCastle) on its own overflows the stack: reported as the file's fault, in our words
        EngineFailure f = catchThrowableOfType(EngineFailure.class, () -> new PdfSignatureValidator(50).validate(nested));
        assertThat(f.getCause()).isInstanceOf(StackOverflowError.class);
        assertThat(f.kind()).isEqualTo(EngineFailure.Kind.INVALID_INPUT);
        assertThat(f.getMessage()).isEqualTo("the PDF's signatures could not be read: a signature's data nests structures too deeply "
                + "to be read (a damaged or hostile signature)").doesNotMatch(LIBRARY_TEXT);
        assertThat(OperationService.failure(f).code()).isEqualTo(ErrorCode.INVALID_FILE);
    }

    @Test
    void twoDictionariesWithTheSameBytesAndNoSigningTimeFailInOurWords() throws Exception {
        Path once = HostileSignatures.signed(dir.resolve("once.pdf"), 1, false, HostileSignatures.realCms());
        // the scan counts one range once (a dictionary written again in a later revision is one signature)
        Path plain = HostileSignatures.duplicated(once, dir.resolve("dup-plain.pdf"), false);
        assertThat(PdfSignatures.scan(plain, 50).count()).isEqualTo(1);
        assertThat(PdfSignatures.scan(plain, 50).hostile()).isNull();
        // DSS finds two and fails with a NullPointerException: said in our words, as the file's fault
        EngineFailure f = catchThrowableOfType(EngineFailure.class, () -> new PdfSignatureValidator(50).validate(plain));
        assertThat(f.kind()).isEqualTo(EngineFailure.Kind.INVALID_INPUT);
        assertThat(f.getMessage()).startsWith("the PDF's signatures could not be read: a signature dictionary lacks a value")
                .contains("/M").doesNotMatch(LIBRARY_TEXT);
        assertThat(OperationService.failure(f).code()).isEqualTo(ErrorCode.INVALID_FILE);
        // in object streams, out of the scan's sight, the same
        Path hidden = HostileSignatures.duplicated(once, dir.resolve("dup-hidden.pdf"), true);
        assertThat(PdfSignatures.scan(hidden, 50).count()).isZero();
        assertThat(catchThrowableOfType(EngineFailure.class, () -> new PdfSignatureValidator(50).validate(hidden)).getMessage())
                .isEqualTo(f.getMessage());
        // what DSS itself said, kept for the log only
        assertThat(rootCause(f)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void realSignaturesAreCountedAsPdfBoxReadsThemAndPassTheScan() throws Exception {
        PdfSignatures.Scan scan = PdfSignatures.scan(threeSigned, 50);
        try (PDDocument doc = Loader.loadPDF(threeSigned.toFile())) { // an independent reader of the same file
            assertThat(scan.count()).isEqualTo(doc.getSignatureDictionaries().size()).isEqualTo(3);
        }
        assertThat(scan.hostile()).isNull();
        assertThat(PdfSignatures.signed(threeSigned)).isTrue();
        assertThat(PdfSignatures.signed(ApiTestBase.corpus("pdf-text/two-column-paper-2p.pdf"))).isFalse();
        assertThat(new PdfSignatureValidator(50).validate(threeSigned)).hasSize(3).allMatch(PdfSignatureValidator.Signature::intact);
    }

    @Test
    void moreSignaturesThanTheLimitAreRefusedBeforeDssValidatesThem() throws Exception {
        assertThat(PdfSignatures.scan(threeSigned, 2).count()).isGreaterThan(2);
        EngineFailure f = catchThrowableOfType(EngineFailure.class, () -> new PdfSignatureValidator(2).validate(threeSigned));
        assertThat(f.kind()).isEqualTo(EngineFailure.Kind.INVALID_INPUT);
        assertThat(f.getMessage()).isEqualTo("the PDF has 3 signatures; the limit is 2 per PDF (DOCAPI_MAX_SIGNATURES)");
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null) t = t.getCause();
        return t;
    }
}

package dev.docapi.operations.sign;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.engines.pdfbox.PdfSignatures;
import dev.docapi.contract.InputFile;
import java.io.IOException;
import java.util.Locale;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The bounded check, at validation, of a PDF whose signatures DSS will read (sign, verify-signatures; issue 40):
 * one pass over its bytes ({@link PdfSignatures#scan}) counts the signatures and walks each CMS without recursion.
 * DSS's time grows with signatures × file size (100 signatures in 4 MB took 142 s) and its parser recursed until
 * the stack overflowed on a hostile CMS, so such files are refused before any job.
 */
@Component
public class SignedInput {
    private final int maxSignatures;

    /** @param maxSignatures the most signatures one PDF may have for sign and verify-signatures ({@code DOCAPI_MAX_SIGNATURES}) */
    public SignedInput(@Value("${docapi.max-signatures:50}") int maxSignatures) {
        this.maxSignatures = maxSignatures;
    }

    public int maxSignatures() {
        return maxSignatures;
    }

    /**
     * @throws ApiException 400 {@code invalid_file} when {@code in} has more than {@code DOCAPI_MAX_SIGNATURES}
     *                      signatures, or a signature built to break a signature reader (a CMS nested more than
     *                      {@value PdfSignatures#MAX_DER_DEPTH} levels), each named in the message
     */
    public void check(InputFile in) {
        PdfSignatures.Scan scan;
        try {
            scan = PdfSignatures.scan(in.path(), maxSignatures);
        } catch (IOException e) {
            throw new ApiException(ErrorCode.INTERNAL_ERROR, "'" + in.file().name() + "' could not be read from the service's storage");
        }
        if (scan.count() > maxSignatures) {
            throw new ApiException(ErrorCode.INVALID_FILE, String.format(Locale.ROOT,
                    "'%s' (%s) has more than %,d signatures; the limit is %,d per PDF (DOCAPI_MAX_SIGNATURES)",
                    in.file().name(), in.file().id(), maxSignatures, maxSignatures));
        }
        if (scan.hostile() != null) {
            throw new ApiException(ErrorCode.INVALID_FILE, "'" + in.file().name() + "' (" + in.file().id() + ") cannot be read safely: " + scan.hostile());
        }
    }
}

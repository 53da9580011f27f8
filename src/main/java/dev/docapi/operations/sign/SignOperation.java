package dev.docapi.operations.sign;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.FileKind;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.dss.PadesSigner;
import dev.docapi.engines.dss.TimestampAuthority;
import dev.docapi.net.SafeHttpClient;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import java.io.IOException;
import java.io.InputStream;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.springframework.stereotype.Component;

/**
 * {@code POST /sign} (an addition beyond the spec, issue 27): a PAdES baseline signature (ETSI EN 319 142-1) with the
 * key of a PKCS#12 file of the account ({@code certificate}, a file id, uploaded as any file and kept 24 hours) —
 * B-B, or B-T with an RFC 3161 timestamp from {@code timestamp_url}, fetched through the SSRF-safe client. Invisible
 * unless {@code visible} gives a box {@code {page, x, y, width, height, text?}} in PDF points from the page's
 * top-left. The password is a secret option: never stored on the job, never logged. A password that does not open
 * the certificate is 400 {@code invalid_request}; a certificate without a private key, or one whose key derivations
 * ask for more than {@code DOCAPI_MAX_PKCS12_ITERATIONS} iterations (counted before any is done, issue 40), 400
 * {@code invalid_file}, both before any job; a timestamp authority that fails fails the job ({@code internal_error}, spec §7 rule 3) with
 * a message that says so.
 */
@Component
public class SignOperation implements Operation<SignOperation.SignOptions> {
    /** The options, as {@link #OPTIONS} declares them. */
    public record SignOptions(String certificate, String password, String reason, String location, Box visible, String timestampUrl) {
    }

    /** A visible signature's box ({@code visible}): its page from 1, its edges in PDF points from the page's top-left, its text or null. */
    public record Box(int page, double x, double y, double width, double height, String text) {
    }

    /** The largest timestamp response read: real ones are a few KB (the TSA's certificate chain included). */
    private static final int MAX_TIMESTAMP_RESPONSE = 1 << 20;
    private static final MediaType TIMESTAMP_QUERY = MediaType.get("application/timestamp-query");
    /** The largest box edge or offset, in points: 200 inches, PDF's largest page (ISO 32000-1 Annex C). */
    private static final int MAX_POINTS = 14400;
    private static final OptionSchema<Box> BOX = OptionSchema.of(Box.class,
            OptionField.integer("page").min(1).required().description("page, from 1"),
            OptionField.number("x").min(0).max(MAX_POINTS).required().description("left edge, points from the page's left"),
            OptionField.number("y").min(0).max(MAX_POINTS).required().description("top edge, points from the page's top"),
            OptionField.number("width").above(0).max(MAX_POINTS).required(),
            OptionField.number("height").above(0).max(MAX_POINTS).required(),
            OptionField.string("text").maxLength(500).description("text in the box; default: the signer and the time"));
    private static final OptionSchema<SignOptions> OPTIONS = OptionSchema.of(SignOptions.class,
            OptionField.fileId("certificate", FileKind.CERTIFICATE).required()
                    .description("File id of a PKCS#12 key store (.p12/.pfx, uploaded with POST /v1/files) holding the signing key and certificate"),
            OptionField.string("password").maxLength(1024).required().secret()
                    .description("The PKCS#12 file's password; never stored"),
            OptionField.string("reason").maxLength(500).description("Why it is signed, shown by PDF viewers"),
            OptionField.string("location").maxLength(500).description("Where it is signed, shown by PDF viewers"),
            OptionField.object("visible", BOX)
                    .description("A visible signature box {page, x, y, width, height, text?} in PDF points from the page's top-left; default: invisible"),
            OptionField.string("timestamp_url").maxLength(2000)
                    .description("An RFC 3161 timestamp authority's URL: the signature gets a timestamp (PAdES B-T instead of B-B)"));
    private static final OperationSpec<SignOptions> SPEC = OperationSpec.of("sign", "sign_pdf",
            "Digitally sign a PDF (PAdES baseline B-B, or B-T with timestamp_url) with the key of a PKCS#12 certificate file; optionally a visible signature box. Addition beyond the spec.")
            .options(OPTIONS)
            .outputs(OutputMember.NOTE)
            .traits(OperationSpec.Trait.KEEPS_SIGNATURES);
    private final PadesSigner signer;
    private final SafeHttpClient http;
    private final SignedInput signedInput;

    public SignOperation(PadesSigner signer, SafeHttpClient http, SignedInput signedInput) {
        this.signer = signer;
        this.http = http;
        this.signedInput = signedInput;
    }

    @Override
    public OperationSpec<SignOptions> spec() {
        return SPEC;
    }

    @Override
    public void validate(ValidationContext<SignOptions> ctx) {
        SignOptions o = ctx.options();
        signedInput.check(ctx.input()); // DSS reads the PDF's earlier signatures to sign after them
        try {
            signer.check(ctx.file("certificate").path(), o.password().toCharArray());
        } catch (EngineFailure e) {
            throw e.kind() == EngineFailure.Kind.PASSWORD_NEEDED ? ApiException.invalid("'password': " + e.getMessage())
                    : new ApiException(ErrorCode.INVALID_FILE, "'certificate': " + e.getMessage());
        }
        if (o.visible() != null) {
            try {
                String refusal = signer.refusal(ctx.input().path(), appearance(o.visible()));
                if (refusal != null) throw ApiException.invalid("'visible': " + refusal);
            } catch (EngineFailure e) {
                throw new ApiException(ErrorCode.INVALID_FILE, e.getMessage());
            }
        }
        if (o.timestampUrl() != null) {
            String refused = http.refuse(o.timestampUrl(), false);
            if (refused != null) throw ApiException.invalid("'timestamp_url' is refused: " + refused);
        }
    }

    @Override
    public OperationResult run(OperationContext<SignOptions> ctx) throws Exception {
        SignOptions o = ctx.options();
        PadesSigner.Appearance appearance = o.visible() == null ? null : appearance(o.visible());
        TimestampAuthority tsa = o.timestampUrl() == null ? null : request -> post(o.timestampUrl(), request);
        signer.sign(ctx.input().path(), ctx.file("certificate").path(), o.password().toCharArray(),
                new PadesSigner.Request(o.reason(), o.location(), appearance, tsa), ctx.output("signed", "pdf"));
        return OperationResult.empty().withNote("Signed as PAdES-BASELINE-" + (tsa == null ? "B" : "T")
                + ". The certificate is not checked against any trust list; POST /v1/verify-signatures reports what a validation finds.");
    }

    private static PadesSigner.Appearance appearance(Box b) {
        return new PadesSigner.Appearance(b.page(), (float) b.x(), (float) b.y(), (float) b.width(), (float) b.height(), b.text());
    }

    /** One RFC 3161 request over HTTP POST (RFC 3161 §3.4) through the SSRF-safe client, its answer bounded. */
    private byte[] post(String url, byte[] request) throws IOException {
        Request call = new Request.Builder().url(url).header("User-Agent", "docapi/1.0 (+timestamp)")
                .header("Accept", "application/timestamp-reply").post(RequestBody.create(request, TIMESTAMP_QUERY)).build();
        try (Response response = http.client().newCall(call).execute()) {
            if (!response.isSuccessful()) throw new IOException("it answered HTTP " + response.code());
            try (InputStream in = response.body().byteStream()) {
                byte[] body = in.readNBytes(MAX_TIMESTAMP_RESPONSE + 1);
                if (body.length > MAX_TIMESTAMP_RESPONSE) throw new IOException("its answer is larger than " + MAX_TIMESTAMP_RESPONSE + " bytes");
                return body;
            }
        }
    }
}

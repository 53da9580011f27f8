package dev.docapi.files;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.core.FileKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.tika.Tika;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.Pfx;
import org.apache.tika.metadata.Metadata;
import org.springframework.stereotype.Component;

/**
 * Decides what an uploaded file is from its content (issue 16: content decides the type). Bytes of an accepted
 * binary type (PDF, JPG, PNG, WebP, TIFF, OOXML, ODF) are that type whatever the name says — a PNG named
 * {@code scan.jpg} is a PNG. The name only tells apart the text types (HTML, Markdown, plain text), and legacy
 * Office containers. A name of an accepted type whose content is no accepted type at all, or an encrypted or damaged
 * container, is 400 {@code invalid_file}; content the service does not take at all is 415
 * {@code unsupported_file_type} (DESIGN §4).
 */
@Component
public class FileTypes {

    /** An accepted type: its kind, media type and canonical extension. */
    public record Type(FileKind kind, String contentType, String extension) {
    }

    private static final Type PDF = new Type(FileKind.PDF, "application/pdf", "pdf");
    private static final Type JPEG = new Type(FileKind.IMAGE, "image/jpeg", "jpg");
    private static final Type PNG = new Type(FileKind.IMAGE, "image/png", "png");
    private static final Type WEBP = new Type(FileKind.IMAGE, "image/webp", "webp");
    private static final Type TIFF = new Type(FileKind.IMAGE, "image/tiff", "tiff");
    private static final Type DOCX = new Type(FileKind.OFFICE, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx");
    private static final Type XLSX = new Type(FileKind.OFFICE, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx");
    private static final Type PPTX = new Type(FileKind.OFFICE, "application/vnd.openxmlformats-officedocument.presentationml.presentation", "pptx");
    private static final Type DOC = new Type(FileKind.OFFICE, "application/msword", "doc");
    private static final Type XLS = new Type(FileKind.OFFICE, "application/vnd.ms-excel", "xls");
    private static final Type PPT = new Type(FileKind.OFFICE, "application/vnd.ms-powerpoint", "ppt");
    private static final Type ODT = new Type(FileKind.OFFICE, "application/vnd.oasis.opendocument.text", "odt");
    private static final Type ODS = new Type(FileKind.OFFICE, "application/vnd.oasis.opendocument.spreadsheet", "ods");
    private static final Type ODP = new Type(FileKind.OFFICE, "application/vnd.oasis.opendocument.presentation", "odp");
    private static final Type HTML = new Type(FileKind.HTML, "text/html", "html");
    private static final Type MARKDOWN = new Type(FileKind.MARKDOWN, "text/markdown", "md");
    private static final Type TEXT = new Type(FileKind.TEXT, "text/plain", "txt");
    /** A PKCS#12 key store: a signing certificate and its private key, for {@code sign} (issue 27). */
    private static final Type PKCS12 = new Type(FileKind.CERTIFICATE, "application/x-pkcs12", "p12");
    /** Larger than any real key store (a few KB): the sniffer reads no more than this. */
    private static final int PKCS12_MAX_BYTES = 1 << 20;
    /** Types the service produces but does not take as uploads. */
    private static final Type ZIP = new Type(FileKind.ZIP, "application/zip", "zip");
    private static final Type JSON = new Type(FileKind.JSON, "application/json", "json");

    /** Pseudo-types of sniffed content: an OLE2 container (legacy .doc/.xls/.ppt, or an encrypted OOXML file), a damaged ZIP. */
    private static final Type OLE2 = new Type(FileKind.OFFICE, "application/x-tika-msoffice", "ole2");
    private static final Type DAMAGED_ZIP = new Type(FileKind.ZIP, "application/zip", "damaged-zip");

    private static final Map<String, Type> BY_EXTENSION = Map.ofEntries(
            Map.entry("pdf", PDF), Map.entry("jpg", JPEG), Map.entry("jpeg", JPEG), Map.entry("png", PNG),
            Map.entry("webp", WEBP), Map.entry("tif", TIFF), Map.entry("tiff", TIFF), Map.entry("docx", DOCX),
            Map.entry("xlsx", XLSX), Map.entry("pptx", PPTX), Map.entry("doc", DOC), Map.entry("xls", XLS),
            Map.entry("ppt", PPT), Map.entry("odt", ODT), Map.entry("ods", ODS), Map.entry("odp", ODP),
            Map.entry("html", HTML), Map.entry("htm", HTML), Map.entry("md", MARKDOWN), Map.entry("markdown", MARKDOWN),
            Map.entry("txt", TEXT), Map.entry("text", TEXT), Map.entry("p12", PKCS12), Map.entry("pfx", PKCS12));

    private static final Map<String, Type> OUTPUT_BY_EXTENSION = Map.of("zip", ZIP, "json", JSON);

    private final Tika tika = new Tika();

    /**
     * The type of an uploaded file.
     *
     * @throws ApiException 400 {@code invalid_file} when the content does not match the name's extension or the
     *                      container is damaged or encrypted; 415 {@code unsupported_file_type} when the type is not accepted
     */
    public Type detect(Path file, String name) throws IOException {
        String ext = extension(name);
        Type byName = BY_EXTENSION.get(ext);
        Type byContent = sniff(file);
        if (byName == null) {
            if (byContent == null || byContent == OLE2 || byContent == DAMAGED_ZIP || (byContent.kind() == FileKind.TEXT && !ext.isEmpty())) {
                throw new ApiException(ErrorCode.UNSUPPORTED_FILE_TYPE, "'" + name + "' is not a type docapi accepts: PDF; images "
                        + "(JPG, PNG, WebP, TIFF); Word, Excel, PowerPoint and OpenDocument files; HTML; Markdown; plain text; "
                        + "PKCS#12 certificates (.p12, .pfx) for signing");
            }
            return byContent;
        }
        if (byName.kind() == FileKind.HTML || byName.kind() == FileKind.MARKDOWN || byName.kind() == FileKind.TEXT) {
            if (byContent != null && byContent.kind() != FileKind.TEXT && byContent.kind() != FileKind.HTML) throw mismatch(name, byName, byContent);
            if (byContent == null) throw mismatch(name, byName, null);
            return byName;
        }
        if (byContent == OLE2 && (byName == DOC || byName == XLS || byName == PPT)) return byName;
        if (isBinaryAccepted(byContent)) return byContent;
        if (byContent == null || !byContent.equals(byName)) {
            if (byContent == OLE2 && (byName == DOCX || byName == XLSX || byName == PPTX)) {
                throw new ApiException(ErrorCode.INVALID_FILE, "'" + name + "' is a password-protected (encrypted) Office file; "
                        + "remove the password and upload it again");
            }
            throw mismatch(name, byName, byContent);
        }
        return byName;
    }

    /** True for a sniffed type the service takes on its content alone (not a text type, not a pseudo-type). */
    private static boolean isBinaryAccepted(Type t) {
        return t != null && t != OLE2 && t != DAMAGED_ZIP && t.kind() != FileKind.TEXT && t.kind() != FileKind.HTML;
    }

    /** The type of a file the service produced, trusted by its extension. */
    public Type forOutput(String name) {
        String ext = extension(name);
        Type t = BY_EXTENSION.getOrDefault(ext, OUTPUT_BY_EXTENSION.get(ext));
        return t != null ? t : new Type(FileKind.TEXT, "application/octet-stream", ext);
    }


    private Type sniff(Path file) throws IOException {
        byte[] head = new byte[8192];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        if (indexOf(head, n, "%PDF-".getBytes(StandardCharsets.US_ASCII), 1024) >= 0) return PDF;
        if (n > 0 && head[0] == 0x30 && isPkcs12(file)) return PKCS12;
        String type;
        Metadata md = new Metadata();
        try (InputStream in = Files.newInputStream(file)) {
            type = tika.detect(in, md);
        }
        return switch (type) {
            case "image/jpeg" -> JPEG;
            case "image/png" -> PNG;
            case "image/webp" -> WEBP;
            case "image/tiff" -> TIFF;
            case "application/zip", "application/x-tika-ooxml", "application/java-archive",
                 "application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.spreadsheet",
                 "application/vnd.oasis.opendocument.presentation" -> zipType(file);
            case "application/x-tika-msoffice", "application/x-tika-ooxml-protected", "application/msword",
                 "application/vnd.ms-excel", "application/vnd.ms-powerpoint" -> OLE2;
            case "text/html", "application/xhtml+xml" -> HTML;
            default -> looksLikeText(head, n) ? TEXT : null;
        };
    }

    /**
     * A PKCS#12 PFX (RFC 7292): a DER sequence of version 3 and an authenticated safe of type data or signed data,
     * read with BouncyCastle's ASN.1 parser (its content stays encrypted: the password is not known here).
     */
    private static boolean isPkcs12(Path file) throws IOException {
        if (Files.size(file) > PKCS12_MAX_BYTES) return false;
        try {
            Pfx pfx = Pfx.getInstance(ASN1Primitive.fromByteArray(Files.readAllBytes(file)));
            ASN1ObjectIdentifier type = pfx.getAuthSafe().getContentType();
            return type.equals(PKCSObjectIdentifiers.data) || type.equals(PKCSObjectIdentifiers.signedData);
        } catch (IOException | RuntimeException | StackOverflowError notPkcs12) {
            // BouncyCastle's parser recurses once per nested SEQUENCE: a file of nothing but nesting is not a key store
            return false;
        }
    }

    /** OOXML by its {@code [Content_Types].xml} main part, ODF by its {@code mimetype} entry; null for other ZIPs. */
    private static Type zipType(Path file) {
        try (ZipFile zip = new ZipFile(file.toFile())) {
            ZipEntry ct = zip.getEntry("[Content_Types].xml");
            if (ct != null) {
                String types = new String(zip.getInputStream(ct).readNBytes(256 * 1024), StandardCharsets.UTF_8);
                if (types.contains("wordprocessingml.document.main") || types.contains("wordprocessingml.template.main")) return DOCX;
                if (types.contains("spreadsheetml.sheet.main") || types.contains("spreadsheetml.template.main")) return XLSX;
                if (types.contains("presentationml.presentation.main") || types.contains("presentationml.slideshow.main")) return PPTX;
                return null;
            }
            ZipEntry mime = zip.getEntry("mimetype");
            if (mime != null) {
                String m = new String(zip.getInputStream(mime).readNBytes(200), StandardCharsets.US_ASCII).strip();
                if (m.equals(ODT.contentType())) return ODT;
                if (m.equals(ODS.contentType())) return ODS;
                if (m.equals(ODP.contentType())) return ODP;
            }
            return null;
        } catch (IOException e) {
            return DAMAGED_ZIP;
        }
    }


    private static ApiException mismatch(String name, Type byName, Type byContent) {
        String what = byContent == null ? "not a recognised document"
                : byContent == DAMAGED_ZIP ? "a damaged ZIP container"
                : byContent == OLE2 ? "a legacy or encrypted Office container"
                : "a " + byContent.extension().toUpperCase(Locale.ROOT) + " file";
        return new ApiException(ErrorCode.INVALID_FILE, "'" + name + "' is named as " + byName.extension().toUpperCase(Locale.ROOT)
                + " but its content is " + what);
    }

    static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    private static int indexOf(byte[] data, int length, byte[] needle, int within) {
        int limit = Math.min(length, within + needle.length) - needle.length;
        outer:
        for (int i = 0; i <= limit; i++) {
            for (int j = 0; j < needle.length; j++) if (data[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }

    /** Text: UTF-16 with a BOM, or no NUL and few control bytes (UTF-8 and Windows-1252 both pass). */
    private static boolean looksLikeText(byte[] head, int n) {
        if (n >= 2 && ((head[0] == (byte) 0xFF && head[1] == (byte) 0xFE) || (head[0] == (byte) 0xFE && head[1] == (byte) 0xFF))) return true;
        int control = 0;
        for (int i = 0; i < n; i++) {
            int b = head[i] & 0xFF;
            if (b == 0) return false;
            if (b < 0x09 || (b > 0x0D && b < 0x20 && b != 0x1B)) control++;
        }
        return n > 0 && control * 50 < n;
    }
}

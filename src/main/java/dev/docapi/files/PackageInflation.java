package dev.docapi.files;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Zip-bomb check of an uploaded Office package (OOXML, ODF; issue 31 item 3), before any engine sees it: its parts are
 * inflated once, counting the bytes they really give (a ZIP's declared sizes can lie), and the upload is refused with
 * 400 {@code invalid_file} when they pass {@link #MAX_INFLATED_BYTES} in all, or {@link #MAX_RATIO} times the package
 * once past {@link #RATIO_FLOOR_BYTES}, or it holds more than {@link #MAX_PARTS} parts. A 1 MB .docx whose
 * document.xml inflates to 600 MB took LibreOffice to 2 GB of memory; real documents stay far below these bounds
 * (Office XML compresses 5-30 times).
 */
final class PackageInflation {
    static final long MAX_INFLATED_BYTES = 512L << 20;
    static final long MAX_RATIO = 200;
    static final long RATIO_FLOOR_BYTES = 64L << 20;
    static final int MAX_PARTS = 20_000;

    private PackageInflation() {
    }

    /**
     * @throws ApiException 400 {@code invalid_file} naming the bound the package passes
     * @throws IOException  when the file cannot be read
     */
    static void check(Path file, String name) throws IOException {
        long size = Math.max(1, Files.size(file));
        long total = 0;
        int parts = 0;
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file); ZipInputStream zip = new ZipInputStream(in)) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                if (++parts > MAX_PARTS) throw refused(name, "more than " + MAX_PARTS + " parts");
                int n;
                while ((n = zip.read(buffer)) > 0) {
                    total += n;
                    if (total > MAX_INFLATED_BYTES) {
                        throw refused(name, "parts that inflate to more than " + (MAX_INFLATED_BYTES >> 20) + " MB (at '" + entry.getName() + "')");
                    }
                    if (total > RATIO_FLOOR_BYTES && total / size > MAX_RATIO) {
                        throw refused(name, "parts that inflate to more than " + MAX_RATIO + " times its size (at '" + entry.getName() + "')");
                    }
                }
            }
        } catch (java.util.zip.ZipException e) {
            // a package the ZIP reader stumbles on is judged (and refused or repaired) by the engine, as before
        }
    }

    private static ApiException refused(String name, String why) {
        return new ApiException(ErrorCode.INVALID_FILE, "'" + name + "' is refused: an Office package with " + why
                + " (a ZIP bomb, or too large a document to convert)");
    }
}

package dev.docapi.operations;

import dev.docapi.core.FileKind;
import java.util.EnumSet;
import java.util.Set;

/**
 * The input files an operation takes: either one file in the request member {@code file}, or {@code min}-{@code max}
 * files in {@code files}, each of one of {@code kinds} (DESIGN §4: "which operations take images").
 */
public record Inputs(boolean many, int min, int max, Set<FileKind> kinds) {

    public static Inputs onePdf() {
        return new Inputs(false, 1, 1, EnumSet.of(FileKind.PDF));
    }

    public static Inputs one(FileKind first, FileKind... rest) {
        return new Inputs(false, 1, 1, EnumSet.of(first, rest));
    }

    public static Inputs many(int min, int max, FileKind first, FileKind... rest) {
        return new Inputs(true, min, max, EnumSet.of(first, rest));
    }

    /** The request member that carries the file ids: {@code file} or {@code files}. */
    public String member() {
        return many ? "files" : "file";
    }

    public boolean pdfOnly() {
        return kinds.equals(EnumSet.of(FileKind.PDF));
    }
}

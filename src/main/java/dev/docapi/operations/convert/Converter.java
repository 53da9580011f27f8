package dev.docapi.operations.convert;

import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import java.nio.file.Path;

/**
 * One direction of {@code POST /convert} (spec §4.4), e.g. Office → pdf or pdf → docx. Converters are Spring beans;
 * the convert operation picks the first that {@link #accepts} the pair and answers 400 when none does.
 */
public interface Converter {

    /**
     * @param from      the kind of the input file
     * @param extension the input file's extension, lower case without the dot (e.g. {@code docx}, {@code md})
     * @param to        the target
     */
    boolean accepts(FileKind from, String extension, ConvertTarget to);

    /** The extension of the output file (e.g. {@code zip} for pdf → jpg). */
    default String outputExtension(ConvertTarget to) {
        return to.id();
    }

    /**
     * False when the engine this converter needs is not installed on this node; the convert operation then answers
     * 503 {@code service_unavailable} at validation (issue 3: "an engine that is missing answers 503").
     */
    default boolean available() {
        return true;
    }

    /**
     * Writes the converted file to {@code out} and returns it; may report progress through {@code ctx}. A converter
     * whose output's kind depends on what it finds (pdf → md with pictures becomes a ZIP) may instead write a file of
     * another extension in {@code out}'s folder and return that: the output is named after the file returned.
     */
    Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception;
}

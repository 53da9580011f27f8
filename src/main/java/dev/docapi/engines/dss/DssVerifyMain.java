package dev.docapi.engines.dss;

import dev.docapi.engines.EngineFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The child JVM {@link PdfSignatureValidator} runs DSS in, in the engine sandbox (issue 40):
 * {@code DssVerifyMain <pdf> <out.json> <max signatures>} validates every signature of {@code pdf} and writes them
 * to {@code out.json} as a JSON array of {@link PdfSignatureValidator.Signature}. Exit 0 when done; 2 when the file's
 * signatures cannot be read ({@code INVALID_INPUT}) and 3 when the file cannot be read at all ({@code FAILED}), the
 * message (ours, never the library's) on stderr's last line; 4 when DSS ran out of its heap.
 */
public final class DssVerifyMain {
    static final int EXIT_UNREADABLE = 2, EXIT_FAILED = 3, EXIT_OUT_OF_MEMORY = 4;

    private DssVerifyMain() {
    }

    public static void main(String[] args) throws Exception {
        quietLogs();
        Path pdf = Path.of(args[0]);
        Path out = Path.of(args[1]);
        int max = Integer.parseInt(args[2]);
        List<PdfSignatureValidator.Signature> signatures;
        try {
            signatures = new PdfSignatureValidator(max).validateHere(pdf);
        } catch (EngineFailure e) {
            System.err.println(e.getMessage());
            System.exit(e.kind() == EngineFailure.Kind.INVALID_INPUT ? EXIT_UNREADABLE : EXIT_FAILED);
            return;
        } catch (OutOfMemoryError e) {
            System.err.println("out of memory");
            System.exit(EXIT_OUT_OF_MEMORY);
            return;
        }
        Files.writeString(out, JsonMapper.builder().build().writeValueAsString(signatures));
    }

    /** DSS logs each step at DEBUG, which the child's default logging would print: only warnings, on stdout. */
    private static void quietLogs() {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }
}

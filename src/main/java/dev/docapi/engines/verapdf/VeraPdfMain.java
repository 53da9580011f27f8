package dev.docapi.engines.verapdf;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.verapdf.core.EncryptedPdfException;
import org.verapdf.core.ModelParsingException;
import org.verapdf.gf.foundry.VeraGreenfieldFoundryProvider;
import org.verapdf.pdfa.Foundries;
import org.verapdf.pdfa.PDFAParser;
import org.verapdf.pdfa.PDFAValidator;
import org.verapdf.pdfa.VeraPDFFoundry;
import org.verapdf.pdfa.flavours.PDFAFlavour;
import org.verapdf.pdfa.results.ValidationResult;
import org.verapdf.pdfa.validation.profiles.Rule;
import org.verapdf.pdfa.validation.profiles.RuleId;
import tools.jackson.databind.json.JsonMapper;

/**
 * The child JVM {@link VeraPdf} runs in its sandbox: {@code VeraPdfMain <pdf> <flavour|declared> <out.json>} validates
 * {@code pdf} with veraPDF against {@code flavour} ({@code 1b}, {@code 2b}, {@code 2u}, {@code 3b} …) or, given
 * {@code declared}, against the level the file's XMP metadata claims ({@code 2b} when it claims none), and writes a
 * {@link VeraPdf.Verdict} as JSON. Exit 0 when the verdict is written; {@value #EXIT_UNREADABLE} when veraPDF cannot
 * parse the file and {@value #EXIT_ENCRYPTED} when it is encrypted (veraPDF's reason on stderr's last line, never a
 * stack trace: the parent shows it to the client); {@value #EXIT_MEMORY} when the file needs more than the heap.
 */
public final class VeraPdfMain {
    /** Failed rules listed at most; a file that fails more is far from PDF/A anyway. */
    private static final int MAX_RULES = 50;
    static final int EXIT_UNREADABLE = 2;
    static final int EXIT_ENCRYPTED = 3;
    static final int EXIT_MEMORY = 4;

    private VeraPdfMain() {
    }

    public static void main(String[] args) throws Exception {
        // veraPDF logs each odd glyph code as a warning on stderr, whose last line is the parent's error message
        Logger.getLogger("org.verapdf").setLevel(Level.OFF);
        File pdf = new File(args[0]);
        VeraGreenfieldFoundryProvider.initialise();
        VeraPdf.Verdict verdict;
        try (VeraPDFFoundry foundry = Foundries.defaultInstance()) {
            String declared = declared(foundry, pdf);
            PDFAFlavour flavour = PDFAFlavour.fromString(args[1].equals("declared") ? (declared != null ? declared : VeraPdf.DEFAULT_LEVEL) : args[1]);
            try (PDFAParser parser = foundry.createParser(pdf, flavour)) {
                PDFAValidator validator = foundry.createValidator(flavour, false);
                ValidationResult result = validator.validate(parser);
                verdict = new VeraPdf.Verdict(result.isCompliant(), flavour.getId(), declared, failed(validator, result), null);
            }
        } catch (EncryptedPdfException e) {
            exit(EXIT_ENCRYPTED, "the file is encrypted");
            return;
        } catch (ModelParsingException e) {
            exit(EXIT_UNREADABLE, e.getMessage());
            return;
        } catch (Exception | StackOverflowError e) {
            // veraPDF's parser, model and validator throw these on damaged structures it does not recover from (a
            // broken cross-reference table, an object stream that ends early, a cycle): the file is unreadable to it
            exit(EXIT_UNREADABLE, null);
            return;
        } catch (OutOfMemoryError e) {
            exit(EXIT_MEMORY, "the file needs more memory than veraPDF is given");
            return;
        }
        Files.writeString(Path.of(args[2]), JsonMapper.builder().build().writeValueAsString(verdict));
    }

    /** Ends the child with {@code code}, printing {@code reason} (veraPDF's words, without Java class names) on stderr. */
    private static void exit(int code, String reason) {
        String safe = reason == null ? "" : reason.replace('\n', ' ').replaceAll("(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*:?\\s*", "").strip();
        System.err.println(safe.isEmpty() ? "its structure is damaged beyond what veraPDF's parser recovers" : safe);
        System.exit(code);
    }

    /** The level the file's XMP metadata claims ({@code 2b}), or null when it claims none. */
    private static String declared(VeraPDFFoundry foundry, File pdf) throws ModelParsingException, EncryptedPdfException {
        // veraPDF answers the default it is given when the XMP names no level (1b unless told): a flavour no PDF/A
        // file claims stands for "none"
        try (PDFAParser parser = foundry.createParser(pdf, PDFAFlavour.NO_FLAVOUR, PDFAFlavour.WCAG_2_2)) {
            PDFAFlavour f = parser.getFlavour();
            return f == null || f.getPart() == null || f.getPart().getFamily() != PDFAFlavour.SpecificationFamily.PDF_A
                    ? null : f.getId();
        } catch (Exception e) {
            if (e instanceof ModelParsingException m) throw m;
            if (e instanceof EncryptedPdfException x) throw x;
            return null;
        }
    }

    private static List<VeraPdf.FailedRule> failed(PDFAValidator validator, ValidationResult result) {
        List<VeraPdf.FailedRule> rules = new ArrayList<>();
        Map<RuleId, Integer> failed = new LinkedHashMap<>(result.getFailedChecks());
        failed.entrySet().stream().sorted(Comparator.comparing((Map.Entry<RuleId, Integer> e) -> e.getKey().getClause())
                        .thenComparing(e -> e.getKey().getTestNumber())).limit(MAX_RULES)
                .forEach(e -> {
                    Rule rule = validator.getProfile().getRuleByRuleId(e.getKey());
                    RuleId id = e.getKey();
                    rules.add(new VeraPdf.FailedRule(id.getClause() + "-" + id.getTestNumber(), id.getSpecification().getId(),
                            rule == null ? null : rule.getDescription(), e.getValue()));
                });
        return rules;
    }
}

package dev.docapi.operations;

import dev.docapi.accounts.Account;
import dev.docapi.contract.InputFile;
import dev.docapi.core.ApiException;
import java.util.List;
import java.util.Map;

/**
 * What {@link Operation#validate} sees: the account, the resolved input files, the validated options and the files
 * its options name by id ({@link OptionField#fileId}), by option name.
 *
 * @param <O> the operation's options record
 */
public record ValidationContext<O extends Record>(Account account, List<InputFile> inputs, O options, Map<String, InputFile> optionFiles) {

    /** The file option {@code option} names, or null when the request left it out. */
    public InputFile file(String option) {
        return optionFiles.get(option);
    }

    /** The first (for one-file operations, the only) input. */
    public InputFile input() {
        return inputs.getFirst();
    }

    /**
     * Checks that every page number exists in the (single) input PDF.
     *
     * @throws ApiException {@code invalid_request} naming the first page beyond the document
     */
    public void requirePagesExist(String option, List<Integer> pages) {
        Integer count = input().file().pages();
        if (count == null) return;
        for (int p : pages) {
            if (p > count) throw ApiException.invalid("'" + option + "' names page " + p + " but the document has " + count + " page" + (count == 1 ? "" : "s"));
        }
    }
}

package dev.docapi.web;

import dev.docapi.core.ApiException;
import dev.docapi.files.FileService;
import java.io.IOException;
import java.security.Principal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;

/**
 * The account's files of the last 24 hours (spec §2.2): download by signed link, delete with confirmation, open in the
 * page editor ({@link EditorOpenController} for a fresh upload and the files converted first).
 */
@Controller
class FilesPageController {
    static final int RECENT = 100;
    private final FileService files;
    private final CurrentAccount current;

    FilesPageController(FileService files, CurrentAccount current) {
        this.files = files;
        this.current = current;
    }

    @GetMapping("/files")
    String files(Principal principal, Model model) {
        model.addAttribute("files", files.list(current.of(principal), RECENT));
        model.addAttribute("convertible", EditorOpenController.CONVERTED);
        return "files";
    }

    /** A fresh signed link (one hour), made when the owner clicks rather than for every file listed. */
    @GetMapping("/files/{id}/download")
    String download(Principal principal, @PathVariable String id) {
        try {
            return "redirect:" + files.downloadUrl(files.get(current.of(principal), id));
        } catch (ApiException gone) {
            throw CurrentAccount.notFound();
        }
    }

    @PostMapping("/files/{id}/delete")
    String delete(Principal principal, @PathVariable String id) throws IOException {
        try {
            files.delete(current.of(principal), id);
        } catch (ApiException notOwn) {
            throw CurrentAccount.notFound();
        }
        return "redirect:/files?deleted";
    }
}

package dev.docapi.web;

import dev.docapi.core.ApiException;
import dev.docapi.files.FileService;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.fileupload2.core.FileItemInput;
import org.apache.commons.fileupload2.core.FileItemInputIterator;
import org.apache.commons.fileupload2.core.FileUploadException;
import org.apache.commons.fileupload2.jakarta.servlet6.JakartaServletFileUpload;

/**
 * A form post of the developer area that may carry files ({@code multipart/form-data}, read as a stream: Spring's
 * multipart support is off so that the API streams its uploads) or not ({@code application/x-www-form-urlencoded}).
 * Files are received into temp files ({@link FileService#receive}, 100 MB each at most); {@link #close} deletes
 * those not registered since.
 *
 * @param fields  the text fields, each name with all its values in order
 * @param uploads the files sent, in order; a file input left empty sends none
 */
record PostedForm(Map<String, List<String>> fields, List<Upload> uploads) implements AutoCloseable {
    /** The most of one text field that is read (JSON options included). */
    static final int MAX_FIELD_BYTES = 64 * 1024;

    /** A received file: its name as sent and its temp file. */
    record Upload(String name, Path received) {
    }

    /**
     * @param maxFiles the most files the form may carry
     * @throws ApiException 400 {@code invalid_request} for an unreadable body or more than {@code maxFiles} files,
     *                      413 {@code file_too_large}
     */
    static PostedForm read(HttpServletRequest request, String fileField, int maxFiles, FileService files) throws IOException {
        Map<String, List<String>> fields = new LinkedHashMap<>();
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/form-data")) {
            request.getParameterMap().forEach((name, values) -> fields.put(name, List.of(values)));
            return new PostedForm(fields, List.of());
        }
        PostedForm form = new PostedForm(fields, new ArrayList<>());
        try {
            FileItemInputIterator items = new JakartaServletFileUpload<>().getItemIterator(request);
            while (items.hasNext()) {
                FileItemInput item = items.next();
                try (InputStream in = item.getInputStream()) {
                    if (item.isFormField()) {
                        fields.computeIfAbsent(item.getFieldName(), k -> new ArrayList<>())
                                .add(new String(in.readNBytes(MAX_FIELD_BYTES), StandardCharsets.UTF_8));
                    } else if (item.getFieldName().equals(fileField) && item.getName() != null && !item.getName().isEmpty()) {
                        if (form.uploads.size() == maxFiles) {
                            throw ApiException.invalid("at most " + maxFiles + " file" + (maxFiles == 1 ? "" : "s") + " can be sent here");
                        }
                        form.uploads.add(new Upload(item.getName(), files.receive(in)));
                    }
                    in.transferTo(OutputStream.nullOutputStream());
                }
            }
            return form;
        } catch (FileUploadException e) {
            form.close();
            throw ApiException.invalid("the form could not be read: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            form.close();
            throw e;
        }
    }

    /** The first value of each field. */
    Map<String, String> firstValues() {
        Map<String, String> first = new LinkedHashMap<>();
        fields.forEach((name, values) -> first.put(name, values.getFirst()));
        return first;
    }

    List<String> values(String name) {
        return fields.getOrDefault(name, List.of());
    }

    /** Deletes the temp files still there (a registered upload's temp file is gone already). */
    @Override
    public void close() throws IOException {
        for (Upload u : uploads) Files.deleteIfExists(u.received());
    }
}

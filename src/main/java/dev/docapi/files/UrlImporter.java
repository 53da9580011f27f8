package dev.docapi.files;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.net.SafeHttpClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.Response;
import org.springframework.stereotype.Component;

/**
 * {@code POST /files} with {@code {url, name?}} (spec §4.1 rule 3): fetches a public http(s) URL through the
 * SSRF-safe client, with the upload size cap, and stores it as a file with source {@code url}.
 */
@Component
public class UrlImporter {
    private static final Pattern FILENAME = Pattern.compile("filename\\*?=(?:UTF-8'')?\"?([^\";]+)\"?", Pattern.CASE_INSENSITIVE);
    private final SafeHttpClient http;
    private final FileService files;

    public UrlImporter(SafeHttpClient http, FileService files) {
        this.http = http;
        this.files = files;
    }

    /**
     * @throws ApiException 400 {@code fetch_failed} with the reason (refused address, redirect, HTTP error, timeout),
     *                      or any upload error of {@link FileService#store}
     */
    public StoredFile fetch(Account account, String url, String name) {
        String refused = http.refuse(url, false);
        if (refused != null) throw new ApiException(ErrorCode.FETCH_FAILED, "cannot fetch " + url + ": " + refused);
        HttpUrl parsed = HttpUrl.get(url);
        Request request = new Request.Builder().url(parsed).header("User-Agent", "docapi/1.0 (+url-import)").get().build();
        try (Response response = http.client().newCall(request).execute()) {
            if (response.isRedirect()) {
                throw new ApiException(ErrorCode.FETCH_FAILED, "cannot fetch " + url + ": it redirects (HTTP " + response.code()
                        + " to " + response.header("Location") + ") and redirects are not followed; give the final URL");
            }
            if (!response.isSuccessful()) {
                throw new ApiException(ErrorCode.FETCH_FAILED, "cannot fetch " + url + ": the server answered HTTP " + response.code());
            }
            long declared = response.body().contentLength();
            if (declared > FileService.MAX_BYTES) {
                throw new ApiException(ErrorCode.FILE_TOO_LARGE, "the file at " + url + " is larger than 100 MB");
            }
            try (InputStream in = response.body().byteStream()) {
                return files.store(account, in, name != null && !name.isBlank() ? name : nameFrom(response, parsed), "url");
            }
        } catch (SafeHttpClient.RefusedAddressException e) {
            throw new ApiException(ErrorCode.FETCH_FAILED, "cannot fetch " + url + ": " + e.getMessage());
        } catch (IOException e) {
            throw new ApiException(ErrorCode.FETCH_FAILED, "cannot fetch " + url + ": " + describe(e), e);
        }
    }

    private static String nameFrom(Response response, HttpUrl url) {
        String cd = response.header("Content-Disposition");
        if (cd != null) {
            Matcher m = FILENAME.matcher(cd);
            if (m.find()) return URLDecoder.decode(m.group(1), StandardCharsets.UTF_8);
        }
        List<String> segments = url.pathSegments();
        String last = segments.isEmpty() ? "" : segments.getLast();
        return last.isBlank() ? "download" : last;
    }

    private static String describe(IOException e) {
        if (e instanceof java.net.SocketTimeoutException || e instanceof java.io.InterruptedIOException) return "it timed out";
        if (e instanceof java.net.UnknownHostException) return "the host does not resolve (" + e.getMessage() + ")";
        if (e instanceof java.net.ConnectException) return "the connection was refused";
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}

package dev.docapi.workflows;

import dev.docapi.config.DocapiProperties;
import dev.docapi.files.FileService;
import dev.docapi.files.StoredFile;
import dev.docapi.contract.OperationFailure;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.springframework.stereotype.Component;

/**
 * Opens a ZIP produced by a step (e.g. {@code split}'s ZIP of PDFs, {@code convert}'s ZIP of page images) into its
 * files for the next step (DESIGN §4 "several files between workflow steps"). Each member becomes a stored file
 * (source {@code job}) in archive order. Guarded against archive bombs: at most {@link #MAX_ENTRIES} members, each
 * at most 100 MB and {@link #MAX_TOTAL} in all, counted on the bytes actually inflated.
 */
@Component
public class ZipOpener {
    static final int MAX_ENTRIES = 1000;
    static final long MAX_TOTAL = 2L * 1024 * 1024 * 1024;

    private final FileService files;
    private final DocapiProperties props;

    public ZipOpener(FileService files, DocapiProperties props) {
        this.files = files;
        this.props = props;
    }

    /**
     * @throws OperationFailure when the archive cannot be read or passes a limit
     */
    public List<StoredFile> open(StoredFile zip) throws IOException, OperationFailure {
        Files.createDirectories(props.workDir());
        Path dir = Files.createTempDirectory(props.workDir(), "unzip-");
        try (ZipFile z = new ZipFile(files.path(zip).toFile())) {
            List<StoredFile> out = new ArrayList<>();
            long total = 0;
            int index = 0;
            for (Enumeration<? extends ZipEntry> e = z.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                String name = leafName(entry.getName());
                if (entry.isDirectory() || name.isEmpty() || name.startsWith(".") || entry.getName().startsWith("__MACOSX/")) continue;
                if (++index > MAX_ENTRIES) throw new OperationFailure("'" + zip.name() + "' holds more than " + MAX_ENTRIES + " files");
                Path target = dir.resolve(index + "-" + name.replaceAll("[^A-Za-z0-9._-]", "_"));
                long size = copyBounded(z, entry, target, FileService.MAX_BYTES);
                if (size < 0) throw new OperationFailure("'" + name + "' in '" + zip.name() + "' is larger than 100 MB");
                total += size;
                if (total > MAX_TOTAL) throw new OperationFailure("'" + zip.name() + "' unpacks to more than 2 GB");
                out.add(files.storeOutput(zip.accountId(), target, name));
            }
            if (out.isEmpty()) throw new OperationFailure("'" + zip.name() + "' holds no files");
            return out;
        } catch (java.util.zip.ZipException e) {
            throw new OperationFailure(dev.docapi.core.ErrorCode.INTERNAL_ERROR, "'" + zip.name() + "' is not a readable ZIP archive", e);
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Copies at most {@code max} bytes; returns the size, or -1 when the member is larger. */
    private static long copyBounded(ZipFile z, ZipEntry entry, Path target, long max) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long n = 0;
        try (InputStream in = z.getInputStream(entry); OutputStream out = Files.newOutputStream(target)) {
            int r;
            while ((r = in.read(buf)) > 0) {
                n += r;
                if (n > max) return -1;
                out.write(buf, 0, r);
            }
        }
        return n;
    }

    private static String leafName(String entryName) {
        String n = entryName.replace('\\', '/');
        int slash = n.lastIndexOf('/');
        return (slash >= 0 ? n.substring(slash + 1) : n).strip();
    }
}

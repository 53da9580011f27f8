package dev.docapi.contract;

import dev.docapi.files.StoredFile;
import java.nio.file.Path;

/** An input of an operation: its metadata and the path of its bytes (read-only; never write to it). */
public record InputFile(StoredFile file, Path path) {
}

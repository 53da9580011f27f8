-- OCR kept with a file (issue 12 item 4, dev.docapi.files.KeptOcr): one OCR of a PDF's bytes per account, reused by
-- every later operation on a file with those bytes. Never shared between accounts (the key starts with the account).
-- sha256 = of the bytes OCR'd (hex); variant = what else changes the result (the OCR pipeline and engine versions).
-- state: running (claimed by the job that OCRs; stale_at = when a claim whose job died may be taken over) or done
-- (pdf_blob and text_blob are blob ids: the OCR'd PDF and Tesseract's sidecar text, pages separated by form feeds).
-- repaired = comma-separated pages OCR'd from a picture because they were damaged. runs = OCR runs for this key.
-- expires_at = the latest expiry of the files that used it; epoch milliseconds. Portable between H2 2.x and PostgreSQL 15.
CREATE TABLE kept_ocr (
    account_id  VARCHAR(40)  NOT NULL REFERENCES accounts(id),
    sha256      VARCHAR(64)  NOT NULL,
    variant     VARCHAR(200) NOT NULL,
    state       VARCHAR(10)  NOT NULL,
    stale_at    BIGINT       NOT NULL,
    pages_done  INTEGER      NOT NULL,
    runs        INTEGER      NOT NULL,
    pdf_blob    VARCHAR(40),
    text_blob   VARCHAR(40),
    repaired    VARCHAR(10000),
    expires_at  BIGINT       NOT NULL,
    PRIMARY KEY (account_id, sha256, variant)
);
CREATE INDEX kept_ocr_expires ON kept_ocr(expires_at);

-- Which files' bytes a kept OCR is of: deleting a file deletes the kept OCR of its bytes.
CREATE TABLE kept_ocr_files (
    file_id     VARCHAR(40)  NOT NULL,
    account_id  VARCHAR(40)  NOT NULL,
    sha256      VARCHAR(64)  NOT NULL,
    PRIMARY KEY (file_id, sha256)
);
CREATE INDEX kept_ocr_files_content ON kept_ocr_files(account_id, sha256);

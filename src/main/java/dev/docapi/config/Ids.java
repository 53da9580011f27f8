package dev.docapi.config;

import java.security.SecureRandom;

/** Random, opaque identifiers and secrets in base62 (e.g. {@code file_3kQ...}). */
public final class Ids {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    private Ids() {
    }

    /** {@code prefix} followed by 24 random base62 characters (~142 bits). */
    public static String newId(String prefix) {
        return prefix + random(24);
    }

    public static String random(int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) out[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        return new String(out);
    }
}

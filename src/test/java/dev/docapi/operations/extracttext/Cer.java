package dev.docapi.operations.extracttext;

/**
 * Character error rate: Levenshtein distance between recognised text and ground truth, over the truth's length.
 * Both are normalised first: bidi control marks removed (Tesseract adds LRM/RLM around runs of the other
 * direction), every run of whitespace one space.
 */
public final class Cer {
    private Cer() {
    }

    public static double of(String recognised, String truth) {
        String h = normalise(recognised);
        String t = normalise(truth);
        return (double) distance(h, t) / Math.max(1, t.length());
    }

    static String normalise(String s) {
        return s.replaceAll("[\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\f]", "").replaceAll("\\s+", " ").strip();
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}

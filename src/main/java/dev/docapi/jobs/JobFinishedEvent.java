package dev.docapi.jobs;

/** Published after a job reached {@code succeeded} or {@code failed} (including {@code interrupted} at start-up). */
public record JobFinishedEvent(Job job) {
}

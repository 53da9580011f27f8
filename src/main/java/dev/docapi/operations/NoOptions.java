package dev.docapi.operations;

/** The options record of an operation that takes none ({@link OptionSchema#none()}). */
public record NoOptions() {
}

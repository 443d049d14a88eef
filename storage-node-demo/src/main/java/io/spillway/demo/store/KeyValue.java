package io.spillway.demo.store;

/**
 * A stored pair, as returned by range scans.
 *
 * @param key the key
 * @param value the value
 */
public record KeyValue(byte[] key, byte[] value) {
}

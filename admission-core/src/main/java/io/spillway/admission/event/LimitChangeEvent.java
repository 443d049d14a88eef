package io.spillway.admission.event;

/**
 * The limit tuner moved the inflight limit.
 *
 * @param previousLimit the limit before the tick
 * @param newLimit the limit after the tick
 * @param atNanos the engine ticker's time of the tick
 */
public record LimitChangeEvent(int previousLimit, int newLimit, long atNanos) {}

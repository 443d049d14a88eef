package io.spillway.admission.event;

import io.spillway.admission.OpType;
import io.spillway.codel.QueueMode;
import java.util.Objects;

/**
 * An op type's queue switched between FIFO (healthy) and LIFO (a standing queue formed).
 *
 * @param op the op type whose queue switched
 * @param previousMode the mode before
 * @param newMode the mode now
 * @param atNanos the engine ticker's time the switch was observed
 */
public record ModeChangeEvent(OpType op, QueueMode previousMode, QueueMode newMode, long atNanos) {

  /** Validates the parts. */
  public ModeChangeEvent {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(previousMode, "previousMode");
    Objects.requireNonNull(newMode, "newMode");
  }
}

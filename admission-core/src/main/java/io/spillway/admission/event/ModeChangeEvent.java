package io.spillway.admission.event;

import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import io.spillway.codel.QueueMode;
import java.util.Objects;

/**
 * A queue switched between FIFO (healthy) and LIFO (a standing queue formed). The engine keeps one CoDel queue per
 * op type and tier band.
 *
 * @param op the op type whose queue switched
 * @param tier the tier band of the queue
 * @param previousMode the mode before
 * @param newMode the mode now
 * @param atNanos the engine ticker's time the switch was observed
 */
public record ModeChangeEvent(OpType op, Tier tier, QueueMode previousMode, QueueMode newMode, long atNanos) {

  /** Validates the parts. */
  public ModeChangeEvent {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(tier, "tier");
    Objects.requireNonNull(previousMode, "previousMode");
    Objects.requireNonNull(newMode, "newMode");
  }
}

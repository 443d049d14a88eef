package io.spillway.pid.sim;

import java.time.Duration;

/**
 * First order plus dead time, {@code G(s) = K·e^(−Ls)/(1 + Ts)}, the standard process model for PID tuning
 * (Åström &amp; Hägglund, Advanced PID Control, ch. 2). Driven once per tick with a zero-order-hold input; the
 * first-order lag is discretised exactly, the dead time is a whole number of ticks.
 */
public final class FirstOrderDeadTimePlant {
  private final double gain;
  private final double decay;
  private final double[] delayLine;
  private int head;
  private double output;

  public FirstOrderDeadTimePlant(double gain, Duration timeConstant, Duration deadTime, Duration tick) {
    this.gain = gain;
    this.decay = Math.exp(-(double) tick.toNanos() / timeConstant.toNanos());
    this.delayLine = new double[(int) (deadTime.toNanos() / tick.toNanos()) + 1];
  }

  /** The current output of the plant. */
  public double output() {
    return output;
  }

  /** Holds {@code input} for one tick and returns the plant's output at the end of it. */
  public double step(double input) {
    delayLine[head] = input;
    head = (head + 1) % delayLine.length;
    double delayed = delayLine[head];
    output = gain * delayed + (output - gain * delayed) * decay;
    return output;
  }
}

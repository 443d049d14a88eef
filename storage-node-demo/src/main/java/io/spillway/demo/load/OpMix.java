package io.spillway.demo.load;

import java.util.random.RandomGenerator;

/**
 * The share of each command a caller sends: point reads (GET), writes (SET) and scans (RANGE); the shares sum to 1.
 *
 * @param reads share of GETs
 * @param writes share of SETs
 * @param scans share of RANGE scans
 */
public record OpMix(double reads, double writes, double scans) {
  /** The demo's read-heavy mix: 95 % reads, 5 % writes. */
  public static final OpMix READ_HEAVY = new OpMix(0.95, 0.05, 0);

  /** Validates the shares. */
  public OpMix {
    if (reads < 0 || writes < 0 || scans < 0 || Math.abs(reads + writes + scans - 1) > 1e-9) {
      throw new IllegalArgumentException("op mix shares must be >= 0 and sum to 1, were reads " + reads
          + ", writes " + writes + ", scans " + scans);
    }
  }

  /** The command of one call. */
  public enum Op {
    GET, SET, RANGE
  }

  /** Draws the command of a call. */
  public Op draw(RandomGenerator random) {
    final double x = random.nextDouble();
    return x < reads ? Op.GET : x < reads + writes ? Op.SET : Op.RANGE;
  }
}

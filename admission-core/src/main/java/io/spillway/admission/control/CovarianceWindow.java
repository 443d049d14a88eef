package io.spillway.admission.control;

/**
 * Rolling covariance (and correlation) of (x, y) pairs over the last {@code n} intervals.
 *
 * <p>Design: a ring buffer of the last n pairs plus running means and co-moments, updated in O(1) per pair with
 * Welford's online update (B. P. Welford, "Note on a method for calculating corrected sums of squares and
 * products", Technometrics 4(3), 1962) and its exact inverse when the oldest pair leaves the window
 * (the sliding-window form used by e.g. P. Pébay, "Formulas for robust, one-pass parallel computation of
 * covariances and arbitrary-order statistical moments", Sandia SAND2008-6212). Welford's form keeps deviations from
 * the mean rather than raw sums of products, so it does not lose precision when the values are large and their
 * spread small (the raw-sums form {@code Σxy − Σx·Σy/n} cancels catastrophically there). Removal can still
 * accumulate rounding over millions of updates, so every {@code n} additions the moments are recomputed exactly
 * from the ring with a two-pass sum: O(n) once per n additions, O(1) amortised, and the error never grows.
 *
 * <p>Single-threaded: owned by the control thread. Allocation-free after construction.
 */
public final class CovarianceWindow {
  /** The window length used by the limit tuner (docs/admission-control-loops.md#vegaslimittuner). */
  public static final int DEFAULT_INTERVALS = 50;

  private final double[] xs;
  private final double[] ys;
  private int size;
  private int next;
  private int addsSinceRecompute;
  private double meanX;
  private double meanY;
  private double coMoment; // Σ (x − meanX)(y − meanY)
  private double m2x;      // Σ (x − meanX)²
  private double m2y;      // Σ (y − meanY)²

  /**
   * Creates an empty window.
   *
   * @param n number of pairs kept, >= 2
   */
  public CovarianceWindow(int n) {
    if (n < 2) {
      throw new IllegalArgumentException("n must be >= 2, was " + n);
    }
    xs = new double[n];
    ys = new double[n];
  }

  /**
   * Adds a pair, evicting the oldest once the window is full. Non-finite values are rejected.
   *
   * @param x e.g. the peak inflight of the interval
   * @param y e.g. the throughput of the interval
   */
  public void add(double x, double y) {
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      throw new IllegalArgumentException("x and y must be finite, was (" + x + ", " + y + ")");
    }
    if (size == xs.length) {
      removeOldest();
    }
    int slot = (next + size) % xs.length;
    xs[slot] = x;
    ys[slot] = y;
    size++;
    double dx = x - meanX;
    double dy = y - meanY;
    meanX += dx / size;
    meanY += dy / size;
    coMoment += dx * (y - meanY);
    m2x += dx * (x - meanX);
    m2y += dy * (y - meanY);
    if (++addsSinceRecompute >= xs.length) {
      recompute();
    }
  }

  private void removeOldest() {
    double x = xs[next];
    double y = ys[next];
    next = (next + 1) % xs.length;
    size--;
    if (size == 0) {
      meanX = meanY = coMoment = m2x = m2y = 0.0;
      return;
    }
    // Inverse Welford step: the means without the pair, then undo its contribution to the co-moments.
    double oldMeanX = meanX - (x - meanX) / size;
    double oldMeanY = meanY - (y - meanY) / size;
    coMoment -= (x - oldMeanX) * (y - meanY);
    m2x -= (x - oldMeanX) * (x - meanX);
    m2y -= (y - oldMeanY) * (y - meanY);
    meanX = oldMeanX;
    meanY = oldMeanY;
    // Rounding can push a sum of squares a hair below zero; it is a sum of squares, so clamp.
    m2x = Math.max(0.0, m2x);
    m2y = Math.max(0.0, m2y);
  }

  private void recompute() {
    addsSinceRecompute = 0;
    double sx = 0.0;
    double sy = 0.0;
    for (int i = 0; i < size; i++) {
      int slot = (next + i) % xs.length;
      sx += xs[slot];
      sy += ys[slot];
    }
    meanX = sx / size;
    meanY = sy / size;
    double c = 0.0;
    double vx = 0.0;
    double vy = 0.0;
    for (int i = 0; i < size; i++) {
      int slot = (next + i) % xs.length;
      double dx = xs[slot] - meanX;
      double dy = ys[slot] - meanY;
      c += dx * dy;
      vx += dx * dx;
      vy += dy * dy;
    }
    coMoment = c;
    m2x = vx;
    m2y = vy;
  }

  /** Sample covariance of the pairs in the window; NaN until 2 pairs. */
  public double covariance() {
    return size < 2 ? Double.NaN : coMoment / (size - 1);
  }

  /**
   * Pearson correlation of the pairs in the window, in [-1, 1]; NaN until 2 pairs or while x or y has no spread
   * (a constant series carries no evidence either way).
   */
  public double correlation() {
    if (size < 2) {
      return Double.NaN;
    }
    if (noSpread(m2x, meanX) || noSpread(m2y, meanY)) {
      return Double.NaN;
    }
    return Math.max(-1.0, Math.min(1.0, coMoment / Math.sqrt(m2x * m2y)));
  }

  /** True when a series' spread is at the level of rounding error of its values (about 1e-14 relative). */
  private boolean noSpread(double m2, double mean) {
    double resolution = 1e-14 * Math.abs(mean);
    return !(m2 > size * resolution * resolution) || m2 == 0.0;
  }

  /** Sample variance of x; NaN until 2 pairs. */
  public double varianceX() {
    return size < 2 ? Double.NaN : m2x / (size - 1);
  }

  /**
   * Variance of y around its least-squares line on x (the noise of y that x does not explain); NaN until 3 pairs.
   * When x has no spread this is the plain variance of y.
   */
  public double residualVarianceY() {
    if (size < 3) {
      return Double.NaN;
    }
    if (!(m2x > 0.0)) {
      return m2y / (size - 1);
    }
    return Math.max(0.0, m2y - coMoment * coMoment / m2x) / (size - 2);
  }

  /** Mean of x in the window; NaN while empty. */
  public double meanX() {
    return size == 0 ? Double.NaN : meanX;
  }

  /** Mean of y in the window; NaN while empty. */
  public double meanY() {
    return size == 0 ? Double.NaN : meanY;
  }

  /** Number of pairs currently in the window. */
  public int size() {
    return size;
  }

  /** Capacity of the window. */
  public int capacity() {
    return xs.length;
  }

  /** Empties the window. */
  public void clear() {
    size = 0;
    next = 0;
    addsSinceRecompute = 0;
    meanX = meanY = coMoment = m2x = m2y = 0.0;
  }
}

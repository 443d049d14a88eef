package io.spillway.admission.control;

/**
 * Rolling covariance of (x, y) pairs over the last n intervals; O(1) per update.
 */
public final class CovarianceWindow {
  private final double[] xs;
  private final double[] ys;
  private int size;
  private int next;
  private double meanX;
  private double meanY;
  private double coMoment;

  /** @param n number of pairs kept, >= 2 */
  public CovarianceWindow(int n) {
    if (n < 2) {
      throw new IllegalArgumentException("n must be >= 2, was " + n);
    }
    xs = new double[n];
    ys = new double[n];
  }

  /** Adds a pair, evicting the oldest once the window is full. */
  public void add(double x, double y) {
    if (size == xs.length) {
      remove(xs[next], ys[next]);
    }
    xs[next] = x;
    ys[next] = y;
    next = (next + 1) % xs.length;
    size++;
    double dx = x - meanX;
    meanX += dx / size;
    meanY += (y - meanY) / size;
    coMoment += dx * (y - meanY);
  }

  private void remove(double x, double y) {
    size--;
    if (size == 0) {
      meanX = 0;
      meanY = 0;
      coMoment = 0;
      return;
    }
    double newMeanX = meanX - (x - meanX) / size;
    coMoment -= (x - newMeanX) * (y - meanY);
    meanY -= (y - meanY) / size;
    meanX = newMeanX;
  }

  /** Sample covariance of the pairs in the window; NaN until 2 pairs. */
  public double covariance() {
    return size < 2 ? Double.NaN : coMoment / (size - 1);
  }

  /** Number of pairs currently in the window. */
  public int size() {
    return size;
  }
}

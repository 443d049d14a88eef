package io.spillway.demo.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lag is read on the loop's own schedule against an injected clock: a loop whose clock moved 200 ms between
 * scheduling the task and running it (a stall, as the clock sees it) records that lag less the period.
 */
class EventLoopLagTest {
  private static final long MS = 1_000_000L;
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final AtomicLong clock = new AtomicLong();
  private final EventLoopLag lag = new EventLoopLag(clock::get);

  @AfterEach
  void shutDown() {
    lag.stop();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  @Test
  void aStallOfTheLoopIsRecordedAsItsLengthLessThePeriod() {
    AtomicLong longestHeard = new AtomicLong();
    lag.alsoRecordTo(nanos -> longestHeard.accumulateAndGet(nanos, Math::max));
    lag.start(group);
    group.next().execute(() -> clock.addAndGet(200 * MS));
    Histogram seen = samplesUntil(h -> h.getMaxValue() >= 150 * MS);
    assertThat(seen.getMaxValue()).isBetween(seen.lowestEquivalentValue(190 * MS),
        seen.highestEquivalentValue(190 * MS));
    assertThat(longestHeard).as("the listener hears each sample").hasValue(190 * MS);
  }

  @Test
  void aLoopOnScheduleRecordsNoLag() {
    lag.start(group);
    Histogram seen = samplesUntil(h -> h.getTotalCount() >= 5);
    assertThat(seen.getMaxValue()).isZero();
  }

  @Test
  void aLoopThatHasShutDownIsNotSampled() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    assertThatCode(() -> lag.start(group)).doesNotThrowAnyException();
    assertThat(lag.intervalHistogram().getTotalCount()).isZero();
  }

  /** The samples taken until {@code done} holds of them, waiting at most {@link #WAIT}. */
  private Histogram samplesUntil(java.util.function.Predicate<Histogram> done) {
    Histogram seen = new Histogram(EventLoopLag.MAX_LAG_NANOS, 2);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!done.test(seen)) {
      assertThat(System.nanoTime()).as("samples after %s: %s", WAIT, seen.getTotalCount()).isLessThan(deadline);
      LockSupport.parkNanos(MS);
      seen.add(lag.intervalHistogram());
    }
    return seen;
  }
}

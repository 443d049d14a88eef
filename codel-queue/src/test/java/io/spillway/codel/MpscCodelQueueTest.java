package io.spillway.codel;

import io.spillway.testkit.VirtualClock;
import static io.spillway.codel.RecordingDropHandler.drop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Deterministic behaviour in virtual time: target 5 ms, interval 100 ms, slough 10 ms, queue timeout 1 s. */
class MpscCodelQueueTest {

  private static final long START = 7_000_000_000L;

  private final VirtualClock ticker = new VirtualClock(START);
  private final RecordingDropHandler<String> drops = new RecordingDropHandler<>();
  private final MpscCodelQueue<String> queue =
      new MpscCodelQueue<>(CodelConfig.builder().capacity(16).build(), ticker::read, drops);

  @Test
  void servesInArrivalOrderWhileHealthy() {
    offerAll("a", "b", "c");
    assertThat(pollAll()).containsExactly("a", "b", "c");
    assertThat(queue.stats().mode()).isEqualTo(QueueMode.FIFO);
    assertThat(drops.drops).isEmpty();
    assertThat(queue.stats().served()).isEqualTo(3);
    assertThat(queue.stats().offered()).isEqualTo(3);
  }

  @Test
  void switchesToLifoWhenAStandingQueueOutlastsAnIntervalAndBackToFifoWhenItDrains() {
    offerAll("a", "b", "c", "d");
    ticker.advance(Duration.ofMillis(8));
    assertThat(queue.poll()).isEqualTo("a"); // sample: oldest waited 8 ms > target, still FIFO mid-interval
    assertThat(queue.stats().minSojournNanos()).isEqualTo(Duration.ofMillis(8).toNanos());
    ticker.advance(Duration.ofMillis(92));
    offerAll("e", "f");
    ticker.advance(Duration.ofMillis(1));
    // Interval closes with min sojourn 8 ms > 5 ms: overloaded, LIFO. b, c, d waited 101 ms > 10 ms: sloughed.
    assertThat(queue.poll()).isEqualTo("f");
    assertThat(queue.stats().mode()).isEqualTo(QueueMode.LIFO);
    assertThat(drops.takeAll()).containsExactly(
        drop("b", DropReason.SLOUGHED), drop("c", DropReason.SLOUGHED), drop("d", DropReason.SLOUGHED));
    offerAll("g");
    assertThat(queue.poll()).isEqualTo("g"); // newest first while the queue stands
    assertThat(queue.stats().mode()).isEqualTo(QueueMode.LIFO);
    assertThat(queue.poll()).isEqualTo("e"); // the queue drained: back to FIFO
    assertThat(queue.stats().mode()).isEqualTo(QueueMode.FIFO);
    offerAll("h", "i");
    assertThat(pollAll()).containsExactly("h", "i");
    assertThat(queue.stats().drops(DropReason.SLOUGHED)).isEqualTo(3);
  }

  @Test
  void anEmptyMomentInTheIntervalKeepsTheQueueHealthy() {
    offerAll("a");
    ticker.advance(Duration.ofMillis(50));
    assertThat(queue.poll()).isEqualTo("a");
    assertThat(queue.poll()).isNull(); // found empty: samples 0
    offerAll("b", "c");
    ticker.advance(Duration.ofMillis(60));
    assertThat(queue.poll()).isEqualTo("b"); // interval closed with min 0: not overloaded, still FIFO
    assertThat(queue.stats().mode()).isEqualTo(QueueMode.FIFO);
    assertThat(drops.drops).isEmpty();
  }

  @Test
  void staysLifoUntilEmptyEvenAfterOverloadClears() {
    offerAll("a");
    ticker.advance(Duration.ofMillis(100));
    assertThat(queue.dropExpired()).isZero(); // closes the first interval without a sample; samples 100 ms
    ticker.advance(Duration.ofMillis(99));
    offerAll("x", "y", "z");
    ticker.advance(Duration.ofMillis(1));
    assertThat(queue.poll()).isEqualTo("z"); // min was 100 ms: overloaded, LIFO; a (200 ms) sloughed
    assertThat(drops.takeAll()).containsExactly(drop("a", DropReason.SLOUGHED));
    ticker.advance(Duration.ofMillis(1));
    assertThat(queue.dropExpired()).isZero(); // samples x at 2 ms
    ticker.advance(Duration.ofMillis(99));
    // That interval's min was 2 ms: no longer overloaded. The standing entries are still served LIFO, and the
    // 101 ms they waited is past the slough threshold but nothing is sloughed.
    assertThat(queue.poll()).isEqualTo("y");
    assertThat(queue.stats().mode()).isEqualTo(QueueMode.LIFO);
    assertThat(drops.drops).isEmpty();
    assertThat(queue.poll()).isEqualTo("x");
    assertThat(queue.stats().mode()).isEqualTo(QueueMode.FIFO);
  }

  @Test
  void sloughsOnlyWhileOverloaded() {
    offerAll("a", "b");
    ticker.advance(Duration.ofMillis(200)); // first interval had no sample: verdict stays healthy
    assertThat(queue.poll()).isEqualTo("a");
    assertThat(drops.drops).isEmpty();
    assertThat(queue.dropExpired()).isZero();
    ticker.advance(Duration.ofMillis(100)); // that interval's min was 200 ms: overloaded now
    assertThat(queue.dropExpired()).isEqualTo(1);
    assertThat(drops.takeAll()).containsExactly(drop("b", DropReason.SLOUGHED));
  }

  @Test
  void theHardSojournCapAppliesWithoutOverload() {
    offerAll("a");
    ticker.advance(Duration.ofMillis(999));
    offerAll("b");
    assertThat(queue.dropExpired()).isZero();
    ticker.advance(Duration.ofMillis(1));
    assertThat(queue.dropExpired()).isEqualTo(1);
    assertThat(drops.takeAll()).containsExactly(drop("a", DropReason.QUEUE_TIMEOUT));
    assertThat(queue.poll()).isEqualTo("b");
    assertThat(queue.stats().drops(DropReason.QUEUE_TIMEOUT)).isEqualTo(1);
  }

  @Test
  void withDeadlineOverridesTimeoutAnEntryWithADeadlineWaitsPastTheTimeoutUpToItsDeadline() {
    MpscCodelQueue<String> q = new MpscCodelQueue<>(CodelConfig.builder().capacity(16) // never sloughs (5 s)
        .sloughFactor(CodelConfig.MAX_SLOUGH_FACTOR).deadlineOverridesTimeout(true).build(), ticker::read, drops);
    long now = ticker.read();
    q.offer("late", now + Duration.ofMillis(3_000).toNanos());
    q.offer("none");
    q.offer("soon", now + Duration.ofMillis(1_500).toNanos());
    ticker.advance(Duration.ofMillis(1_000));
    assertThat(q.dropExpired()).isEqualTo(1); // the timeout (1 s) still caps the entry without a deadline
    assertThat(drops.takeAll()).containsExactly(drop("none", DropReason.QUEUE_TIMEOUT));
    ticker.advance(Duration.ofMillis(500));
    assertThat(q.dropExpired()).isEqualTo(1);
    assertThat(drops.takeAll()).containsExactly(drop("soon", DropReason.DEADLINE));
    ticker.advance(Duration.ofMillis(1_000));
    assertThat(q.poll()).isEqualTo("late"); // waited 2.5 s, twice and a half the timeout
    assertThat(drops.drops).isEmpty();
  }

  @Test
  void withoutTheOverrideTheTimeoutCapsAnEntryWhateverItsDeadline() {
    queue.offer("late", ticker.read() + Duration.ofMillis(3_000).toNanos());
    ticker.advance(Duration.ofMillis(1_000));
    assertThat(queue.dropExpired()).isEqualTo(1);
    assertThat(drops.takeAll()).containsExactly(drop("late", DropReason.QUEUE_TIMEOUT));
  }

  @Test
  void dropsEntriesPastTheirDeadlineWhereverTheyWait() {
    long now = ticker.read();
    queue.offer("a");
    queue.offer("late", now + Duration.ofMillis(3).toNanos());
    queue.offer("b", now + Duration.ofMillis(30).toNanos());
    queue.offer("already", now);
    ticker.advance(Duration.ofMillis(3));
    assertThat(queue.dropExpired()).isEqualTo(2);
    assertThat(drops.takeAll())
        .containsExactly(drop("late", DropReason.DEADLINE), drop("already", DropReason.DEADLINE));
    assertThat(pollAll()).containsExactly("a", "b");
    assertThat(queue.stats().drops(DropReason.DEADLINE)).isEqualTo(2);
  }

  @Test
  void pollDropsExpiredEntriesMetOnTheWay() {
    long now = ticker.read();
    queue.offer("a", now + 1);
    queue.offer("b");
    ticker.advanceNanos(1);
    assertThat(queue.poll()).isEqualTo("b");
    assertThat(drops.takeAll()).containsExactly(drop("a", DropReason.DEADLINE));
  }

  @Test
  void aFullQueueRefusesOnTheProducerThreadAndCapacityIsExact() {
    for (int i = 0; i < 16; i++) {
      assertThat(queue.offer("e" + i)).isTrue();
    }
    assertThat(queue.offer("over")).isFalse();
    assertThat(drops.takeAll()).containsExactly(drop("over", DropReason.QUEUE_FULL));
    assertThat(queue.size()).isEqualTo(16);
    assertThat(queue.poll()).isEqualTo("e0");
    assertThat(queue.offer("e16")).isTrue(); // one ended, one more fits
    assertThat(queue.offer("over2")).isFalse();
    assertThat(queue.stats().offered()).isEqualTo(19);
    assertThat(queue.stats().drops(DropReason.QUEUE_FULL)).isEqualTo(2);
  }

  @Test
  void reconfigureTakesEffectOnTheConsumerSideWithoutLosingEntries() {
    for (int i = 0; i < 16; i++) {
      queue.offer("e" + i);
    }
    CodelConfig bigger = CodelConfig.builder().capacity(100).queueTimeout(Duration.ofMillis(50)).build();
    queue.reconfigure(bigger);
    assertThat(queue.config()).isEqualTo(bigger);
    assertThat(queue.offer("refused")).isFalse(); // not applied until the consumer runs
    assertThat(queue.poll()).isEqualTo("e0"); // applies it: storage grows past the first ring
    List<String> accepted = new ArrayList<>();
    for (int i = 16; i < 115; i++) {
      if (queue.offer("e" + i)) {
        accepted.add("e" + i);
      }
    }
    assertThat(accepted).hasSize(85); // 15 waiting + 85 = 100
    assertThat(queue.size()).isEqualTo(100);
    List<String> served = pollAll();
    assertThat(served).hasSize(100).startsWith("e1", "e2").endsWith("e100");
    ticker.advance(Duration.ofMillis(50));
    queue.offer("old");
    queue.reconfigure(bigger.toBuilder().capacity(2).build());
    queue.offer("x");
    assertThat(queue.dropExpired()).isZero();
    assertThat(queue.offer("y")).isFalse();
    ticker.advance(Duration.ofMillis(50));
    assertThat(queue.poll()).isNull(); // the new 50 ms timeout applies
    assertThat(queue.stats().drops(DropReason.QUEUE_TIMEOUT)).isEqualTo(2);
  }

  @Test
  void shrinkingBelowTheWaitingCountKeepsEveryEntry() {
    for (int i = 0; i < 10; i++) {
      queue.offer("e" + i);
    }
    queue.reconfigure(CodelConfig.builder().capacity(3).build());
    assertThat(queue.poll()).isEqualTo("e0");
    assertThat(queue.offer("refused")).isFalse();
    assertThat(pollAll()).hasSize(9);
    assertThat(queue.offer("fits")).isTrue();
  }

  @Test
  void theStatsViewIsOneLiveInstance() {
    QueueStats stats = queue.stats();
    assertThat(queue.stats()).isSameAs(stats);
    queue.offer("a");
    assertThat(stats.size()).isEqualTo(1);
    assertThat(queue.isEmpty()).isFalse();
    queue.poll();
    assertThat(stats.size()).isZero();
    assertThat(queue.isEmpty()).isTrue();
    assertThat(stats.toString()).contains("served=1");
  }

  @Test
  void aThrowingHandlerDoesNotStopTheConsumer() {
    List<String> seen = new ArrayList<>();
    MpscCodelQueue<String> q = new MpscCodelQueue<>(CodelConfig.defaults(), ticker::read, (e, r) -> {
      seen.add(e);
      throw new IllegalStateException("handler bug");
    });
    long now = ticker.read();
    q.offer("a", now);
    q.offer("b", now);
    q.offer("c");
    assertThat(q.poll()).isEqualTo("c");
    assertThat(seen).containsExactly("a", "b");
    assertThat(q.size()).isZero();
  }

  @Test
  void refusesNullEntries() {
    assertThatThrownBy(() -> queue.offer(null)).isInstanceOf(NullPointerException.class);
  }

  private void offerAll(String... entries) {
    for (String e : entries) {
      assertThat(queue.offer(e)).isTrue();
    }
  }

  private List<String> pollAll() {
    List<String> out = new ArrayList<>();
    for (String e = queue.poll(); e != null; e = queue.poll()) {
      out.add(e);
    }
    return out;
  }
}
